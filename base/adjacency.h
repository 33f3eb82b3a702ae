// The graph's out-edges per vertex, in memory (compressed sparse rows): what a run builds once the
// chunk cache holds every chunk and the budget has room beside it, so that a job's later rounds
// walk a vertex's edges directly (light rounds, Job::adjacency_round) instead of asking the
// middleware which chunks hold its frontier and walking their runs. On road-FLA a BFS is 580
// rounds of a few thousand edges each: through the chunks every round costs its planning, its
// lookups and its runs; over these arrays a round costs its edges.
//
//   offsets[v] .. offsets[v + 1]   v's edges in targets (and weights, on a weighted graph)
//
// A vertex's edges are in no particular order (a GridGraph graph gives them block by block).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/edge_run.h"
#include "base/huge_page_array.h"
#include "base/types.h"

namespace graphso {

class Adjacency {
 public:
  // The bytes the arrays take for n vertices and m edges.
  static uint64_t bytes_for(uint64_t n, uint64_t m, bool weighted) {
    return (n + 1) * sizeof(uint64_t) + m * (sizeof(VertexId) + (weighted ? sizeof(Weight) : 0));
  }

  // Built in three steps: arrays sized from the out-degrees, every edge added run by run (on
  // several threads at once; a run holds records or source groups, no packed pages), then
  // finish(), which checks that every vertex got exactly its out-degree's edges.
  Adjacency(std::span<const uint32_t> out_degrees, bool weighted);
  // Empty when the run's edges took their places; else what is wrong (an id outside the graph, a
  // vertex given more edges than its out-degree), and the adjacency is not to be used.
  std::string add(const EdgeRun& run);
  // Fails (a one-line error) unless every vertex has all its edges.
  void finish();

  uint64_t vertices() const { return offsets_.empty() ? 0 : offsets_.size() - 1; }
  uint64_t edges() const { return targets_.size(); }
  bool weighted() const { return weighted_; }
  uint64_t bytes() const { return bytes_for(vertices(), edges(), weighted_); }
  uint64_t degree(VertexId v) const { return offsets_[v + 1] - offsets_[v]; }
  std::span<const VertexId> targets(VertexId v) const {
    return {targets_.data() + offsets_[v], targets_.data() + offsets_[v + 1]};
  }
  // v's edges' weights, in the order of targets(v); empty on an unweighted graph.
  std::span<const Weight> weights(VertexId v) const {
    if (weights_.empty()) return {};
    return {weights_.data() + offsets_[v], weights_.data() + offsets_[v + 1]};
  }

 private:
  HugePageArray<uint64_t> offsets_;
  HugePageArray<VertexId> targets_;
  HugePageArray<Weight> weights_;
  bool weighted_ = false;
  std::vector<uint64_t> cursor_;  // while building: where each vertex's next edges go
};

}  // namespace graphso
