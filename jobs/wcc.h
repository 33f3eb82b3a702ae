// Weakly connected components: every vertex ends with the smallest vertex id of its component.
// Labels travel along each edge in BOTH directions (Direction::Both), which is what makes the
// answer right on directed input; GridGraph's one-way push labels by reachability instead.
#pragma once

#include "jobs/atomics.h"
#include "jobs/edge_job.h"

namespace graphso {

class WccJob final : public EdgeJob<WccJob, Direction::Both> {
 public:
  explicit WccJob(std::string name) : EdgeJob(std::move(name), "wcc") {}

  uint64_t state_bytes(uint64_t n) const override { return n * sizeof(uint32_t) + 2 * ((n + 63) / 64 * 8); }
  void init(const GraphInfo& graph, int threads) override;
  uint32_t scatter(VertexId u, Weight) const { return label_[u]; }
  bool gather(VertexId v, uint32_t label) { return atomic_min(label_[v], label); }
  void end_round() override;
  std::string format_results(OutFormat format) const override;
  const std::vector<uint32_t>& labels() const { return label_; }

 private:
  std::vector<uint32_t> label_;
};

}  // namespace graphso
