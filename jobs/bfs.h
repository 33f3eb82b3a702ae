// Breadth-first search: hop level from the source; unreachable vertices are -1 in text output
// (9223372036854775807 in Graphalytics output) and 0xFFFFFFFF in binary output. Levels only
// decrease, so any edge order reaches the answer.
#pragma once

#include <limits>

#include "jobs/atomics.h"
#include "jobs/edge_job.h"

namespace graphso {

class BfsJob final : public EdgeJob<BfsJob, EdgeUse::OutEdges> {
 public:
  static constexpr uint32_t kUnreached = std::numeric_limits<uint32_t>::max();
  // reach: bounded passes' hops (jobs/edge_job.h), 0 for no bound.
  BfsJob(std::string name, VertexId source, uint32_t reach = kDefaultReachHops)
      : EdgeJob(std::move(name), "bfs"), source_(source), reach_hops_(reach) {}

  uint64_t state_bytes(uint64_t n) const override { return n * sizeof(uint32_t) + 2 * Bitmap::bytes_for(n); }
  void init(const GraphInfo& graph, int threads) override;
  uint32_t scatter(VertexId u, Weight) const { return level_[u] + 1; }
  bool gather(VertexId v, uint32_t level) { return atomic_min(level_[v], level); }
  bool gather_owned(VertexId v, uint32_t level) { return owned_min(level_[v], level); }
  void end_round() override;
  // Bounded passes (jobs/edge_job.h): a level changed in a pass travels on within reach only.
  bool within_reach(VertexId v) const { return level_[v] <= reach_; }
  void write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const override;
  BinaryValues binary_values() const override { return {"uint32", "4294967295"}; }
  const std::vector<uint32_t>& levels() const { return level_; }
  VertexId source() const { return source_; }
  uint32_t reach_hops() const { return reach_hops_; }
  std::string signature() const override;
  // A bit-parallel group that runs this job (jobs/bfs_group.h) writes its levels here: the
  // levels, all unreached but the source's (0), and nothing else of the job's state.
  uint32_t* levels_for_group(uint64_t vertices);

 private:
  VertexId source_;
  uint32_t reach_hops_;
  std::vector<uint32_t> level_;
  uint32_t reach_ = 0;  // asynchronous: the highest level a change travels on with in this pass
};

}  // namespace graphso
