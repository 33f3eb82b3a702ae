// Re-entry: before a load's memory is reused, the asynchronous jobs process it again in memory
// while it still holds work for them, so a wave crosses a loaded region without another load
// (docs/jobs.md, "Re-entry"). Every sharing mode calls it after each load it hands the engine.
//
// A sweep hands the engine the load's runs again (EdgeRun::reentry), each for the jobs that have
// a source changed since it pushed within the run's source range (Job::wants_reentry); in such a
// run only those sources whose out-edges all lie in it push (EdgeJob). A job leaves the load's
// sweeps once one of them pushes nothing for it (nothing of its changed, so the next would find
// the same); sweeps stop when no job is left, or after `bound` of them.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/edge_run.h"
#include "engine/engine.h"
#include "jobs/job.h"

namespace graphso {

// The default bound on sweeps per load: the simulation in issue 14 gained nothing beyond it, and
// a sweep of a load with little work left costs a scan of its runs' edges.
inline constexpr uint32_t kDefaultReentryBound = 16;

struct ReentryCounts {
  uint64_t sweeps = 0;  // loads handed again, each counted once per sweep
  uint64_t edges = 0;   // edges handed again, once per run whatever its jobs
  std::vector<uint64_t> job_sweeps;  // per batch job index: sweeps it took part in
};

class Reentry {
 public:
  explicit Reentry(uint32_t bound) : bound_(bound) {}

  // After engine.process(runs), while the runs' memory is still the load's.
  void after_load(Engine& engine, std::span<Job* const> jobs, std::span<const EdgeRun> runs);
  const ReentryCounts& counts() const { return counts_; }

 private:
  uint32_t bound_;
  ReentryCounts counts_;
};

}  // namespace graphso
