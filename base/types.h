// The vocabulary shared by every layer: vertex ids, weights, edge records.
#pragma once

#include <cstdint>

namespace graphso {

using VertexId = uint32_t;
using Weight = uint32_t;

// 0xFFFFFFFF is reserved as "no vertex", so the largest usable id is 2^32 - 2.
inline constexpr uint64_t kMaxVertexId = 0xFFFFFFFEull;
inline constexpr VertexId kNoVertex = 0xFFFFFFFFu;

// On-disk edge records. Unweighted edges are 8 bytes, weighted ones 12 bytes.
struct Edge {
  VertexId src;
  VertexId dst;
};
struct WeightedEdge {
  VertexId src;
  VertexId dst;
  Weight weight;
};
static_assert(sizeof(Edge) == 8);
static_assert(sizeof(WeightedEdge) == 12);

inline constexpr uint32_t edge_bytes(bool weighted) { return weighted ? 12u : 8u; }

}  // namespace graphso
