// Bit-parallel breadth-first search (MS-BFS: Then et al., "The More the Merrier: Efficient
// Multi-Source Graph Traversal", VLDB 2015): up to 64 x W BFS jobs of a batch as one job.
//
// Each vertex holds one bit per member (its lane) in W words, twice: the lanes that have reached
// it (seen), and those reaching it this round (arrived). A vertex reached last round also holds
// the lanes that reached it then (its frontier lanes). The group's frontier is the union of its
// members' (the vertices with any frontier lane), so one active-chunk lookup, one load, one decode
// and one walk over a run's edges serve every member. A round is one of two steps (Beamer's
// direction-optimising BFS, on the lanes):
//
//   top-down   an edge u->v of a frontier vertex carries u's frontier lanes to v in one word
//              operation per 64 members: v gains those it has not seen
//   bottom-up  (symmetric graphs: a vertex's out-edges are its in-edges) a vertex with a running
//              lane it has not seen looks through its edges for neighbours holding frontier lanes,
//              and stops once every lane it lacks is found; the frontier handed to the engine is
//              then those vertices, so the chunks read are theirs
//
// A round goes bottom-up when the edges out of the new frontier pass 1/kBottomUpAlpha of those out
// of the vertices still to search (as GAP's BFS decides, its alpha 15), and back top-down when
// the frontier holds fewer than 1/kTopDownBeta of the vertices (its beta 18). Either step gives
// each lane the vertices one hop from its frontier, so the levels are the same.
//
// Level-synchronous: the lanes that reach v in round r give it level r, written at the round's
// end into those members' own level arrays (BfsJob::levels_for_group), which their results are
// written from as when they run alone; a member finishes in the round its lane reaches nobody,
// after the rounds it takes alone. Levels are what every order of edges gives, so each member's
// levels equal its own run's.
//
// Passes: a lane's bit carries no level, so a bit sent ahead in a pass could not be taken back;
// the group runs in passes on its members' level arrays instead (jobs/lane_passes.h: each lane
// pushes what changed, within its reach, lowering levels), from the start when its members are
// asked to run in passes (`--async on`), and under `--async auto` once kPassesAfter rounds went
// by: a small-world traversal is done by then (R-MAT 20: 8 rounds), and what takes longer
// is a long chain of thin frontiers (road-FLA: 1,921 rounds), where passes take half as many and
// the bits save little (docs/jobs.md, "Grouped jobs").
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

#include "jobs/atomics.h"
#include "jobs/bfs.h"
#include "jobs/edge_job.h"
#include "jobs/job_group.h"
#include "jobs/lane_passes.h"

namespace graphso {

template <uint32_t W>
class BfsGroup final : public EdgeJob<BfsGroup<W>, EdgeUse::OutEdges>, public JobGroup {
 public:
  static constexpr uint32_t kLanes = 64 * W;
  static constexpr uint32_t kPassesAfter = kBfsPassesAfter;
  // A vertex's lanes: what an edge carries (and an X-Stream update record holds).
  using Lanes = LaneBits<W>;

  // The members share their asynchronous setting and reach (jobs/job_groups.cc keys them so).
  explicit BfsGroup(std::vector<BfsJob*> members);

  std::span<Job* const> members() const override { return members_; }
  const char* method() const override { return "bit-parallel bfs"; }
  uint32_t lanes() const override { return kLanes; }

  bool async_capable() const override { return true; }
  bool may_pass() const override { return passes_after_ != UINT32_MAX; }
  uint64_t state_bytes(uint64_t n) const override;
  void init(const GraphInfo& graph, int threads) override;
  void process(const EdgeRun& run) override;
  void scatter_updates(const EdgeRun& run, std::vector<std::byte>& out) override;
  void gather_updates(std::span<const std::byte> updates) override;
  uint32_t update_bytes() const override;
  // A record with every lane in rounds; in passes a record per lane that pushes.
  uint32_t updates_per_edge() const override { return passes_ ? kLanes : 1; }
  bool may_push(VertexId first, VertexId end, bool reentry) const override;
  bool wants_reentry(VertexId first, VertexId end) const override;
  // In passes: the vertices with lanes changed this pass, for the late join.
  // Lane passes ask whether a run holds all of a source's edges.
  bool takes_windows(bool reentry) const override { return !passes_ && EdgeJob<BfsGroup<W>, EdgeUse::OutEdges>::takes_windows(reentry); }
  Job::PassChanges pass_changes() const override { return passes_ ? Job::PassChanges{&passes_->changed(), false} : Job::PassChanges{}; }
  // Top-down: an edge carries the source's frontier lanes.
  Lanes scatter(VertexId u, Weight) const { return frontier_lanes_[u]; }
  // Lanes new to v join its arrivals; true if any did (v then joins next_).
  bool gather(VertexId v, const Lanes& lanes) {
    Cell& c = cells_[v];
    bool gained = false;
    for (uint32_t k = 0; k < W; ++k) {
      const uint64_t fresh = lanes.word[k] & ~c.seen[k];
      if (!fresh) continue;
      std::atomic_ref<uint64_t> arrived(c.arrived[k]);
      if (fresh & ~arrived.load(std::memory_order_relaxed)) {
        arrived.fetch_or(fresh, std::memory_order_relaxed);
        gained = true;
      }
    }
    return gained;
  }
  bool gather_owned(VertexId v, const Lanes& lanes) {
    Cell& c = cells_[v];
    uint64_t gained = 0;
    for (uint32_t k = 0; k < W; ++k) {
      const uint64_t fresh = lanes.word[k] & ~c.seen[k] & ~c.arrived[k];
      c.arrived[k] |= fresh;
      gained |= fresh;
    }
    return gained != 0;
  }
  void end_round() override;
  // Light rounds: a bit-parallel round over the graph in memory (top-down or bottom-up, as through
  // the chunks); in passes, every lane run to its end by a queue traversal of its own.
  bool adjacency_round(const Adjacency& graph) override;
  // Only in passes: a small world's rounds are over before building the adjacency would pay.
  bool takes_adjacency() const override { return passes_.has_value(); }
  // In passes because its rounds stopped growing before any went bottom-up (graph_resident).
  bool wants_adjacency_now() const override { return passes_.has_value() && thin_; }
  // On a resident symmetric graph, under --async auto: passes as soon as a top-down round stops
  // growing fast before any bottom-up step (a road network), as a BFS alone goes (jobs/bfs.h),
  // not after kPassesAfter rounds.
  void graph_resident() override;
  std::string signature() const override { return {}; }
  Job::BinaryValues binary_values() const override { return {"uint32", "4294967295"}; }
  std::vector<std::pair<std::string, uint64_t>> counts() const override {
    return {{"bottom_up_rounds", bottom_up_rounds_}, {"pass_rounds", pass_rounds_}};
  }

