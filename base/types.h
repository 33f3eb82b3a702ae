// The vocabulary shared by every layer: vertex ids, weights, edge records.
#pragma once

#include <bit>
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

// Real weights (a graph whose headers say so: EdgeListInfo, GridMeta) are IEEE binary32 in the
// weight's 32 bits. Every layer that moves weights (records, packed pages, the X-Stream layout,
// the chunk cache) moves them as they are, as compact as integer ones; and for the non-negative
// finite values allowed, the bits order as the values do, so a smallest-weight dedup keeps the
// same edge. Only what adds them up or prints them (SSSP, export) reads them as numbers.
inline float real_weight(Weight bits) { return std::bit_cast<float>(bits); }
inline Weight real_weight_bits(float value) { return std::bit_cast<Weight>(value); }

}  // namespace graphso
