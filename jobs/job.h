// The vertex-program interface every engine drives. A job owns its vertex state and a frontier:
// the vertices whose out-edges (and, for EdgeUse::BothWays, in-edges) must be processed this round.
// Engines hand a job runs of edge records (sorted by source, from one block, partition or chunk)
// and call end_round() when a round's edges are done. A job never knows where the edges came from.
// Two ways to drive the same edge function and apply step:
//   process()                           apply each edge at once (GridGraph: destination state is
//                                       in memory while its block streams)
//   scatter_updates(), gather_updates()  turn edges into update records (destination, value),
//                                       which the engine bins, may spill, and applies later
//                                       (X-Stream's edge-centric scatter/gather)
// Both have the same effect on the job's state; only when it happens differs.
//
// Processing order inside a round is free: every job here converges to the same answer whether
// edges arrive synchronously, in any order, or chunk by chunk (see docs/jobs.md).
//
// Asynchronous passes (set_async): a job whose algorithm allows it (the registry's `asynchronous`)
// sees the values and activations of the pass it is in: a vertex activated during a pass is
// processed in the same pass when its edges have not gone by yet. A round is then one pass.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/bitmap.h"
#include "base/edge_run.h"
#include "base/types.h"
#include "base/vertex_order.h"

namespace graphso {

class Adjacency;

// How a run chooses asynchronous passes (run --async): never, always (for the jobs whose algorithm
// allows them), or asynchronously while the job's own evidence says its passes pay (Auto: a job
// may fall back to synchronous rounds at a round's end; Job::sync_from_round).
enum class AsyncPolicy { Off, On, Auto };

// Which edges of its frontier a job processes in a round.
enum class EdgeUse {
  OutEdges,  // only out-edges of frontier vertices (BFS, SSSP, PageRank)
  BothWays,  // edge u->v is used in both directions (WCC on a graph that is not symmetric)
};

// Text: "vertex value" lines, unreached vertices as -1 (BFS) and inf (SSSP). Graphalytics: the same
// lines with LDBC Graphalytics' values for unreached vertices, 9223372036854775807 (BFS) and
// Infinity (SSSP). Binary: the raw value array.
enum class OutFormat { Text, Graphalytics, Binary };

struct GraphInfo {
  uint64_t vertices = 0;
  bool weighted = false;
  bool symmetric = false;  // every edge's reverse is an edge: out-edges alone reach both ways
  const std::vector<uint32_t>* out_degrees = nullptr;
  // The sum of out_degrees, summed once for every job of a run (0: not given, and a job that needs
  // it sums them: out_edge_total()).
  uint64_t out_edges = 0;
  // The graph's vertex order, for a job whose values are vertex ids compared as the user's ids
  // (CDLP's labels); null: the natural order.
  const VertexOrder* order = nullptr;
  // The weights are reals, binary32 in the u32 (base/types.h): what adds them up reads them so.
  bool real_weights = false;
};

// The graph's out-edges: GraphInfo::out_edges, or the sum of its out-degrees.
inline uint64_t out_edge_total(const GraphInfo& graph) {
  if (graph.out_edges != 0 || !graph.out_degrees) return graph.out_edges;
  uint64_t total = 0;
  for (uint32_t d : *graph.out_degrees) total += d;
  return total;
}

class Job {
 public:
  Job(std::string name, std::string algo) : name_(std::move(name)), algo_(std::move(algo)) {}
  virtual ~Job() = default;
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;

  const std::string& name() const { return name_; }
  const std::string& algo() const { return algo_; }
  // The graph of the run the job runs on, when a run has several (EngineLayout::partition_views:
  // a store run whose jobs pin several versions): the partitions outside it are never handed to
  // it. 0 otherwise. Set before init().
  uint32_t view() const { return view_; }
  void set_view(uint32_t view) { view_ = view; }
  virtual EdgeUse edge_use() const = 0;

  // Bytes of vertex state init() will allocate for this graph (values + both frontiers).
  virtual uint64_t state_bytes(uint64_t vertices) const = 0;
  // Allocates the state and sets the first frontier. threads: OpenMP threads for end_round().
  virtual void init(const GraphInfo& graph, int threads) = 0;
  // Applies the edge function to every edge of the run whose source is in the frontier (and
  // whose destination is, for EdgeUse::BothWays). Safe to call for edges that are not active, and
  // from several threads at once on different runs: every vertex update is atomic.
  virtual void process(const EdgeRun& run) = 0;
  // Bytes of one update record: the destination id and the value it carries. 0 for a job that
  // applies edges directly in scatter_updates() and so emits none (union-find WCC).
  virtual uint32_t update_bytes() const = 0;
  // Appends to `out` one update record per edge process() would apply. Same threading rules.
  virtual void scatter_updates(const EdgeRun& run, std::vector<std::byte>& out) = 0;
  // The most records scatter_updates() writes per edge now: two (an edge used both ways), or a
  // group's lanes in passes.
  virtual uint32_t updates_per_edge() const { return 2; }
  // Applies update records made by scatter_updates(), from several threads at once.
  virtual void gather_updates(std::span<const std::byte> updates) = 0;
  // Closes a round: computes the next frontier; sets finished()/converged().
  virtual void end_round() = 0;

