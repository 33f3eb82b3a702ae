// k-core decomposition: each vertex's core number (the largest k such that the vertex lies in a
// subgraph where every vertex has degree >= k) on the undirected view of the stored edges: each
// stored edge u->v with u != v is an undirected edge {u, v}, parallel edges counted, self-loops
// not. On a graph prep found symmetric every edge is stored both ways, so the out-edges alone
// are that view and the job runs as an out-edge job.
//
// Batch peeling (Batagelj-Zaversnik, level by level), one wave per round: round 0 counts every
// vertex's degree (every vertex is in the frontier); from then on, at level k, every remaining
// vertex of degree <= k is removed with core number k and becomes the frontier, whose edges
// lower its remaining neighbours' degrees in the next round. A level that removes no one moves
// to the smallest remaining degree. Degrees only fall and a removed vertex is never touched, so
// any edge order inside a round gives the same answer.
#pragma once

#include "jobs/job.h"

namespace graphso {

class KCoreJob final : public Job {
 public:
  explicit KCoreJob(std::string name) : Job(std::move(name), "kcore") {}

  EdgeUse edge_use() const override { return reverse_ ? EdgeUse::BothWays : EdgeUse::OutEdges; }
  uint64_t state_bytes(uint64_t n) const override { return 2 * n * sizeof(uint32_t) + (n + 63) / 64 * 8; }
  void init(const GraphInfo& graph, int threads) override;
  void process(const EdgeRun& run) override;
  // An update is the vertex an edge reaches: "one incident edge" (counted, or removed).
  uint32_t update_bytes() const override { return sizeof(VertexId); }
  void scatter_updates(const EdgeRun& run, std::vector<std::byte>& out) override;
  void gather_updates(std::span<const std::byte> updates) override;
  void end_round() override;
  void write_results(OutFormat format, const VertexOrder& order, const ResultSink& sink) const override;
  BinaryValues binary_values() const override { return {"uint32", nullptr}; }
  const std::vector<uint32_t>& cores() const { return core_; }

 private:
  static constexpr uint32_t kRemaining = 0xFFFFFFFFu;
  // Calls reach(v) for each endpoint v of a run's edge whose other endpoint is in the frontier.
  template <typename Record, typename Reach>
  void for_each_reached(const EdgeRun& run, Reach&& reach) const;
  template <typename Reach>
  void reached(const EdgeRun& run, Reach&& reach) const;
  void touch(VertexId v);

  bool reverse_ = true;
  bool counting_ = true;
  uint32_t level_ = 0;
  std::vector<uint32_t> degree_;
  std::vector<uint32_t> core_;  // kRemaining while the vertex remains
};

}  // namespace graphso
