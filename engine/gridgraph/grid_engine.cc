#include "engine/gridgraph/grid_engine.h"

#include <fmt/format.h>

#include "base/error.h"

namespace graphso {

EngineLayout gridgraph_layout(const GridGraph& graph) {
  const GridMeta& m = graph.meta();
  EngineLayout layout;
  layout.name = "gridgraph";
  layout.dir = graph.dir();
  layout.files = {graph.files().grid_row(), graph.files().grid_col()};
  layout.vertices = m.vertices;
  layout.edges = m.edges;
  layout.weighted = m.weighted;
  layout.encoding = m.encoding;
  layout.identity = graph.identity();
  layout.out_degrees = &graph.out_degrees();
  for (uint32_t i = 0; i < m.partitions; ++i)
    for (uint32_t j = 0; j < m.partitions; ++j)
      layout.partitions.push_back({0, m.row_offset(i, j), m.block_edges[m.block_index(i, j)],
                                   static_cast<VertexId>(m.range_begin(i)), static_cast<VertexId>(m.range_end(i)),
                                   static_cast<VertexId>(m.range_begin(j)), static_cast<VertexId>(m.range_end(j)),
                                   m.block_bytes(i, j)});
  for (uint32_t j = 0; j < m.partitions; ++j)
    for (uint32_t i = 0; i < m.partitions; ++i)
      layout.dense_order.push_back({static_cast<uint32_t>(m.block_index(i, j)), 1, m.col_offset(i, j)});
  return layout;
}

void GridEngine::start(std::span<Job* const> jobs, uint64_t, int threads) {
  const uint32_t P = grid_partitions_;
  processor_.emplace(
      layout_, std::max(1, threads), [jobs](uint32_t j, const EdgeRun& run) { jobs[j]->process(run); },
      [this, P](const EdgeRun& run) {
        if (P == 0) return fmt::format("{}: partition {}", layout_.files[run.file], run.partition);
        return fmt::format("{}: block ({}, {})", layout_.files[run.file], run.partition / P, run.partition % P);
      },
      decode_.bytes, page_filter(jobs, decode_), window_filter(jobs));
}

}  // namespace graphso
