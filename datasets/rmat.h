// Graph500-style R-MAT generator: 2^scale vertices, edge_factor * 2^scale edges, quadrant
// probabilities a=.57, b=c=.19, d=.05, vertex ids scrambled by a seeded bijection so hubs are not
// clustered at low ids. Each edge is a pure function of (seed, edge index): the output is the same
// bytes for the same seed whatever the thread count.
#pragma once

#include <cstdint>
#include <string>

namespace graphso {

struct RmatOptions {
  uint32_t scale = 16;
  uint32_t edge_factor = 16;
  bool weighted = false;
  uint32_t max_weight = 255;  // weights uniform in 1..max_weight
  uint64_t seed = 1;
  double a = 0.57, b = 0.19, c = 0.19;
};

// Throws on options no graph can be made with (generate_rmat checks them too).
void check_rmat_options(const RmatOptions& options);
void generate_rmat(const RmatOptions& options, const std::string& out_path);

}  // namespace graphso
