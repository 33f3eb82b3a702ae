#include "middleware/reentry.h"

#include <algorithm>
#include <cstring>

namespace graphso {
namespace {

// The first and last source of a run (edges are sorted by source; src leads either record).
std::pair<VertexId, VertexId> source_range(const EdgeRun& run) {
  if (run.packed) return packed_source_range({run.data, run.packed_bytes});
  VertexId first, last;
  std::memcpy(&first, run.data, sizeof(first));
  std::memcpy(&last, run.data + (run.count - 1) * edge_bytes(run.weighted), sizeof(last));
  return {first, last};
}

}  // namespace

void Reentry::after_load(Engine& engine, std::span<Job* const> jobs, std::span<const EdgeRun> runs) {
  if (bound_ == 0) return;
  bool any_async = false;
  for (const EdgeRun& run : runs)
    for (uint32_t j : run.jobs) any_async |= jobs[j]->async();
  if (!any_async) return;
  if (counts_.job_sweeps.size() < jobs.size()) counts_.job_sweeps.resize(jobs.size(), 0);

  std::vector<std::vector<uint32_t>> wanting(runs.size());  // per run: its jobs with work in it
  std::vector<EdgeRun> again;
  std::vector<uint32_t> taking;  // the sweep's jobs
  std::vector<uint32_t> done;    // jobs whose last sweep pushed nothing: this load is done for them
  std::vector<uint64_t> pushes_before;
  for (uint32_t sweep = 0; sweep < bound_; ++sweep) {
    again.clear();
    taking.clear();
    for (size_t k = 0; k < runs.size(); ++k) {
      const EdgeRun& run = runs[k];
      wanting[k].clear();
      if (run.count == 0) continue;
      const auto [first, last] = source_range(run);
      for (uint32_t j : run.jobs)
        if (std::find(done.begin(), done.end(), j) == done.end() && jobs[j]->wants_reentry(first, last + 1))
          wanting[k].push_back(j);
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
      for (uint32_t j : wanting[k])
        if (std::find(taking.begin(), taking.end(), j) == taking.end()) taking.push_back(j);
    }
    if (again.empty()) return;
    pushes_before.clear();
    for (uint32_t j : taking) pushes_before.push_back(jobs[j]->reentry_pushes());
    engine.process(again);
    ++counts_.sweeps;
    for (size_t t = 0; t < taking.size(); ++t) {
      ++counts_.job_sweeps[taking[t]];
      if (jobs[taking[t]]->reentry_pushes() == pushes_before[t]) done.push_back(taking[t]);
    }
  }
}

}  // namespace graphso
