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
//
// Asynchronous passes (symmetric graphs; docs/jobs.md, "k-core"): a vertex whose degree falls to
// the level during a pass is removed at once and joins next_; where a run holds all of its
// out-edges it pushes there and leaves next_, otherwise it pushes in the next pass as a frontier
// vertex. Each removed vertex thus lowers each neighbour's degree exactly once, as a delta job
// pushes each unit once, and a degree counts at least the neighbours not yet removed, so nobody
// is removed early. The level rises only after a pass that removed no one and left no push
// pending. On a graph not known to be symmetric the job uses edges both ways, where a vertex's
// edges are never known to be all in one run: it stays synchronous there.
#pragma once

#include "jobs/edge_job.h"

namespace graphso {

class KCoreJob final : public EdgeJob<KCoreJob, EdgeUse::BothWays> {
 public:
  explicit KCoreJob(std::string name) : EdgeJob(std::move(name), "kcore") {}

  // An update carries nothing beyond the vertex it reaches: "one incident edge" (counted, or
  // removed).
  struct Incident {};
  static constexpr bool kSkipsSelfLoops = true;
  // A vertex removed during a pass pushes early only where all its out-edges are (begin_source).
  static constexpr bool kChangedPushesWholeOnly = true;

  uint64_t state_bytes(uint64_t n) const override { return 2 * n * sizeof(uint32_t) + 2 * Bitmap::bytes_for(n); }
  void init(const GraphInfo& graph, int threads) override;
  Incident scatter(VertexId, Weight) const { return {}; }
  // Round 0 counts; then a remaining vertex loses one degree, and (asynchronous) is removed at
  // the current level when that leaves it at most the level: true, it joins next_.
  bool gather(VertexId v, Incident) {
    std::atomic_ref<uint32_t> degree(degree_[v]);
    if (counting_) {
      degree.fetch_add(1, std::memory_order_relaxed);
      return false;
    }
    std::atomic_ref<uint32_t> core(core_[v]);
    if (core.load(std::memory_order_relaxed) != kRemaining) return false;
    const uint32_t left = degree.fetch_sub(1, std::memory_order_relaxed) - 1;
    if (!async_ || left > level_) return false;
    uint32_t remaining = kRemaining;
    return core.compare_exchange_strong(remaining, level_, std::memory_order_relaxed);
  }
  // A frontier vertex pushes through every run of its edges; one removed during this pass only
  // through a run that holds them all, which takes it out of next_ (it pushes once).
  bool begin_source(VertexId src, bool in_frontier, bool whole) {
    if (!whole) return in_frontier;
    next_.reset_atomic(src);
    return true;
  }
  void end_round() override;
  void write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const override;
  BinaryValues binary_values() const override { return {"uint32", nullptr}; }
  std::string signature() const override { return async_ ? "kcore async" : "kcore"; }
  const std::vector<uint32_t>& cores() const { return core_; }

 private:
  static constexpr uint32_t kRemaining = 0xFFFFFFFFu;

  bool counting_ = true;
  uint32_t level_ = 0;
  std::vector<uint32_t> degree_;
  std::vector<uint32_t> core_;  // kRemaining while the vertex remains
};

}  // namespace graphso
