#include "integrations/chunk_round.h"

namespace graphso {

ChunkRoundStats run_chunk_round(GraphSO& graphso, std::span<Job* const> jobs, const std::vector<uint32_t>& running,
                                const std::function<void(std::span<const ChunkRun>)>& process) {
  std::vector<JobActivity> activity;
  for (uint32_t j : running) activity.push_back({&jobs[j]->frontier(), jobs[j]->direction() == Direction::Both});
  ActiveChunks active = graphso.GetActiveChunks(activity);
  ChunkRoundStats stats;
  stats.active_chunks = active.chunks.size();
  while (std::optional<LoadedPartition> lp = graphso.Schedule(active)) {
    ++stats.logical_partitions;
    std::vector<ChunkRun> runs;
    for (const LoadedChunk& loaded : lp->chunks) {
      const ChunkDemand& demand = active.chunks[loaded.demand];
      const ChunkInfo& chunk = graphso.table().chunk(demand.chunk);
      for (const LoadedRun& run : loaded.runs) {
        ChunkRun r{chunk.partition, chunk.first_edge + run.first, run.count, run.data, {}, {}};
        for (uint32_t k : demand.jobs) r.jobs.push_back(running[k]);
        if (loaded.runs.size() == 1 && run.count == chunk.edges) r.active_edges = demand.active_edges;
        runs.push_back(std::move(r));
      }
    }
    process(runs);
  }
  return stats;
}

}  // namespace graphso
