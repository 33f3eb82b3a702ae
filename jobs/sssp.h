// Single-source shortest paths over non-negative integer weights (1 per edge on an unweighted
// graph), Bellman-Ford style: a vertex whose distance dropped pushes again next round.
// Unreachable: "inf" in text output, UINT64_MAX in binary output.
#pragma once

#include <limits>

#include "jobs/atomics.h"
#include "jobs/edge_job.h"

namespace graphso {

class SsspJob final : public EdgeJob<SsspJob, EdgeUse::OutEdges> {
 public:
  static constexpr uint64_t kInfinity = std::numeric_limits<uint64_t>::max();
  SsspJob(std::string name, VertexId source) : EdgeJob(std::move(name), "sssp"), source_(source) {}

  uint64_t state_bytes(uint64_t n) const override { return n * sizeof(uint64_t) + 2 * ((n + 63) / 64 * 8); }
  void init(const GraphInfo& graph, int threads) override;
  uint64_t scatter(VertexId u, Weight w) const { return dist_[u] + w; }
  bool gather(VertexId v, uint64_t dist) { return atomic_min(dist_[v], dist); }
  void end_round() override;
  std::string format_results(OutFormat format, const VertexOrder& order) const override;
  const std::vector<uint64_t>& distances() const { return dist_; }

 private:
  VertexId source_;
  std::vector<uint64_t> dist_;
};

}  // namespace graphso
