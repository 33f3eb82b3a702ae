// Hands runs of edges that are in memory to the jobs that want them, on the engine's
// threads; shared by every engine (GridGraph blocks, X-Stream partitions, GraphSO chunks).
//
// Each run (base/edge_run.h) is checked (every edge inside its static partition's vertex ranges:
// a corrupt file is an error, not a wild write), counted, and given to all of its jobs before
// its memory is left (chunk-synchronous):
//   small runs (chunks, small blocks): a thread takes a work item and runs every related job on
//     each of its runs while the run is in that core's cache, threads taking items dynamically
//     (the paper's Formula (1) budgets one chunk per core in the LLC). An item is every run of
//     one destination range (the thread then owns those destinations, EdgeRun::owns_destinations,
//     and jobs update them without atomics), but a range holding more than a thread's share of
//     the load is cut into pieces of its runs, handed without ownership, so that a skewed load
//     (the hubs' column) still keeps every thread busy; a load whose ranges overlap, or that has
//     one range, is all pieces. Largest items first. On one thread every run is its own item,
//     owned, taken one destination range after another;
//   large runs (blocks): all threads work on one run, shared among its jobs in proportion to
//     the estimated load theta_j x active edges, theta_j the job's measured seconds per edge.
// What "give a run to a job" means is the engine's EdgeAction: GridGraph applies the edges
// (Job::process), X-Stream scatters them into updates (Job::scatter_updates).
#pragma once

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/edge_run.h"
#include "engine/engine.h"
#include "engine/engine_layout.h"

namespace graphso {

// Packed runs (EdgeRun::packed) are small runs whose pieces are cut on page boundaries: the
// thread that takes a piece decodes it, a few pages at a time, source by source into a buffer of
// its own (EdgeRun::groups, at most decode_bytes, one page's more) and hands those edges to the
// run's jobs while they are still in its core's cache; no job sees a page.
// Destination windows (an engine that applies edges at once: GridGraph): a load of packed runs
// that all span one destination range (a grid of one column, such as a store's sections laid out by
// source) has no ranges for threads to own, and its pieces would update every destination with
// atomics (a locked add on an 8 MiB array lets no cache miss overlap another: PageRank on a dgap
// store of R-MAT 20 took 1.2x longer on two threads than on one). Instead each thread takes the
// whole load with a window of the destinations (EdgeRun::windowed), owned: every thread decodes
// and walks every edge, and applies only its window's. The windows' cuts follow the measured
// work: each load of a range moves them toward equal time per thread.

// What the engine does with a run for job index `job`. Called from several threads at once.
using EdgeAction = std::function<void(uint32_t job, const EdgeRun& run)>;
// Whether job `job` may push a source in [first, end) of a run handed now (Job::may_push). A
// packed run's pages whose sources no job of the run may push are passed over undecoded: their
// edges are loaded and counted but reach no job, so they are neither decoded nor range-checked
// (the page's CRC-32C checked the read, unless reads are not verified). Empty: every page is
// decoded.
using SourceFilter = std::function<bool(uint32_t job, VertexId first, VertexId end, bool reentry)>;
// The jobs' own answer (Job::may_push) when `options` passes over pages, else empty.
SourceFilter page_filter(std::span<Job* const> jobs, const DecodeOptions& options);
// Whether job `job` takes a run with a destination window now (Job::takes_windows). Empty: no
// load is windowed.
using WindowFilter = std::function<bool(uint32_t job, bool reentry)>;
// The jobs' own answer (Job::takes_windows).
WindowFilter window_filter(std::span<Job* const> jobs);

// Names a run in the error for a misplaced edge ("grid.row: block (1, 2)").
using RunName = std::function<std::string(const EdgeRun& run)>;

class EdgeProcessor {
 public:
  static constexpr uint64_t kMinPieceEdges = 4096;  // a load's runs are cut into pieces of at least this
  // layout: the partitions whose vertex ranges every run is checked against.
  // decode_bytes: the bytes a thread decodes packed pages into at once, at most (one page's more).
  // may_push: which packed pages to decode (SourceFilter); empty, all of them.
  // takes_windows: which jobs' loads may be split by destination windows; empty, none.
  EdgeProcessor(const EngineLayout& layout, int threads, EdgeAction action, RunName name,
                uint64_t decode_bytes = kDefaultDecodeBytes, SourceFilter may_push = {}, WindowFilter takes_windows = {})
      : layout_(layout), threads_(threads), action_(std::move(action)), name_(std::move(name)),
        may_push_(std::move(may_push)), takes_windows_(std::move(takes_windows)),
        decode_edges_(std::max<uint64_t>(1, decode_bytes / decoded_edge_bytes(layout.weighted))) {}

