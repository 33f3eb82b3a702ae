// The chunk sharing mode: one round through the GraphSO hooks, for any engine.
//
//   active = graphso.GetActiveChunks(frontiers of the running jobs)
//   while (lp = graphso.Schedule(active))   // logical partitions, cached chunks first
//     engine.process(lp's runs)             // chunk-synchronous: every related job, then the next
//     re-enter lp while async jobs have work wholly inside it (middleware/reentry.h)
//     graphso.Follow(active, async jobs' changes)   // chunks they reached join the pass
//   engine.finish_round(running jobs)
#include "middleware/sharing_mode.h"

namespace graphso {
namespace {

class ChunkMode final : public SharingMode {
 public:
  ChunkMode(GraphSO& graphso, ReentryPolicy reentry, bool late_join)
      : SharingMode(reentry), graphso_(graphso), late_join_(late_join) {}

  RoundStats round(Engine& engine, std::span<Job* const> jobs, std::span<const uint32_t> running,
                   ActiveSets accounting) override {
    std::vector<JobFrontier> frontiers;
    for (uint32_t j : running)
      frontiers.push_back({&jobs[j]->frontier(), jobs[j]->edge_use() == EdgeUse::BothWays, jobs[j]->view()});
    // The index counts the report's active edges when they are by source only; a destination
    // frontier (a job using edges both ways) leaves them to the engine.
    ActiveChunks active = graphso_.GetActiveChunks(frontiers, accounting.destinations ? nullptr : accounting.sources);
    // A demand's jobs index `frontiers`; the engine's runs carry the batch's job indexes.
    for (ChunkDemand& demand : active.chunks)
      for (uint32_t& j : demand.jobs) j = running[j];
    RoundStats stats;
    stats.active_chunks = active.chunks.size();
    std::vector<JobChanges> changes;
    if (late_join_)
      for (uint32_t j : running) {
        Job::PassChanges c = jobs[j]->pass_changes();
        if (c.changed) changes.push_back({j, c.changed, c.whole_sources_only, jobs[j]->view()});
      }
    while (std::optional<LoadedPartition> lp = graphso_.Schedule(active)) {
      ++stats.logical_partitions;
      for (EdgeRun& run : lp->runs) run.accounting = accounting;
      engine.process(lp->runs);
      reentry_.after_load(engine, jobs, lp->runs);  // before Schedule() reuses the buffer
      stats.late_chunks += graphso_.Follow(active, changes);
    }
    engine.finish_round(running);
    return stats;
  }
  IoStats io_stats() const override { return graphso_.stats().io; }
  const char* backend() const override { return graphso_.backend(); }

 private:
  GraphSO& graphso_;
  bool late_join_;
};

}  // namespace

std::unique_ptr<SharingMode> make_chunk_mode(GraphSO& graphso, ReentryPolicy reentry, bool late_join) {
  return std::make_unique<ChunkMode>(graphso, reentry, late_join);
}

}  // namespace graphso