 protected:
  // A group writes no results of its own: its members do (from their level arrays).
  void write_values(OutFormat, const VertexOrder&, const Job::ResultSink&) const override;

 private:
  // Both bit sets of a vertex in one place: an edge reads them together.
  struct alignas(16 * W) Cell {
    uint64_t seen[W];
    uint64_t arrived[W];
  };
  // A bottom-up step over a run: each searching source looks for the lanes it lacks among its
  // neighbours' frontier lanes.
  void pull(const EdgeRun& run);
  // The same two steps over the graph in memory.
  void push(const Adjacency& graph);
  void pull(const Adjacency& graph);
  // A searcher's neighbour u: the missing lanes u holds as frontier lanes join `found`; whether
  // every missing lane is found now (the search stops).
  bool finds_all(VertexId u, const Lanes& missing, Lanes& found) const;
  // The running lanes v has not seen, or none (false) when it has every one or has no edges.
  bool lacks(uint64_t v, Lanes& missing) const;
  // Sets frontier_ to the vertices a bottom-up step searches from, and returns their out-edges.
  uint64_t take_searchers();
  // From bit-parallel rounds to passes: the frontier lanes pend, the lane bits are let go.
  void enter_passes();
  void end_pass();
  // The running lanes not in `active` are done, their members after `round` rounds; whether any
  // still runs.
  bool finish_lanes(const Lanes& active, uint32_t round);

  // The members' levels, for passes.
  struct LevelLanes {
    using Value = uint32_t;
    static constexpr bool kWeighsEdges = false;
    const std::vector<uint32_t*>* levels = nullptr;
    uint32_t value(uint32_t lane, VertexId v) const { return (*levels)[lane][v]; }
    uint32_t carried(uint32_t at, Weight) const { return at + 1; }
    bool lower(uint32_t lane, VertexId v, uint32_t level, bool owned) {
      uint32_t& slot = (*levels)[lane][v];
      return owned ? owned_min(slot, level) : atomic_min(slot, level);
    }
  };

  std::vector<Job*> members_;
  std::vector<BfsJob*> bfs_;
  std::vector<Cell> cells_;
  std::vector<Lanes> frontier_lanes_;  // the lanes that reached each vertex last round
  Bitmap lanes_at_;                    // the vertices holding frontier lanes
  std::vector<uint32_t*> levels_;      // per lane: its member's level array
  Lanes running_{};                    // lanes that have not finished
  bool symmetric_ = false;
  bool bottom_up_ = false;             // this round's step
  uint64_t edges_unsearched_ = 0;      // at most: out-edges of vertices still lacking a lane
  uint64_t frontier_edges_ = 0;        // out-edges of the last round's arrivals
  bool leaves_early_ = false;          // to passes once the rounds stop growing (graph_resident)
  bool thin_ = false;                  // went to passes so: a long chain of thin frontiers
  uint32_t bottom_up_rounds_ = 0;
  uint32_t passes_after_ = 0;  // the round from which it runs in passes (UINT32_MAX: never)
  uint32_t pass_rounds_ = 0;   // rounds run as passes
  LevelLanes level_lanes_;
  std::optional<LanePasses<W, LevelLanes>> passes_;
};

// Lane words for `members` BFS jobs: the fewest of 1, 2, 4 and 8 that hold them (at most 512).
uint32_t bfs_group_words(size_t members);

}  // namespace graphso
