// Single-source shortest paths over non-negative integer weights (1 per edge on an unweighted
// graph), Bellman-Ford style: a vertex whose distance dropped pushes again next round.
//
// Real weights (GraphInfo::real_weights, binary32): a distance is a double, held as its bits in
// the same u64 (non-negative doubles order as their bits do, so atomic_min and every comparison
// stay as they are; unreached stays UINT64_MAX, above every double's bits); an edge adds its weight
// in double. Each distance is the sum along its path in path order, the value Dijkstra computes.
// Passes are not bounded there (`reach` counts hops of integer weights).
//
// Synchronous rounds: edges scatter the distances the round began with (dist_) and gathers
// lower next_dist_, which end_round() copies back for the vertices that changed, so what a round
// reads never depends on which thread got to an edge first.
// Asynchronous passes (the default, Job::set_async): gathers lower dist_ itself, and a distance
// lowered in a pass travels on in the same pass through the edges still to come; distances only
// fall, so the answer is the same (docs/jobs.md).
// Unreachable: "inf" in text output ("Infinity" in Graphalytics output), UINT64_MAX in binary output.
#pragma once

#include <functional>
#include <limits>

#include "jobs/atomics.h"
#include "jobs/edge_job.h"

namespace graphso {

class SsspJob final : public EdgeJob<SsspJob, EdgeUse::OutEdges> {
 public:
  static constexpr uint64_t kInfinity = std::numeric_limits<uint64_t>::max();
  // reach: bounded passes' hops (jobs/edge_job.h), 0 for no bound.
  SsspJob(std::string name, VertexId source, uint32_t reach = kDefaultReachHops)
      : EdgeJob(std::move(name), "sssp"), source_(source), reach_hops_(reach) {}

  uint64_t state_bytes(uint64_t n) const override {
    return (async_ ? 1 : 2) * n * sizeof(uint64_t) + 2 * Bitmap::bytes_for(n);
  }
  void init(const GraphInfo& graph, int threads) override;
  uint64_t scatter(VertexId u, Weight w) const { return real_ ? add_real(dist_[u], w) : dist_[u] + w; }
  // A distance's bits plus a real weight, in double.
  static uint64_t add_real(uint64_t distance, Weight w) {
    return std::bit_cast<uint64_t>(std::bit_cast<double>(distance) + static_cast<double>(real_weight(w)));
  }
  bool gather(VertexId v, uint64_t dist) { return atomic_min(lowered_[v], dist); }
  bool gather_owned(VertexId v, uint64_t dist) { return owned_min(lowered_[v], dist); }
  void end_round() override;
  // Light rounds: an asynchronous pass over the graph in memory runs to the last distance by
  // delta-stepping (jobs/bucket_pass.h), buckets as wide as the mean weight over the mean degree;
  // synchronous rounds stay on the engine's runs.
  bool adjacency_round(const Adjacency& graph) override;
  bool takes_adjacency() const override { return async_; }
  // Bounded passes (jobs/edge_job.h): a distance changed in a pass travels on within reach only.
  bool within_reach(VertexId v) const { return dist_[v] <= reach_; }  // passes lower dist_ itself
  static constexpr bool kWeighsEdges = true;
  void write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const override;
  BinaryValues binary_values() const override { return distance_values(real_); }
  static BinaryValues distance_values(bool real) { return real ? BinaryValues{"float64", "inf"} : BinaryValues{"uint64", "18446744073709551615"}; }
  const std::vector<uint64_t>& distances() const { return dist_; }
  VertexId source() const { return source_; }
  uint32_t reach_hops() const { return reach_hops_; }
  std::string signature() const override;

 private:
  VertexId source_;
  uint32_t reach_hops_;
  bool real_ = false;
  std::vector<uint64_t> dist_;       // synchronous: as the round began
  std::vector<uint64_t> next_dist_;  // synchronous: lowered by this round's gathers
  uint64_t* lowered_ = nullptr;      // what gathers lower: next_dist_, or dist_ (asynchronous)
  // Asynchronous: the largest distance a change travels on with in this pass; bounded, 0 in the
  // first, which pushes the source alone and so gives long_hop() its first edges.
  uint64_t reach_ = 0;
};

// SSSP results: distance_of(v) for v in the graph's ids, kInfinity for unreached (written as inf,
// or Infinity in Graphalytics output). real: a distance is a double's bits (text: 9 significant
// digits; binary: the double, +inf when unreached).
void write_distances(uint64_t n, const std::function<uint64_t(VertexId)>& distance_of, OutFormat format,
                     const VertexOrder& order, const Job::ResultSink& sink, bool real);

// Light rounds' delta-stepping (jobs/bucket_pass.h), for a job alone and for each lane of a group:
// one lane's distances, at dist.base[v * stride] for vertex v.
struct DistanceColumn {
  uint64_t* base;
  uint64_t stride;
  uint64_t& operator[](uint64_t v) const { return base[v * stride]; }
};
// The buckets' width for this graph's weights (integer weights: at least 1).
double delta_stepping_width(const Adjacency& graph, bool real);
// Runs the distances to their fixed point from the vertices in `pending`; returns the pushes.
uint64_t delta_stepping(const Adjacency& graph, DistanceColumn dist, std::vector<VertexId> pending, bool real, double width,
                        int threads);

}  // namespace graphso