  // The most a decoded edge takes: its delta and weight, and a group of its own (source, first and
  // highest destination, offset).
  static constexpr uint64_t decoded_edge_bytes(bool weighted) { return ((weighted ? 2 : 1) + 4) * sizeof(uint32_t); }
  // A decode buffer that holds the smallest piece a load is cut into: with it, a load's pieces
  // are decoded whole whatever the budget, so the budget does not move where a source's edges
  // are cut (what an asynchronous job does depends on it: jobs/edge_job.h, `whole`).
  static constexpr uint64_t piece_decode_bytes(bool weighted) { return kMinPieceEdges * decoded_edge_bytes(weighted); }

  void process(std::span<const EdgeRun> runs);

  // The threads' decode buffers' bytes (0 until a packed run comes).
  uint64_t decode_buffer_bytes() const {
    uint64_t bytes = 0;
    for (const auto& buffer : decode_buffers_) bytes += buffer.bytes();
    return bytes;
  }

  // Jobs whose action threw, with the message; they are no longer handed edges.
  const std::vector<std::pair<uint32_t, std::string>>& failures() const { return failures_; }
  const EngineCounters& counters() const { return counters_; }
  // Per job index: seconds in the action, summed over threads.
  const std::vector<double>& job_seconds() const { return job_seconds_; }

 private:
  struct Piece {
    size_t run;            // index into the load's runs
    uint64_t first, count;  // edges of a record run; pages of a packed run
    uint64_t first_edge;    // packed: the run's edges before the piece's first page
  };
  struct WorkItem {
    std::vector<Piece> pieces;
    bool owns_destinations;
    int window = -1;  // a destination window's index (window_cuts_), or -1: none
    bool counts_load = true;  // its runs' loaded, active and decoded edges are counted here
    // Per run of the load, the jobs this item hands it to (window_jobs_ or other_jobs_); null:
    // the run's own.
    const std::vector<std::vector<uint32_t>>* jobs = nullptr;
  };
  // The cuts of a destination range into threads_ windows, as fractions of it (first 0, last 1).
  struct WindowCuts {
    std::pair<VertexId, VertexId> range;
    std::vector<double> cuts;
  };

  uint64_t check_run(const EdgeRun& run, bool parallel) const;
  std::vector<WorkItem> plan_small(std::span<const EdgeRun> runs);
  bool split_window_jobs(std::span<const EdgeRun> runs);
  // Window w of the current cuts: its first destination and its span (bounds aligned to 64, so
  // no two windows share a bitmap word).
  std::pair<VertexId, uint64_t> window(int w) const;
  void move_cuts(std::span<const double> seconds);
  void process_large(const EdgeRun& run);
  void process_small(std::span<const EdgeRun> runs);
  static uint64_t pages_of(const EdgeRun& run) { return run.packed_bytes / kPackedPageBytes; }
  double theta(uint32_t job) const;
  bool failed(uint32_t job) const;
  void grow(uint32_t job);

  const EngineLayout& layout_;
  int threads_ = 1;
  EdgeAction action_;
  RunName name_;
  SourceFilter may_push_;
  WindowFilter takes_windows_;
  std::vector<WindowCuts> window_cuts_;  // per destination range windowed so far
  size_t cuts_in_use_ = 0;               // the range of the load being processed
  // Per run of the load being processed: its jobs that take windows now, and the others.
  std::vector<std::vector<uint32_t>> window_jobs_, other_jobs_;
  std::vector<double> job_seconds_;  // per job index: time in the action, for theta_j
  std::vector<uint64_t> job_edges_;  // per job index: edges handed to the action
  std::vector<std::pair<uint32_t, std::string>> failures_;
  EngineCounters counters_;
  uint64_t decode_edges_;
  std::vector<DecodedGroups> decode_buffers_;  // per thread: the pages it decodes
};

}  // namespace graphso
