#include "middleware/reentry.h"

#include <algorithm>
#include <cstring>

namespace graphso {
namespace {

// The first and last source of a run (edges are sorted by source; src leads either record).
std::pair<VertexId, VertexId> source_range(const EdgeRun& run) {
  if (run.packed) return packed_source_range({run.data, run.packed_bytes});
  if (run.grouped()) return {run.groups.sources[0], run.groups.sources[run.groups.groups - 1]};
  VertexId first, last;
  std::memcpy(&first, run.data, sizeof(first));
  std::memcpy(&last, run.data + (run.count - 1) * edge_bytes(run.weighted), sizeof(last));
  return {first, last};
}

}  // namespace

// Pushed for fewer than 1 in `cutoff` of the changed sources found, which were at least 1 in
// `edges_per_changed` of the edges handed.
bool Reentry::wasteful(uint64_t pushed, uint64_t changed, uint64_t handed, uint64_t edges_per_changed) const {
  return policy_.cutoff != 0 && pushed * policy_.cutoff < changed && changed * edges_per_changed > handed;
}

// Pushed fewer than 1 in `edge_cutoff` of the edges handed.
bool Reentry::carries_little(uint64_t edges_pushed, uint64_t handed) const {
  return policy_.edge_cutoff != 0 && edges_pushed * policy_.edge_cutoff < handed;
}

void Reentry::after_load(Engine& engine, std::span<Job* const> jobs, std::span<const EdgeRun> runs) {
  if (policy_.bound == 0) return;
  bool any_async = false;
  for (const EdgeRun& run : runs)
    for (uint32_t j : run.jobs) any_async |= jobs[j]->async();
  if (!any_async) return;
  counts_.job_sweeps.resize(std::max(counts_.job_sweeps.size(), jobs.size()), 0);
  counts_.job_loads_sat_out.resize(std::max(counts_.job_loads_sat_out.size(), jobs.size()), 0);
  sit_out_.resize(std::max(sit_out_.size(), jobs.size()));

  // Per batch job: whether it is in this load (counted once), whether the load is done for it
  // (sat out, or left), and whether its first sweep of the load was judged.
  std::vector<uint8_t> in_load(jobs.size(), 0), done(jobs.size(), 0), judged(jobs.size(), 0);
  for (const EdgeRun& run : runs)
    for (uint32_t j : run.jobs) {
      if (in_load[j]) continue;
      in_load[j] = 1;
      if (sit_out_[j].left > 0) {
        --sit_out_[j].left;
        ++counts_.job_loads_sat_out[j];
        done[j] = 1;
      }
    }

  std::vector<std::vector<uint32_t>> wanting(runs.size());  // per run: its jobs with work in it
  std::vector<EdgeRun> again;
  std::vector<uint32_t> taking;  // the sweep's jobs
  std::vector<uint64_t> handed(jobs.size()), pushes_before(jobs.size()), changed_before(jobs.size()),
      edges_before(jobs.size());
  for (uint32_t sweep = 0; sweep < policy_.bound; ++sweep) {
    again.clear();
    taking.clear();
    std::fill(handed.begin(), handed.end(), 0);
    for (size_t k = 0; k < runs.size(); ++k) {
      const EdgeRun& run = runs[k];
      wanting[k].clear();
      if (run.count == 0) continue;
      const auto [first, last] = source_range(run);
      for (uint32_t j : run.jobs)
        if (!done[j] && jobs[j]->wants_reentry(first, last + 1)) wanting[k].push_back(j);
      if (wanting[k].empty()) continue;
      EdgeRun r = run;
      r.jobs = wanting[k];
      r.active_edges = {};
      r.accounting = {};
      r.checked = true;  // range-checked when it was first handed over
      r.counted_active = 0;
      r.reentry = true;
      again.push_back(r);
      counts_.edges += run.count;
      for (uint32_t j : wanting[k]) {
        if (handed[j] == 0) taking.push_back(j);
        handed[j] += run.count;
      }
    }
    if (again.empty()) return;
    for (uint32_t j : taking) {
      pushes_before[j] = jobs[j]->reentry_pushes();
      changed_before[j] = jobs[j]->reentry_changed();
      edges_before[j] = jobs[j]->reentry_edges();
    }
    engine.process(again);
    ++counts_.sweeps;
    for (uint32_t j : taking) {
      ++counts_.job_sweeps[j];
      const uint64_t pushed = jobs[j]->reentry_pushes() - pushes_before[j];
      const uint64_t changed = jobs[j]->reentry_changed() - changed_before[j];
      const bool thin = carries_little(jobs[j]->reentry_edges() - edges_before[j], handed[j]);
      if (!judged[j]) {  // its first sweep of this load says how many loads it sits out next
        judged[j] = 1;
        SitOut& s = sit_out_[j];
        s.loads = thin || wasteful(pushed, changed, handed[j], kSpreadChangedPerEdges) ? std::min(2 * s.loads + 1, kMostLoadsSatOut) : 0;
        s.left = s.loads;
      }
      if (pushed == 0 || thin || wasteful(pushed, changed, handed[j], kDenseChangedPerEdges)) done[j] = 1;
    }
  }
}

}  // namespace graphso
