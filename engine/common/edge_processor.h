// Hands runs of edge records that are in memory to the jobs that want them, on the engine's
// threads; shared by every engine (GridGraph blocks, X-Stream partitions, GraphSO chunks).
//
// A unit is a run of edges sorted by source and the jobs that want it. Each unit is checked
// (every edge inside the unit's vertex ranges: a corrupt file is an error, not a wild write),
// counted, and given to all of its jobs before its memory is left (chunk-synchronous):
//   small units (chunks): one thread takes a unit and runs every related job on it while it is
//     in that core's cache, threads taking units dynamically (the paper's Formula (1) budgets one
//     chunk per core in the LLC);
//   large units (blocks): all threads work on one unit, shared among its jobs in proportion to
//     the estimated load theta_j x active edges, theta_j the job's measured seconds per edge.
// What "give a run to a job" means is the engine's EdgeAction: GridGraph applies the edges
// (Job::process), X-Stream scatters them into updates (Job::scatter_updates).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/common/bitmap.h"
#include "jobs/job.h"

namespace graphso {

// Which sources (and, for Direction::Both jobs, destinations) count as active for a unit's
// jobs; used only for the active-edge accounting.
struct Activity {
  const Bitmap* sources = nullptr;
  const Bitmap* destinations = nullptr;  // may be null
};

struct EngineCounters {
  uint64_t units = 0;
  uint64_t edges_loaded = 0;
  uint64_t active_edges_loaded = 0;
  uint64_t edges_processed = 0;  // edges handed to jobs, counted once per job
};

struct EdgeUnit {
  const std::byte* data = nullptr;
  uint64_t edges = 0;
  uint64_t src_begin = 0, src_end = 0;  // every edge must lie inside these ranges
  uint64_t dst_begin = 0, dst_end = 0;
  std::span<const uint32_t> jobs;       // indexes into the job list
  Activity activity;
  // Per entry of `jobs`, the edges of this unit that job will find active (from the chunk
  // index); empty when unknown, then every job's load is taken as the unit's size.
  std::span<const uint64_t> active_edges;
  // Names the unit in the error for a misplaced edge ("grid.row: block (1, 2)").
  std::function<std::string()> describe;
};

// What the engine does with a run for job index `job`. Called from several threads at once.
using EdgeAction = std::function<void(uint32_t job, const EdgeRun& run)>;

class EdgeProcessor {
 public:
  EdgeProcessor(int threads, bool weighted, EdgeAction action)
      : threads_(threads), weighted_(weighted), action_(std::move(action)) {}

  void process(std::span<const EdgeUnit> units);

  // Jobs whose action threw, with the message; they are no longer handed edges.
  const std::vector<std::pair<uint32_t, std::string>>& failures() const { return failures_; }
  const EngineCounters& counters() const { return counters_; }

 private:
  uint64_t check_unit(const EdgeUnit& unit, bool parallel) const;
  void process_large(const EdgeUnit& unit);
  void process_small(std::span<const EdgeUnit> units);
  double theta(uint32_t job) const;
  bool failed(uint32_t job) const;
  void grow(uint32_t job);

  int threads_ = 1;
  bool weighted_ = false;
  EdgeAction action_;
  std::vector<double> job_seconds_;  // per job index: time in the action, for theta_j
  std::vector<uint64_t> job_edges_;  // per job index: edges handed to the action
  std::vector<std::pair<uint32_t, std::string>> failures_;
  EngineCounters counters_;
};

}  // namespace graphso
