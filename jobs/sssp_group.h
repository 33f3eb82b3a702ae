// Single-source shortest paths from up to L sources as one job: each vertex holds its L members'
// distances side by side (one cache line per 8 members), so an edge is read and decoded once for
// every member.
//
// Asynchronous members (the default) run in passes (jobs/lane_passes.h): gathers lower the
// distances in place, and a vertex pushes only the lanes whose distance changed since it last
// pushed (all at each edge when many do), within each member's reach, as SsspJob's passes do; on a
// road network, where the members' frontiers are far apart, a lane then costs what its job costs
// alone, and the passes, loads and walks are shared.
//
// Synchronous members (--async off) run in rounds, as SsspJob's: edges scatter the distances a
// round began with, gathers lower the next ones, and the round's end takes them. A source in the
// frontier (the union of the members' frontiers) relaxes every lane in one tight loop the compiler
// vectorises, not only those that changed: a lane whose distance at u did not change last round
// has pushed it already, so dist(u) + w is no lower than what v holds and the lane is left as it
// was. Each member thus sees exactly its own rounds, and ends in the round in which its distances
// stop changing.
//
// Either way each member's distances are those it computes alone. Unreached is kFar (2^62), not
// 2^64 - 1: kFar plus a weight stays far and never wraps, so no lane needs a test. Every real
// distance is below it on graphs of fewer than 2^30 vertices (weights are below 2^32); larger
// graphs' SSSP jobs are not grouped. Real weights (jobs/sssp.h): distances are doubles' bits, and
// unreached is +infinity's, which adding a weight keeps; passes are not bounded there.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "jobs/edge_job.h"
#include "jobs/job_group.h"
#include "jobs/lane_passes.h"
#include "jobs/sssp.h"

namespace graphso {

template <uint32_t L>
class SsspGroup final : public EdgeJob<SsspGroup<L>, EdgeUse::OutEdges>, public JobGroup {
 public:
  static constexpr uint64_t kFar = uint64_t{1} << 62;
  static constexpr uint64_t kFarReal = 0x7FF0000000000000ull;  // +infinity's bits
  // The most vertices a graph may have for its SSSP jobs to be grouped (the header says why).
  static constexpr uint64_t kMostVertices = uint64_t{1} << 30;
  // What an edge carries: a distance per lane (and an X-Stream update record holds).
  struct Distances {
    uint64_t lane[L];
  };
  static constexpr bool kWeighsEdges = true;

  // The members share their asynchronous setting and reach (jobs/job_groups.cc keys them so).
  explicit SsspGroup(std::vector<SsspJob*> members);

  std::span<Job* const> members() const override { return members_; }
  const char* method() const override { return "sssp lanes"; }
  uint32_t lanes() const override { return L; }

  bool async_capable() const override { return true; }
  uint64_t state_bytes(uint64_t n) const override {
    if (this->async()) return n * sizeof(Distances) + 2 * Bitmap::bytes_for(n) + Passes::state_bytes(n);
    return 2 * n * sizeof(Distances) + 2 * Bitmap::bytes_for(n);
  }
  void init(const GraphInfo& graph, int threads) override;
  void process(const EdgeRun& run) override;
  void scatter_updates(const EdgeRun& run, std::vector<std::byte>& out) override;
  void gather_updates(std::span<const std::byte> updates) override;
  uint32_t update_bytes() const override;
  // A record per lane that pushes in passes; one with every lane in rounds.
  uint32_t updates_per_edge() const override { return passes_ ? L : 1; }
  bool may_push(VertexId first, VertexId end, bool reentry) const override;
  bool wants_reentry(VertexId first, VertexId end) const override;
  // In passes: the vertices with lanes changed this pass, for the late join.
  // Lane passes ask whether a run holds all of a source's edges.
  bool takes_windows(bool reentry) const override { return !passes_ && EdgeJob<SsspGroup<L>, EdgeUse::OutEdges>::takes_windows(reentry); }
  Job::PassChanges pass_changes() const override { return passes_ ? Job::PassChanges{&passes_->changed(), false} : Job::PassChanges{}; }
  Distances scatter(VertexId u, Weight w) const {
    Distances d;
    const uint64_t* at = dist_->data() + uint64_t{u} * L;
    if (real_) {
      for (uint32_t l = 0; l < L; ++l) d.lane[l] = SsspJob::add_real(at[l], w);
    } else {
      for (uint32_t l = 0; l < L; ++l) d.lane[l] = at[l] + w;
    }
    return d;
  }
  bool gather(VertexId v, const Distances& d) {
    uint64_t* at = next_dist_.data() + uint64_t{v} * L;
    bool lowered = false;
    for (uint32_t l = 0; l < L; ++l)
      if (d.lane[l] < std::atomic_ref<uint64_t>(at[l]).load(std::memory_order_relaxed)) lowered |= atomic_min(at[l], d.lane[l]);
    return lowered;
  }
  bool gather_owned(VertexId v, const Distances& d) {
    uint64_t* at = next_dist_.data() + uint64_t{v} * L;
    uint64_t lowered = 0;
    for (uint32_t l = 0; l < L; ++l) {
      const uint64_t lower = d.lane[l] < at[l];
      at[l] = lower ? d.lane[l] : at[l];
      lowered |= lower;
    }
    return lowered != 0;
  }
  void end_round() override;
  // Light rounds, in passes: every lane run to its last distance by delta-stepping of its own
  // (jobs/lane_passes.h, settle); rounds stay on the engine's runs, as a member's alone do.
  bool adjacency_round(const Adjacency& graph) override;
  bool takes_adjacency() const override { return passes_.has_value(); }
  std::string signature() const override { return {}; }
  Job::BinaryValues binary_values() const override { return SsspJob::distance_values(real_); }

 protected:
  void write_values(OutFormat, const VertexOrder&, const Job::ResultSink&) const override;

 private:
  // The lanes' distances, for passes.
  struct RowLanes {
    using Value = uint64_t;
    static constexpr bool kWeighsEdges = true;
    uint64_t* dist = nullptr;
    bool real = false;
    uint64_t value(uint32_t lane, VertexId v) const { return dist[uint64_t{v} * L + lane]; }
    uint64_t carried(uint64_t at, Weight w) const { return real ? SsspJob::add_real(at, w) : at + w; }
    bool lower(uint32_t lane, VertexId v, uint64_t d, bool owned) {
      uint64_t& slot = dist[uint64_t{v} * L + lane];
      return owned ? owned_min(slot, d) : atomic_min(slot, d);
    }
  };
  using Passes = LanePasses<(L + 63) / 64, RowLanes>;
  void end_pass();

  std::vector<Job*> members_;
  std::vector<SsspJob*> sssp_;
  RowLanes row_lanes_;
  std::optional<Passes> passes_;
  // As the round began, lane by lane per vertex; shared with the members, whose results are read
  // from it once the batch (and the group) is gone.
  std::shared_ptr<std::vector<uint64_t>> dist_;
  std::vector<uint64_t> next_dist_;  // lowered by this round's gathers
  uint64_t running_ = 0;             // lanes that have not finished
  bool real_ = false;                // real weights: distances are doubles' bits
};

}  // namespace graphso
