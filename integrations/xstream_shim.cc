#include "integrations/xstream_shim.h"

#include "integrations/chunk_round.h"

namespace graphso {

EngineLayout xstream_layout(const GridGraph& graph, const XStreamLayout& layout) {
  const GridMeta& m = graph.meta();
  EngineLayout out;
  out.name = "xstream";
  out.dir = graph.dir();
  out.files = layout.paths();
  out.vertices = m.vertices;
  out.edges = m.edges;
  out.weighted = m.weighted;
  out.identity = layout.identity();
  out.out_degrees = &graph.out_degrees();
  for (uint32_t k = 0; k < layout.partitions(); ++k)
    out.partitions.push_back({k, 0, layout.edges(k), static_cast<VertexId>(m.range_begin(k)),
                              static_cast<VertexId>(m.range_end(k)), 0, static_cast<VertexId>(m.vertices)});
  return out;
}

ChunkRoundStats xstream_chunk_round(GraphSO& graphso, XStreamEngine& engine, std::span<Job* const> jobs,
                                    const std::vector<uint32_t>& running, Activity accounting) {
  ChunkRoundStats stats = run_chunk_round(graphso, jobs, running, [&](std::span<const ChunkRun> runs) {
    std::vector<XStreamUnit> units;
    std::vector<const std::byte*> data;
    for (const ChunkRun& r : runs) {
      units.push_back({r.partition, r.first_edge, r.edges, r.jobs, accounting, r.active_edges});
      data.push_back(r.data);
    }
    engine.scatter_in_memory(units, data);
  });
  engine.gather(running);
  return stats;
}

}  // namespace graphso