  // Called after init() when the run keeps every edge in memory once read (chunk mode, the cache
  // holding the whole graph): a round then costs its computation, not its reads, and a job may
  // choose another way to run (a BFS: direction-optimising rounds, jobs/bfs.h).
  virtual void graph_resident() {}
  // Light rounds: once the run keeps the graph's out-edges per vertex in memory (base/adjacency.h),
  // it offers each running job, at every round's start, to do the round's edge work over them
  // itself. A job that does returns true and is handed no runs this round (end_round() follows as
  // usual); the default keeps it on the engine's runs. An asynchronous pass done so may run to
  // its fixed point (jobs/bucket_pass.h).
  virtual bool adjacency_round(const Adjacency& /*graph*/) { return false; }
  // Whether adjacency_round() would take rounds now: the run builds the adjacency only for a job
  // that would.
  virtual bool takes_adjacency() const { return false; }
  // Whether its rounds to come are known to be many (a traversal gone to passes on a frontier that
  // stopped growing before any bottom-up step: a road network's), so that under auto the run
  // builds the adjacency at once instead of renting first.
  virtual bool wants_adjacency_now() const { return false; }

  // Whether this job's class can run asynchronously (docs/jobs.md, "Asynchronous passes"); the
  // registry's declaration for its algorithm says when a user may ask for it.
  virtual bool async_capable() const { return false; }
  // Before init(): run asynchronously when on and the class can; revisable, the job may fall
  // back to synchronous rounds at a round's end when its passes do not pay (a delta job:
  // jobs/pagerank.h, "Falling back"). Engines and the middleware ask async() at every load.
  void set_async(bool on, bool revisable = false) {
    async_ = on && async_capable();
    revisable_ = async_ && revisable;
  }
  bool async() const { return async_; }
  // Whether it runs in passes or may come to (a BFS group goes from rounds to passes): what the
  // late join's memory is counted for.
  virtual bool may_pass() const { return async_; }
  // The round from which a revisable job ran synchronously (0: it never fell back).
  uint32_t sync_from_round() const { return sync_from_round_; }
  // Edges pushed by sources outside the pass's frontier (changed during the pass, or swept again):
  // the work an asynchronous pass does beyond a synchronous round's.
  uint64_t async_extra_edges() const { return async_extra_edges_.load(std::memory_order_relaxed); }
  // Re-entry (middleware/reentry.h): whether a source in [first, end) changed since it last pushed,
  // so that a loaded run of those sources handed again (EdgeRun::reentry) may push.
  virtual bool wants_reentry(VertexId /*first*/, VertexId /*end*/) const { return false; }
  // Whether a source in [first, end) may push now: in a run handed for the first time (the
  // frontier, or a change of this pass), or again (reentry: wants_reentry). False lets the engine
  // pass over packed pages of those sources without decoding them (engine/edge_processor.h); the
  // default, true, never does.
  virtual bool may_push(VertexId /*first*/, VertexId /*end*/, bool /*reentry*/) const { return true; }
  // Whether process() may be handed a run with a destination window (EdgeRun::windowed): the
  // job's edge loops see only the window's edges, every edge reaches it in exactly one window, and
  // nothing it does per source depends on holding all of a source's edges. The default, false,
  // keeps such loads cut into pieces.
  virtual bool takes_windows(bool /*reentry*/) const { return false; }
  // What a run handed again did (re-entry): the changed sources it held, those that pushed, and
  // the edges their pushes carried (count_sweep adds them up).
  struct Sweep {
    uint64_t changed = 0, pushed = 0, edges = 0;
  };
  // Sources that pushed in runs handed again, since init(); a sweep that adds none changed nothing.
  uint64_t reentry_pushes() const { return reentry_pushes_.load(std::memory_order_relaxed); }
  // Sources changed since they pushed that runs handed again held, since init(): what a sweep
  // looked for, beside what it could push (reentry_pushes).
  uint64_t reentry_changed() const { return reentry_changed_.load(std::memory_order_relaxed); }
  // Out-edges pushed in runs handed again, since init(): what the sweeps' pushes carried, beside
  // the edges they were handed.
  uint64_t reentry_edges() const { return reentry_edges_.load(std::memory_order_relaxed); }
  // Late join (middleware/late_join.h): the vertices changed in this pass that still push where
  // their out-edges have not gone by (null: none may, the job is synchronous or uses edges both
  // ways), and whether such a vertex pushes only in a run that holds all its out-edges (delta
  // jobs: a partial run carries only the frontier's snapshot).
  struct PassChanges {
    const Bitmap* changed = nullptr;
    bool whole_sources_only = false;
  };
  virtual PassChanges pass_changes() const { return {}; }

