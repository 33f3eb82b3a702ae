#include "engine/gridgraph/grid_engine.h"

#include <fmt/format.h>

#include "engine/common/error.h"

namespace graphso {

GridEngine::GridEngine(const GridGraph& graph, ReaderFactory& readers, uint64_t buffer_bytes, int threads,
                       std::span<Job* const> jobs)
    : graph_(graph), streamer_(readers, {graph.row_path(), graph.col_path()}, buffer_bytes),
      processor_(std::max(1, threads), graph.meta().weighted,
                 [jobs](uint32_t j, const EdgeRun& run) { jobs[j]->process(run); }) {
  max_unit_edges_ = streamer_.max_range_bytes() / graph.meta().edge_size();
}

std::vector<bool> GridEngine::active_blocks(const Job& job) const {
  const GridMeta& m = graph_.meta();
  const Bitmap& f = job.frontier();
  std::vector<bool> range_active(m.partitions);
  for (uint32_t i = 0; i < m.partitions; ++i) range_active[i] = f.any_in(m.range_begin(i), m.range_end(i));
  bool both = job.direction() == Direction::Both;
  std::vector<bool> active(m.num_blocks());
  for (uint32_t i = 0; i < m.partitions; ++i)
    for (uint32_t j = 0; j < m.partitions; ++j)
      active[m.block_index(i, j)] =
          m.block_edges[m.block_index(i, j)] > 0 && (range_active[i] || (both && range_active[j]));
  return active;
}

void GridEngine::add_block_units(uint32_t i, uint32_t j, GridOrder order, std::vector<uint32_t> jobs,
                                 Activity activity, std::vector<LoadUnit>& units) const {
  const GridMeta& m = graph_.meta();
  uint64_t total = m.block_edges[m.block_index(i, j)];
  for (uint64_t first = 0; first < total; first += max_unit_edges_)
    units.push_back({i, j, first, std::min(max_unit_edges_, total - first), order, jobs, activity, {}});
}

FileRange GridEngine::file_range(const LoadUnit& unit) const {
  const GridMeta& m = graph_.meta();
  bool row = unit.order == GridOrder::Row;
  uint64_t block = row ? m.row_offset(unit.row, unit.col) : m.col_offset(unit.row, unit.col);
  return {row ? 0u : 1u, block + unit.first_edge * m.edge_size(), unit.edges * m.edge_size()};
}

void GridEngine::stream(std::span<const LoadUnit> units) {
  std::vector<FileRange> ranges;
  for (const LoadUnit& unit : units) ranges.push_back(file_range(unit));
  streamer_.stream(ranges, [&](size_t first, size_t last, std::span<const std::byte* const> data) {
    process_units(units.subspan(first, last - first), data);
  });
}

void GridEngine::process_units(std::span<const LoadUnit> units, std::span<const std::byte* const> data) {
  const GridMeta& m = graph_.meta();
  std::vector<EdgeUnit> edge_units;
  for (size_t k = 0; k < units.size(); ++k) {
    const LoadUnit& u = units[k];
    edge_units.push_back({data[k], u.edges, m.range_begin(u.row), m.range_end(u.row), m.range_begin(u.col),
                          m.range_end(u.col), u.jobs, u.activity, u.active_edges, [this, &u] {
                            return fmt::format("{}: block ({}, {})",
                                               u.order == GridOrder::Row ? graph_.row_path() : graph_.col_path(),
                                               u.row, u.col);
                          }});
  }
  processor_.process(edge_units);
}

}  // namespace graphso
