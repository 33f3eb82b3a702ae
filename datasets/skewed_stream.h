// A skewed update stream (GEAR's wear-levelling workload): a small hot set of vertices takes a
// given share of the updates. Each edge's source is, with probability hot_share, a hot vertex
// (uniform among them), else any vertex (uniform); its destination likewise, independently. The
// hot vertices are spread over the id space (one in each of `hot` equal ranges). Each edge is a
// pure function of (seed, edge index).
#pragma once

#include <cstdint>
#include <string>

namespace graphso {

struct SkewedStreamOptions {
  uint32_t scale = 16;        // 2^scale vertices
  uint32_t edge_factor = 16;  // edges per vertex
  double hot_fraction = 0.01;
  double hot_share = 0.5;
  bool weighted = false;
  uint32_t max_weight = 255;
  uint64_t seed = 1;
};

void check_skewed_stream_options(const SkewedStreamOptions& options);
void generate_skewed_stream(const SkewedStreamOptions& options, const std::string& out_path);

}  // namespace graphso