  const Bitmap& frontier() const { return frontier_; }
  bool finished() const { return finished_; }
  bool converged() const { return converged_; }
  uint32_t rounds() const { return rounds_; }

  // One line per vertex "vertex value" (Text), or the raw value array (Binary), in the graph's
  // ORIGINAL ids: vertex v's value is the job's value at order.to_new(v). Handed to `sink` in
  // pieces of at most kResultPieceBytes, so writing results takes no memory in proportion to
  // the graph beyond output_bytes(). A job another one ran (ran_by) writes what that one holds
  // for it.
  using ResultSink = std::function<void(std::string_view piece)>;
  static constexpr uint64_t kResultPieceBytes = 16 << 10;
  void write_results(OutFormat format, const VertexOrder& order, const ResultSink& sink) const {
    if (results_) results_(format, order, sink);
    else write_values(format, order, sink);
  }
  // What a Binary result holds: one little-endian value of `type` per vertex (uint32, uint64,
  // float64), and the value that stands for "not reached" (null: every value is a result).
  struct BinaryValues {
    const char* type;
    const char* unreached;
  };
  virtual BinaryValues binary_values() const = 0;
  // Memory write_results() needs beyond the job's state and one piece (WCC's relabelling).
  virtual uint64_t output_bytes(uint64_t /*n*/, const VertexOrder& /*order*/) const { return 0; }
  // The whole output in one string (tests and small graphs).
  std::string format_results(OutFormat format, const VertexOrder& order) const {
    std::string all;
    write_results(format, order, [&all](std::string_view piece) { all += piece; });
    return all;
  }

  // Jobs of a batch that run as one (jobs/job_groups.h): a group's lane, or a job identical to
  // another, computed once. Equal signatures mean equal results, whatever else differs (the
  // name); empty: never taken for another job.
  virtual std::string signature() const { return {}; }
  // What its method counted, for the report (a BFS: its bottom-up rounds and its passes).
  virtual std::vector<std::pair<std::string, uint64_t>> counts() const { return {}; }
  // Whether the job's asynchronous setting is the run's default choice (--async auto), not
  // forced: a group that runs in synchronous rounds may then take it.
  bool async_revisable() const { return revisable_; }
  // A job run by another, instead of by itself: its results are what `write` writes, and the one
  // that ran it settles its outcome once its part is done. It is never init()ed.
  using ResultsWriter = std::function<void(OutFormat, const VertexOrder&, const ResultSink&)>;
  void ran_by(ResultsWriter write) { results_ = std::move(write); }
  void take_outcome(uint32_t rounds, bool converged) {
    rounds_ = rounds;
    finished_ = true;
    converged_ = converged;
  }

 protected:
  void count_sweep(const Sweep& sweep) {
    if (sweep.changed) reentry_changed_.fetch_add(sweep.changed, std::memory_order_relaxed);
    if (sweep.pushed) reentry_pushes_.fetch_add(sweep.pushed, std::memory_order_relaxed);
    if (sweep.edges) reentry_edges_.fetch_add(sweep.edges, std::memory_order_relaxed);
  }
  // write_results() for a job that ran itself.
  virtual void write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const = 0;

  Bitmap frontier_;
  Bitmap next_;
  bool finished_ = false;
  bool converged_ = false;
  uint32_t rounds_ = 0;
  int threads_ = 1;
  bool async_ = false;
  bool revisable_ = false;
  uint32_t sync_from_round_ = 0;
  std::atomic<uint64_t> async_extra_edges_{0};
  std::atomic<uint64_t> reentry_pushes_{0};
  std::atomic<uint64_t> reentry_changed_{0};
  std::atomic<uint64_t> reentry_edges_{0};

 private:
  std::string name_;
  std::string algo_;
  uint32_t view_ = 0;
  ResultsWriter results_;
};

// A job whose edges act on its state at once and leave no update records to carry to a gather
// phase (union-find WCC, CDLP, LCC): an update-streaming engine's scatter is its process().
class DirectJob : public Job {
 public:
  using Job::Job;
  uint32_t update_bytes() const final { return 0; }
  void scatter_updates(const EdgeRun& run, std::vector<std::byte>&) final { process(run); }
  void gather_updates(std::span<const std::byte>) final {}
};

}  // namespace graphso
