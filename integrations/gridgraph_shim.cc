#include "integrations/gridgraph_shim.h"

#include "integrations/chunk_round.h"

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
  layout.identity = graph.identity();
  layout.out_degrees = &graph.out_degrees();
  for (uint32_t i = 0; i < m.partitions; ++i)
    for (uint32_t j = 0; j < m.partitions; ++j)
      layout.partitions.push_back({0, m.row_offset(i, j), m.block_edges[m.block_index(i, j)],
                                   static_cast<VertexId>(m.range_begin(i)), static_cast<VertexId>(m.range_end(i)),
                                   static_cast<VertexId>(m.range_begin(j)), static_cast<VertexId>(m.range_end(j))});
  return layout;
}

ChunkRoundStats gridgraph_chunk_round(GraphSO& graphso, GridEngine& engine, std::span<Job* const> jobs,
                                      const std::vector<uint32_t>& running, Activity accounting) {
  const uint32_t P = engine.graph().meta().partitions;
  return run_chunk_round(graphso, jobs, running, [&](std::span<const ChunkRun> runs) {
    std::vector<LoadUnit> units;
    std::vector<const std::byte*> data;
    for (const ChunkRun& r : runs) {
      units.push_back({r.partition / P, r.partition % P, r.first_edge, r.edges, GridOrder::Row, r.jobs, accounting,
                       r.active_edges});
      data.push_back(r.data);
    }
    engine.process_units(units, data);
  });
}

}  // namespace graphso
