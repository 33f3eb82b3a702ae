// A road-like graph with id locality: a width x height grid of intersections, each joined to its
// right and lower neighbours by a two-way street that exists with probability 1 - drop, with an
// integer length 1..max_weight. Vertex ids follow the Z-order (Morton) curve, so intersections
// close on the map have close ids, as in DIMACS road networks: the graph chunk-level skipping
// is made for. Deterministic in the seed.
#pragma once

#include <cstdint>
#include <string>

#include "base/types.h"

namespace graphso {

struct RoadOptions {
  uint32_t width = 256;
  uint32_t height = 256;
  double drop = 0.1;
  bool weighted = true;
  uint32_t max_weight = 100;
  uint64_t seed = 1;
};

// Returns the id of the intersection nearest the centre of the map (a good traversal source).
// Throws on options no grid can be made with (generate_road checks them too).
void check_road_options(const RoadOptions& options);
VertexId generate_road(const RoadOptions& options, const std::string& out_path);

}  // namespace graphso
