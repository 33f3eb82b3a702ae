// Hands runs of edge records that are in memory to the jobs that want them, on the engine's
// threads; shared by every engine (GridGraph blocks, X-Stream partitions, GraphSO chunks).
//
// Each run (base/edge_run.h) is checked (every edge inside its static partition's vertex ranges:
// a corrupt file is an error, not a wild write), counted, and given to all of its jobs before
// its memory is left (chunk-synchronous):
//   small runs (chunks, small blocks): a thread takes a work item and runs every related job on
//     each of its runs while the run is in that core's cache, threads taking items dynamically
//     (the paper's Formula (1) budgets one chunk per core in the LLC). An item is every run of
//     one destination range when a load has enough even ranges (the thread then owns those
//     destinations, EdgeRun::owns_destinations, and jobs update them without atomics), otherwise
//     a piece of a run, so that a load of few runs still keeps every thread busy;
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

// Packed runs (EdgeRun::packed) are decoded first, on the threads, into a buffer of records whose
// size the engine is given (decode_bytes), and the records go to the jobs as above: a load larger
// than that is handed over a slice at a time, each slice cut on page boundaries.
// What the engine does with a run for job index `job`. Called from several threads at once.
using EdgeAction = std::function<void(uint32_t job, const EdgeRun& run)>;
// Names a run in the error for a misplaced edge ("grid.row: block (1, 2)").
using RunName = std::function<std::string(const EdgeRun& run)>;

class EdgeProcessor {
 public:
  // layout: the partitions whose vertex ranges every run is checked against.
  // decode_bytes: the records a slice of packed runs is decoded into at most (one page's more).
  EdgeProcessor(const EngineLayout& layout, int threads, EdgeAction action, RunName name,
                uint64_t decode_bytes = kDefaultDecodeBytes)
      : layout_(layout), threads_(threads), action_(std::move(action)), name_(std::move(name)),
        decode_edges_(std::max<uint64_t>(1, decode_bytes / edge_bytes(layout.weighted))) {}

  void process(std::span<const EdgeRun> runs);

  static constexpr uint64_t kDefaultDecodeBytes = 8 << 20;
  // The decode buffer's bytes (0 until a packed run comes).
  uint64_t decode_buffer_bytes() const { return decoded_.size(); }

  // Jobs whose action threw, with the message; they are no longer handed edges.
  const std::vector<std::pair<uint32_t, std::string>>& failures() const { return failures_; }
  const EngineCounters& counters() const { return counters_; }

 private:
  struct Piece {
    size_t run;  // index into the load's runs
    uint64_t first, count;
  };
  struct WorkItem {
    std::vector<Piece> pieces;
    bool owns_destinations;
  };
  static constexpr uint64_t kMinPieceEdges = 4096;

  // count_runs: false for slices of packed runs (process_packed counts those runs once).
  void process_records(std::span<const EdgeRun> runs, bool count_runs = true);
  void process_packed(std::span<const EdgeRun> runs);
  uint64_t check_run(const EdgeRun& run, bool parallel) const;
  std::vector<WorkItem> plan_small(std::span<const EdgeRun> runs) const;
  void process_large(const EdgeRun& run, bool count_runs);
  void process_small(std::span<const EdgeRun> runs, bool count_runs);
  double theta(uint32_t job) const;
  bool failed(uint32_t job) const;
  void grow(uint32_t job);

  const EngineLayout& layout_;
  int threads_ = 1;
  EdgeAction action_;
  RunName name_;
  std::vector<double> job_seconds_;  // per job index: time in the action, for theta_j
  std::vector<uint64_t> job_edges_;  // per job index: edges handed to the action
  std::vector<std::pair<uint32_t, std::string>> failures_;
  EngineCounters counters_;
  uint64_t decode_edges_;
  std::vector<std::byte> decoded_;  // the records of the slice of packed runs being processed
};

}  // namespace graphso
