// Breadth-first search: hop level from the source; unreachable vertices are -1 in text output
// (9223372036854775807 in Graphalytics output) and 0xFFFFFFFF in binary output. Levels only
// decrease, so any edge order reaches the answer.
//
// Direction-optimising (Beamer, Asanovic and Patterson, SC'12), on a symmetric graph in
// synchronous rounds (a vertex's out-edges are then its in-edges): a round is one of two steps,
//
//   top-down   the frontier's edges carry level + 1 to their destinations (the edge loop)
//   bottom-up  each vertex not reached yet (a searcher) looks through its edges for a neighbour
//              reached last round (parents_), and stops at the first; the frontier handed to the
//              engine and the middleware is then the searchers, so the chunks read are theirs
//
// chosen as GAP's BFS chooses: bottom-up once the new frontier's out-edges pass 1/kBottomUpAlpha
// of those of the vertices not reached yet, top-down again once it holds fewer than
// 1/kTopDownBeta of the vertices. Both steps give the vertices one hop from the frontier, so the
// levels are the same. On R-MAT 20 (symmetrised) the two bottom-up rounds look at a few edges of
// each searcher where the top-down ones pushed all 33.5 M (docs/jobs.md, "Direction-optimising
// BFS").
//
// With --async off it runs so throughout. Under --async auto a BFS on a symmetric graph that the
// run keeps resident (Job::graph_resident) runs so while its frontier grows fast, for at most
// kBfsPassesAfter rounds, and in asynchronous passes after them (a long chain of thin frontiers,
// as on a road network, where passes take about half as many); out of core, where a bottom-up
// round reads the searchers' chunks (most of the graph) and passes read less (R-MAT 20 at a
// quarter: 382 MB in 8 rounds against 262 MB in 6 passes, 1.35x the time), on a directed graph,
// or with --async on, it runs in passes throughout.
#pragma once

#include <limits>

#include "jobs/atomics.h"
#include "jobs/edge_job.h"

namespace graphso {

// Beamer's rule (GAP's alpha and beta), for a BFS alone and for bit-parallel groups.
inline constexpr uint64_t kBottomUpAlpha = 15;
inline constexpr uint64_t kTopDownBeta = 18;
// Under --async auto, the rounds a symmetric BFS (or a group) runs before it goes to passes.
inline constexpr uint32_t kBfsPassesAfter = 32;
// ... and a BFS alone goes to passes sooner, once a top-down round's arrivals hold fewer than this
// many times the out-edges of its frontier.
inline constexpr uint64_t kRoundsWhileGrowing = 2;

class BfsJob final : public EdgeJob<BfsJob, EdgeUse::OutEdges> {
 public:
  static constexpr uint32_t kUnreached = std::numeric_limits<uint32_t>::max();
  // reach: bounded passes' hops (jobs/edge_job.h), 0 for no bound.
  BfsJob(std::string name, VertexId source, uint32_t reach = kDefaultReachHops)
      : EdgeJob(std::move(name), "bfs"), source_(source), reach_hops_(reach) {}

  uint64_t state_bytes(uint64_t n) const override { return n * sizeof(uint32_t) + 3 * Bitmap::bytes_for(n); }
  void init(const GraphInfo& graph, int threads) override;
  bool may_pass() const override { return async_ || passes_after_ != kNever; }
  void graph_resident() override;
  // Light rounds: a top-down or bottom-up round over the graph in memory, or an asynchronous pass
  // to the traversal's end (jobs/bucket_pass.h).
  bool adjacency_round(const Adjacency& graph) override;
  bool takes_adjacency() const override { return true; }
  // In passes because its rounds stopped growing before any went bottom-up: hundreds to come.
  bool wants_adjacency_now() const override { return async_ && thin_; }
  void process(const EdgeRun& run) override;
  void scatter_updates(const EdgeRun& run, std::vector<std::byte>& out) override;
  uint32_t scatter(VertexId u, Weight) const { return level_[u] + 1; }
  bool gather(VertexId v, uint32_t level) { return atomic_min(level_[v], level); }
  bool gather_owned(VertexId v, uint32_t level) { return owned_min(level_[v], level); }
  void end_round() override;
  // Bounded passes (jobs/edge_job.h): a level changed in a pass travels on within reach only.
  bool within_reach(VertexId v) const { return level_[v] <= reach_; }
  void write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const override;
  BinaryValues binary_values() const override { return {"uint32", "4294967295"}; }
  std::vector<std::pair<std::string, uint64_t>> counts() const override;
  const std::vector<uint32_t>& levels() const { return level_; }
  VertexId source() const { return source_; }
  uint32_t reach_hops() const { return reach_hops_; }
  std::string signature() const override;
  // A bit-parallel group that runs this job (jobs/bfs_group.h) writes its levels here: the
  // levels, all unreached but the source's (0), and nothing else of the job's state.
  uint32_t* levels_for_group(uint64_t vertices);

 private:
  static constexpr uint32_t kNever = std::numeric_limits<uint32_t>::max();
  // A bottom-up step over a run: each searcher in it not found yet looks for a parent.
  void pull(const EdgeRun& run);
  // The step after a synchronous round whose arrivals are in next_; sets the frontier for it.
  void choose_step();
  // A bottom-up step over the graph in memory: each searcher looks through its edges once.
  void pull(const Adjacency& graph);
  // A top-down round over the graph in memory.
  void push(const Adjacency& graph);
  // Sets frontier_ to the searchers: unreached vertices with edges.
  void take_searchers();
  // Before the first round: rounds from now on choose their direction.
  void optimise_direction();

  VertexId source_;
  uint32_t reach_hops_;
  std::vector<uint32_t> level_;
  uint32_t reach_ = 0;  // asynchronous: the highest level a change travels on with in this pass
  bool symmetric_ = false;
  bool bottom_up_ = false;          // this round's step
  Bitmap parents_;                  // bottom-up: the vertices reached last round
  uint64_t out_edges_ = 0;          // the graph's (GraphInfo::out_edges)
  uint64_t edges_unreached_ = 0;    // out-edges of the vertices not reached yet
  uint64_t frontier_edges_ = 0;     // out-edges of the last round's arrivals
  uint32_t passes_after_ = kNever;  // the round from which it runs in passes
  uint32_t bottom_up_rounds_ = 0;
  bool thin_ = false;  // went to passes on a frontier that stopped growing, never bottom-up
  uint32_t pass_rounds_ = 0;
};

}  // namespace graphso
