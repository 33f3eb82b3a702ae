#include "integrations/gridgraph_shim.h"

#include "engine/common/checksum.h"

namespace graphso {

EngineLayout gridgraph_layout(const GridGraph& graph) {
  const GridMeta& m = graph.meta();
  EngineLayout layout;
  layout.name = "gridgraph";
  layout.dir = graph.dir();
  layout.files = {graph.row_path()};
  layout.vertices = m.vertices;
  layout.edges = m.edges;
  layout.weighted = m.weighted;
  std::string meta = m.serialize();
  layout.identity = crc32_of(std::as_bytes(std::span<const char>(meta.data(), meta.size())));
  layout.out_degrees = &graph.out_degrees();
  for (uint32_t i = 0; i < m.partitions; ++i)
    for (uint32_t j = 0; j < m.partitions; ++j)
      layout.partitions.push_back({0, m.row_offset(i, j), m.block_edges[m.block_index(i, j)],
                                   static_cast<VertexId>(m.range_begin(i)), static_cast<VertexId>(m.range_end(i)),
                                   static_cast<VertexId>(m.range_begin(j)), static_cast<VertexId>(m.range_end(j))});
  return layout;
}

ChunkRoundStats run_chunk_round(GraphSO& graphso, GridEngine& engine, std::span<Job* const> jobs,
                                const std::vector<uint32_t>& running, Activity accounting) {
  const uint32_t P = engine.graph().meta().partitions;
  std::vector<JobActivity> activity;
  for (uint32_t j : running) activity.push_back({&jobs[j]->frontier(), jobs[j]->direction() == Direction::Both});
  ActiveChunks active = graphso.GetActiveChunks(activity);
  ChunkRoundStats stats;
  stats.active_chunks = active.chunks.size();
  while (std::optional<LoadedPartition> lp = graphso.Schedule(active)) {
    ++stats.logical_partitions;
    std::vector<LoadUnit> units;
    std::vector<const std::byte*> data;
    for (const LoadedChunk& loaded : lp->chunks) {
      const ChunkDemand& demand = active.chunks[loaded.demand];
      const ChunkInfo& chunk = graphso.table().chunk(demand.chunk);
      // One unit per run in memory: the whole chunk, or each page run of it.
      for (const LoadedRun& run : loaded.runs) {
        LoadUnit unit;
        unit.row = chunk.partition / P;
        unit.col = chunk.partition % P;
        unit.first_edge = chunk.first_edge + run.first;
        unit.edges = run.count;
        unit.order = GridOrder::Row;
        for (uint32_t r : demand.jobs) unit.jobs.push_back(running[r]);
        unit.activity = accounting;
        if (loaded.runs.size() == 1 && run.count == chunk.edges) unit.active_edges = demand.active_edges;
        units.push_back(std::move(unit));
        data.push_back(run.data);
      }
    }
    engine.process_units(units, data, jobs);
  }
  return stats;
}

}  // namespace graphso
