// delta-PageRank and personalised PageRank jobs as one job: each vertex holds its L members' rank,
// pending and incoming deltas side by side (a cache line per 8 members), so an edge is read and
// decoded once and adds every member's share in one loop over the lanes, which the compiler
// vectorises.
//
// Synchronous rounds, each lane exactly PageRankDeltaJob's (jobs/pagerank.h): a lane is active at
// a vertex while its pending delta is above its threshold (the member's tolerance / N); an active
// lane pushes d x pending / outdeg, an inactive one pushes 0, which adds nothing (x + 0 = x in
// floating point), so a lane's rank takes the same sums it takes alone. The group's frontier is
// the vertices with any lane active. A member finishes when its lane has no active vertex
// (converged), or after its max_iterations rounds (not converged: the lane is frozen from then on,
// as the job alone stops). Its ranks are within the same bound of the exact ones as alone; they
// are the ranks the job computes alone in synchronous rounds wherever the engine adds a
// destination's shares in the same order (docs/jobs.md, "Grouped jobs").
#pragma once

#include <memory>
#include <vector>

#include "jobs/edge_job.h"
#include "jobs/job_group.h"
#include "jobs/pagerank.h"

namespace graphso {

template <uint32_t L>
class PageRankDeltaGroup final : public EdgeJob<PageRankDeltaGroup<L>, EdgeUse::OutEdges>, public JobGroup {
 public:
  // What an edge carries: each lane's share (and an X-Stream update record holds).
  struct Shares {
    double lane[L];
  };

  explicit PageRankDeltaGroup(std::vector<PageRankDeltaJob*> members);

  std::span<Job* const> members() const override { return members_; }
  const char* method() const override { return "delta-pagerank lanes"; }
  uint32_t lanes() const override { return L; }

  bool async_capable() const override { return false; }
  uint64_t state_bytes(uint64_t n) const override { return 4 * n * sizeof(Shares) + n + 2 * Bitmap::bytes_for(n); }
  void init(const GraphInfo& graph, int threads) override;
  // What the round began with (activate): an active lane's d x pending / outdeg, as
  // PageRankDeltaJob::scatter computes it, and 0 for the others.
  const Shares& scatter(VertexId u, Weight) const { return outgoing_[u]; }
  bool gather(VertexId v, const Shares& s) {
    locks_.with(v, [&] { gather_owned(v, s); });
    return false;
  }
  bool gather_owned(VertexId v, const Shares& s) {
    double* incoming = incoming_.data() + uint64_t{v} * L;
    for (uint32_t l = 0; l < L; ++l) incoming[l] += s.lane[l];
    return false;
  }
  void end_round() override;
  std::string signature() const override { return {}; }
  Job::BinaryValues binary_values() const override { return {"float64", nullptr}; }

 protected:
  void write_values(OutFormat, const VertexOrder&, const Job::ResultSink&) const override;

 private:
  // The lanes of each vertex whose pending passes their threshold (with out-edges, of running
  // lanes) push it this round: it moves to outgoing_ as its share per out-edge; the frontier is
  // the vertices with any. Lanes in `stopping` are tested but push nothing. Returns the lanes
  // active anywhere.
  uint64_t activate(uint64_t stopping);
  // Members whose lanes are active nowhere have converged.
  void settle_converged(uint64_t active);

  std::vector<Job*> members_;
  std::vector<PageRankDeltaJob*> delta_;
  std::vector<double> threshold_;  // per lane: its tolerance / N
  std::vector<double> damping_;    // per lane: its job's d
  // Each member's ranks; shared with the members, whose results are read from them once the batch
  // (and the group) is gone.
  std::shared_ptr<std::vector<double>> rank_;
  std::vector<double> pending_;
  std::vector<double> incoming_;
  std::vector<Shares> outgoing_;  // per frontier vertex: its lanes' shares this round
  VertexLocks locks_;             // gathers into vertices the thread does not own
  uint64_t running_ = 0;          // lanes that have not finished
};

}  // namespace graphso
