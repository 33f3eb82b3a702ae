// Re-entry: before a load's memory is reused, the asynchronous jobs process it again in memory
// while it still holds work for them, so a wave crosses a loaded region without another load
// (docs/jobs.md, "Re-entry"). Every sharing mode calls it after each load it hands the engine.
//
// A sweep hands the engine the load's runs again (EdgeRun::reentry), each for the jobs that have
// a source changed since it pushed within the run's source range (Job::wants_reentry); in such a
// run only those sources whose out-edges all lie in it push (EdgeJob). A job leaves the load's
// sweeps once one of them pushes nothing for it (nothing of its changed, so the next would find
// the same), or once one finds its changed sources dense but pushes for almost none of them: their
// out-edges lie in other runs (R-MAT in a grid), and the next sweep would decode the load again
// for as little, or once one carries few edges for those it handed (the edge cutoff: a wave
// spread thin over the load's pages). Sweeps stop when no job is left, or after `bound` of them.
//
// A job whose first sweep of a load pushed for almost none of the changed sources, spread over the
// whole load sits out the next 1, 3, 7, 15 loads (while each such first sweep is again wasteful;
// at most kMostLoadsSatOut), so a graph where sweeps never pay costs about one sweep in that many
// loads, and a wave that comes into reach is found again within that many loads.
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
// The default cutoff: a sweep that pushed for fewer than 1 in 64 of the changed sources it found
// is wasteful (when they were dense, or spread for a load's first sweep: below). Waves on road networks push for most of them (1 in 2 or
// better in 86% of their sweeps); BFS on R-MAT 22 mostly for 1 in 500 to 1 in 4,000 (docs/jobs.md).
inline constexpr uint32_t kDefaultReentryCutoff = 64;
// Within a load a job leaves a sweep that pushes for few only if its changed sources were dense,
// at least 1 in this many of the edges handed: a sparse few are a delta job's tail, and stopping
// those sweeps costs passes (soc-slashdot in X-Stream: delta-PageRank 32 -> 62 passes, 0.54 -> 0.80
// of the synchronous bytes).
inline constexpr uint64_t kDenseChangedPerEdges = 16;
// A load's first sweep that pushes for few sends the job out of the next loads once its changed
// sources were spread over about every packed page, at least 1 in this many edges (a page holds
// 1,000-2,000 packed edges): each such sweep decodes the whole load. R-MAT 22's W1 at 1/8 of the
// edge bytes decodes 0.62 of the edges it did with 1 in 16 here, for the same bytes (docs/jobs.md).
inline constexpr uint64_t kSpreadChangedPerEdges = 1024;
// A sweep whose pushes carried fewer than 1 in this many of the edges it was handed is wasteful
// too, however many of its changed sources pushed: the engine decodes the runs' pages that hold
// any changed source, so a sweep costs about the edges handed, and what it saves is the edges it
// pushes ahead of the next round. On a city road network in natural ids (osm-rome) sweeps pushed
// for most changed sources but carried 1 edge in about 140 handed: BFS x4 processed 10x the edges
// of passes without re-entry and took 3x their time; with this cutoff 1.1-1.2x (4 and 16 the
// same). On road-FLA, where sweeps carry more, 64 keeps more of them than 16 (0.6-0.7 GB read
// against 0.8-0.9 GB; docs/jobs.md, "The edge cutoff").
inline constexpr uint32_t kDefaultReentryEdgeCutoff = 64;
// The longest run of loads a job sits out: a wave that comes into reach waits at most this many.
inline constexpr uint64_t kMostLoadsSatOut = 15;

// The bound `run` sweeps with unless told (`--reentry`), by engine: GridGraph's sweeps decode
// pages and push in place; an X-Stream sweep scatters, bins and gathers its edges again, and in
// every batch measured it did not pay (docs/jobs.md, "In the X-Stream engine"): none.
inline uint32_t default_reentry_bound(EngineKind engine) {
  return engine == EngineKind::XStream ? 0 : kDefaultReentryBound;
}

struct ReentryPolicy {
  uint32_t bound = kDefaultReentryBound;    // sweeps per load at most (`run --reentry`; 0: none)
  uint32_t cutoff = kDefaultReentryCutoff;  // `run --reentry-cutoff`; 0: leave only on nothing pushed
  uint32_t edge_cutoff = kDefaultReentryEdgeCutoff;  // `run --reentry-edge-cutoff`; 0: not judged by edges
};

struct ReentryCounts {
  uint64_t sweeps = 0;  // loads handed again, each counted once per sweep
  uint64_t edges = 0;   // edges handed again, once per run whatever its jobs
  std::vector<uint64_t> job_sweeps;  // per batch job index: sweeps it took part in
  std::vector<uint64_t> job_loads_sat_out;  // per batch job index: loads it sat out (wasteful before)
};

class Reentry {
 public:
  explicit Reentry(ReentryPolicy policy) : policy_(policy) {}

  // After engine.process(runs), while the runs' memory is still the load's.
  void after_load(Engine& engine, std::span<Job* const> jobs, std::span<const EdgeRun> runs);
  const ReentryCounts& counts() const { return counts_; }

 private:
  // Per batch job: the loads it sits out after a wasteful first sweep, and how many are left.
  struct SitOut {
    uint64_t loads = 0, left = 0;
  };
  bool wasteful(uint64_t pushed, uint64_t changed, uint64_t handed, uint64_t edges_per_changed) const;
  bool carries_little(uint64_t edges_pushed, uint64_t handed) const;

  ReentryPolicy policy_;
  ReentryCounts counts_;
  std::vector<SitOut> sit_out_;
};

}  // namespace graphso
