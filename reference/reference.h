// The in-memory reference the engines are checked against (the tests, `graphso run --verify`): a
// CSR graph and textbook algorithms (queue BFS, Dijkstra, union-find, power-iteration PageRank).
// It shares no code with the engines or the jobs, so a bug in one is not mirrored in the other.
#pragma once

#include <cstdint>
#include <vector>

#include "base/types.h"

namespace graphso::reference {

struct Csr {
  uint64_t vertices = 0;
  std::vector<uint64_t> offsets;  // vertices + 1
  std::vector<VertexId> targets;
  std::vector<Weight> weights;
  uint64_t out_degree(uint64_t v) const { return offsets[v + 1] - offsets[v]; }
};

Csr build_csr(uint64_t vertices, const std::vector<WeightedEdge>& edges);

inline constexpr uint32_t kUnreached = 0xFFFFFFFFu;
inline constexpr uint64_t kInfinity = ~uint64_t{0};

std::vector<uint32_t> bfs(const Csr& g, VertexId source);
std::vector<uint64_t> sssp(const Csr& g, VertexId source);
// Dijkstra over real weights (each weight's 32 bits a binary32), in double: +inf unreached.
std::vector<double> sssp_real(const Csr& g, VertexId source);
// Smallest vertex id of each weakly connected component.
std::vector<uint32_t> wcc(uint64_t vertices, const std::vector<WeightedEdge>& edges);
// `iterations` synchronous steps from 1/N, damping d, no dangling redistribution; with
// spread_dangling, LDBC Graphalytics' rule: each step also gives every vertex d/N of the rank the
// vertices without out-edges held.
std::vector<double> pagerank(const Csr& g, uint32_t iterations, bool spread_dangling = false, double d = 0.85);
// The fixed point of the same equation, to an L1 step below 1e-14.
std::vector<double> pagerank_fixed_point(const Csr& g, double d = 0.85);
// Personalized PageRank's fixed point: (1-d)/|S| teleported to each source, the rest as above.
std::vector<double> personalized_pagerank_fixed_point(const Csr& g, const std::vector<VertexId>& sources, double d = 0.85);
// Whether the set of (src, dst) pairs equals its reverse (prep's test, multiplicities ignored).
bool symmetric(const std::vector<WeightedEdge>& edges);
// Core numbers by Batagelj-Zaversnik's bucket algorithm, one vertex at a time, on the undirected
// view jobs/kcore.h defines: each stored edge u->v (u != v) joins u and v, or, on a symmetric
// edge list, gives v one incident edge from u (its reverse gives u one from v).
std::vector<uint32_t> core_numbers(uint64_t vertices, const std::vector<WeightedEdge>& edges);
// LDBC Graphalytics' CDLP, `iterations` synchronous steps from each vertex's own id: the most
// frequent neighbour label, the smallest on a tie, kept when there is none. Counted per stored edge
// u->v (u != v): one for each end, or, on a symmetric edge list, one for u (its reverse gives v its
// own).
std::vector<uint32_t> cdlp(uint64_t vertices, const std::vector<WeightedEdge>& edges, uint32_t iterations);
// LDBC Graphalytics' LCC: N(v) the vertices linked to v either way (not v); the distinct edges u->w
// (u != w) with both ends in N(v), over |N(v)| (|N(v)| - 1); 0 below two neighbours.
std::vector<double> lcc(uint64_t vertices, const std::vector<WeightedEdge>& edges);

}  // namespace graphso::reference
