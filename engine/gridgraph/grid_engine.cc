#include "engine/gridgraph/grid_engine.h"

#include <cstring>
#include <optional>

#include "engine/common/error.h"

namespace graphso {

GridEngine::GridEngine(const GridGraph& graph, ReaderFactory& readers, uint64_t buffer_bytes)
    : graph_(graph), factory_(readers), buffer_bytes_(align_down(buffer_bytes, kDirectAlignment)) {
  // A unit starting mid-page needs up to one page of slack before it and one after.
  if (buffer_bytes_ < 4 * kDirectAlignment)
    fail("read buffers of {} bytes are too small (need at least {})", buffer_bytes_, 4 * kDirectAlignment);
  max_unit_edges_ = (buffer_bytes_ - 2 * kDirectAlignment) / graph.meta().edge_size();
  for (AlignedBuffer& buffer : buffers_) buffer = AlignedBuffer(buffer_bytes_);
}

ChunkReader& GridEngine::reader(GridOrder order) {
  std::unique_ptr<ChunkReader>& r = order == GridOrder::Row ? row_reader_ : col_reader_;
  if (!r) r = factory_.open(order == GridOrder::Row ? graph_.row_path() : graph_.col_path());
  return *r;
}

IoStats GridEngine::io_stats() const {
  IoStats total;
  if (row_reader_) total += row_reader_->stats();
  if (col_reader_) total += col_reader_->stats();
  return total;
}

const char* GridEngine::backend() const {
  if (row_reader_) return row_reader_->backend();
  if (col_reader_) return col_reader_->backend();
  return "none";
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
    units.push_back({i, j, first, std::min(max_unit_edges_, total - first), order, jobs, activity});
}

uint64_t GridEngine::file_offset(const LoadUnit& unit) const {
  const GridMeta& m = graph_.meta();
  uint64_t block = unit.order == GridOrder::Row ? m.row_offset(unit.row, unit.col) : m.col_offset(unit.row, unit.col);
  return block + unit.first_edge * m.edge_size();
}

GridEngine::Load GridEngine::pack(std::span<const LoadUnit> units, size_t first, std::byte* buffer) const {
  const uint32_t record = graph_.meta().edge_size();
  Load load;
  load.first = first;
  load.order = units[first].order;
  uint64_t used = 0;        // bytes of the buffer taken
  uint64_t read_end = 0;    // file offset where the last read's data (not padding) ends
  size_t k = first;
  for (; k < units.size() && units[k].order == load.order; ++k) {
    uint64_t begin = file_offset(units[k]);
    uint64_t end = begin + units[k].edges * record;
    bool continues = !load.reads.empty() && begin == read_end;
    if (continues) {
      // Back to back with the previous unit: extend its read.
      ReadRequest& last = load.reads.back();
      uint64_t length = align_up(end, kDirectAlignment) - last.offset;
      uint64_t buffer_end = static_cast<uint64_t>(last.dest - buffer) + length;
      if (buffer_end > buffer_bytes_) break;
      load.placement.push_back(static_cast<uint64_t>(last.dest - buffer) + (begin - last.offset));
      last.length = length;
      used = buffer_end;
    } else {
      uint64_t aligned = align_down(begin, kDirectAlignment);
      uint64_t length = align_up(end, kDirectAlignment) - aligned;
      if (used + length > buffer_bytes_) break;
      load.placement.push_back(used + (begin - aligned));
      load.reads.push_back({aligned, length, buffer + used});
      used += length;
    }
    read_end = end;
  }
  load.last = k;
  return load;
}

void GridEngine::stream(std::span<const LoadUnit> units, std::span<Job* const> jobs) {
  if (units.empty()) return;
  Load current = pack(units, 0, buffers_[0].data());
  reader(current.order).submit(current.reads);
  std::optional<GridOrder> outstanding = current.order;  // the reader with a batch in flight
  int slot = 0;
  try {
    while (true) {
      reader(current.order).wait();
      outstanding.reset();
      ++loads_;
      Load next;
      bool more = current.last < units.size();
      if (more) {
        next = pack(units, current.last, buffers_[1 - slot].data());
        reader(next.order).submit(next.reads);
        outstanding = next.order;
      }
      for (size_t k = current.first; k < current.last; ++k)
        process(units[k], buffers_[slot].data() + current.placement[k - current.first], jobs);
      if (!more) return;
      current = std::move(next);
      slot = 1 - slot;
    }
  } catch (...) {
    // Let an outstanding read land before the error leaves (its buffer must outlive it).
    if (outstanding) {
      try {
        reader(*outstanding).wait();
      } catch (...) {
      }
    }
    throw;
  }
}

void GridEngine::process(const LoadUnit& unit, const std::byte* data, std::span<Job* const> jobs) {
  const GridMeta& m = graph_.meta();
  const uint32_t record = m.edge_size();
  const uint64_t src_begin = m.range_begin(unit.row), src_end = m.range_end(unit.row);
  const uint64_t dst_begin = m.range_begin(unit.col), dst_end = m.range_end(unit.col);
  const Bitmap* sources = unit.activity.sources;
  const Bitmap* destinations = unit.activity.destinations;
  const int64_t count = static_cast<int64_t>(unit.edges);
  uint64_t misplaced = 0, active = 0;
#pragma omp parallel for reduction(+ : misplaced, active) schedule(static) if (count > 65536)
  for (int64_t e = 0; e < count; ++e) {
    Edge edge;
    std::memcpy(&edge, data + e * record, sizeof(edge));
    bool inside = edge.src >= src_begin && edge.src < src_end && edge.dst >= dst_begin && edge.dst < dst_end;
    misplaced += !inside;
    if (inside && ((sources && sources->test(edge.src)) || (destinations && destinations->test(edge.dst))))
      ++active;
  }
  if (misplaced)
    fail("{}: block ({}, {}) holds {} edges outside its vertex ranges (corrupt graph file; "
         "`graphso inspect --verify` checks every block)",
         unit.order == GridOrder::Row ? graph_.row_path() : graph_.col_path(), unit.row, unit.col, misplaced);
  counters_.units += 1;
  counters_.edges_loaded += unit.edges;
  counters_.active_edges_loaded += active;
  EdgeRun run{data, unit.edges, m.weighted};
  for (uint32_t j : unit.jobs) {
    jobs[j]->process(run);
    counters_.edges_processed += unit.edges;
  }
}

}  // namespace graphso
