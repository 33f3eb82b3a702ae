#include "engine/gridgraph/grid_engine.h"

#include <omp.h>

#include <cstring>
#include <optional>

#include "engine/common/error.h"
#include "middleware/io/read_plan.h"

namespace graphso {

GridEngine::GridEngine(const GridGraph& graph, ReaderFactory& readers, uint64_t buffer_bytes, int threads)
    : graph_(graph), factory_(readers), buffer_bytes_(align_down(buffer_bytes, kDirectAlignment)),
      threads_(std::max(1, threads)) {
  // A unit starting mid-page needs up to one page of slack before it and one after.
  if (buffer_bytes_ < 4 * kDirectAlignment)
    fail("read buffers of {} bytes are too small (need at least {})", buffer_bytes_, 4 * kDirectAlignment);
  max_unit_edges_ = (buffer_bytes_ - 2 * kDirectAlignment) / graph.meta().edge_size();
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
    units.push_back({i, j, first, std::min(max_unit_edges_, total - first), order, jobs, activity, {}});
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
  std::vector<FileRange> ranges;
  for (size_t k = first; k < units.size() && units[k].order == load.order; ++k)
    ranges.push_back({0, file_offset(units[k]), units[k].edges * record});
  ReadPlan plan = plan_reads(ranges, buffer, buffer_bytes_);
  load.last = first + plan.placed;
  load.placement = std::move(plan.placement);
  load.reads = std::move(plan.reads);
  return load;
}

void GridEngine::stream(std::span<const LoadUnit> units, std::span<Job* const> jobs) {
  if (units.empty()) return;
  if (!buffers_[0].data())
    for (AlignedBuffer& buffer : buffers_) buffer = AlignedBuffer(buffer_bytes_);
  Load current = pack(units, 0, buffers_[0].data());
  reader(current.order).submit(current.reads);
  std::optional<GridOrder> outstanding = current.order;  // the reader with a batch in flight
  int slot = 0;
  try {
    while (true) {
      reader(current.order).wait();
      outstanding.reset();
      Load next;
      bool more = current.last < units.size();
      if (more) {
        next = pack(units, current.last, buffers_[1 - slot].data());
        reader(next.order).submit(next.reads);
        outstanding = next.order;
      }
      std::vector<const std::byte*> data;
      for (size_t k = current.first; k < current.last; ++k)
        data.push_back(buffers_[slot].data() + current.placement[k - current.first]);
      process_units(units.subspan(current.first, current.last - current.first), data, jobs);
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

namespace {
// Units up to this many edges are processed whole by one thread.
constexpr uint64_t kSmallUnitEdges = 1 << 17;
}  // namespace

uint64_t GridEngine::check_unit(const LoadUnit& unit, const std::byte* data, bool parallel) const {
  const GridMeta& m = graph_.meta();
  const uint32_t record = m.edge_size();
  const uint64_t src_begin = m.range_begin(unit.row), src_end = m.range_end(unit.row);
  const uint64_t dst_begin = m.range_begin(unit.col), dst_end = m.range_end(unit.col);
  const Bitmap* sources = unit.activity.sources;
  const Bitmap* destinations = unit.activity.destinations;
  const int64_t count = static_cast<int64_t>(unit.edges);
  uint64_t misplaced = 0, active = 0;
#pragma omp parallel num_threads(threads_) reduction(+ : misplaced, active) if (parallel)
  {
    // Edges are sorted by source: the source bitmap is tested once per run of equal sources.
    VertexId run_source = 0;
    bool run_active = false, first = true;
#pragma omp for schedule(static)
    for (int64_t e = 0; e < count; ++e) {
      Edge edge;
      std::memcpy(&edge, data + e * record, sizeof(edge));
      bool inside = edge.src >= src_begin && edge.src < src_end && edge.dst >= dst_begin && edge.dst < dst_end;
      if (!inside) {
        ++misplaced;
        continue;
      }
      if (first || edge.src != run_source) {
        run_source = edge.src;
        run_active = sources && sources->test(edge.src);
        first = false;
      }
      active += run_active || (destinations && destinations->test(edge.dst));
    }
  }
  if (misplaced)
    fail("{}: block ({}, {}) holds {} edges outside its vertex ranges (corrupt graph file; "
         "`graphso inspect --verify` checks every block)",
         unit.order == GridOrder::Row ? graph_.row_path() : graph_.col_path(), unit.row, unit.col, misplaced);
  return active;
}

double GridEngine::theta(uint32_t job) const {
  if (job < job_edges_.size() && job_edges_[job]) return job_seconds_[job] / static_cast<double>(job_edges_[job]);
  double known = 0;  // a job not measured yet is assumed as slow as the slowest measured one
  for (size_t k = 0; k < job_edges_.size(); ++k)
    if (job_edges_[k]) known = std::max(known, job_seconds_[k] / static_cast<double>(job_edges_[k]));
  return known > 0 ? known : 1e-9;
}

bool GridEngine::failed(uint32_t job) const {
  for (const auto& f : failures_)
    if (f.first == job) return true;
  return false;
}

void GridEngine::process_units(std::span<const LoadUnit> units, std::span<const std::byte* const> data,
                               std::span<Job* const> jobs) {
  if (job_seconds_.size() < jobs.size()) {
    job_seconds_.resize(jobs.size(), 0.0);
    job_edges_.resize(jobs.size(), 0);
  }
  // Runs of small units go to the threads together; large units one at a time.
  size_t k = 0;
  while (k < units.size()) {
    if (units[k].edges > kSmallUnitEdges) {
      process_large(units[k], data[k], jobs);
      ++k;
      continue;
    }
    size_t end = k;
    while (end < units.size() && units[end].edges <= kSmallUnitEdges) ++end;
    process_small(units.subspan(k, end - k), data.subspan(k, end - k), jobs);
    k = end;
  }
}

void GridEngine::process_small(std::span<const LoadUnit> units, std::span<const std::byte* const> data,
                               std::span<Job* const> jobs) {
  const bool weighted = graph_.meta().weighted;
  const int64_t count = static_cast<int64_t>(units.size());
  uint64_t edges_loaded = 0, active_edges = 0, edges_processed = 0;
  std::vector<double> seconds(jobs.size(), 0.0);
  std::vector<uint64_t> job_edges(jobs.size(), 0);
  std::vector<std::pair<uint32_t, std::string>> errors;
  std::string check_error;
  const std::vector<std::pair<uint32_t, std::string>> failed_before = failures_;
  auto skip = [&](uint32_t j) {
    for (const auto& f : failed_before)
      if (f.first == j) return true;
    return false;
  };
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 1) \
    reduction(+ : edges_loaded, active_edges, edges_processed) if (count > 1)
  for (int64_t u = 0; u < count; ++u) {
    const LoadUnit& unit = units[u];
    try {
      active_edges += check_unit(unit, data[u], false);
    } catch (const std::exception& e) {
#pragma omp critical(graphso_engine_errors)
      if (check_error.empty()) check_error = e.what();
      continue;
    }
    edges_loaded += unit.edges;
    for (uint32_t j : unit.jobs) {
      if (skip(j)) continue;
      double began = omp_get_wtime();
      try {
        jobs[j]->process(EdgeRun{data[u], unit.edges, weighted});
      } catch (const std::exception& e) {
#pragma omp critical(graphso_engine_errors)
        errors.emplace_back(j, e.what());
      }
      double took = omp_get_wtime() - began;
#pragma omp atomic
      seconds[j] += took;
#pragma omp atomic
      job_edges[j] += unit.edges;
      edges_processed += unit.edges;
    }
  }
  if (!check_error.empty()) throw Error(check_error);
  counters_.units += units.size();
  counters_.edges_loaded += edges_loaded;
  counters_.active_edges_loaded += active_edges;
  counters_.edges_processed += edges_processed;
  for (size_t j = 0; j < jobs.size(); ++j) {
    job_seconds_[j] += seconds[j];
    job_edges_[j] += job_edges[j];
  }
  for (auto& e : errors)
    if (!failed(e.first)) failures_.push_back(std::move(e));
}

void GridEngine::process_large(const LoadUnit& unit, const std::byte* data, std::span<Job* const> jobs) {
  const uint32_t record = graph_.meta().edge_size();
  const bool weighted = graph_.meta().weighted;
  const uint64_t active = check_unit(unit, data, true);
  counters_.units += 1;
  counters_.edges_loaded += unit.edges;
  counters_.active_edges_loaded += active;

  // The unit's live jobs and their estimated loads L_j = theta_j x active edges.
  std::vector<uint32_t> live;
  std::vector<double> load;
  for (size_t k = 0; k < unit.jobs.size(); ++k) {
    uint32_t j = unit.jobs[k];
    if (failed(j)) continue;
    double edges = unit.active_edges.empty() ? static_cast<double>(unit.edges) : static_cast<double>(unit.active_edges[k]);
    live.push_back(j);
    load.push_back(theta(j) * std::max(edges, 1.0));
  }
  if (live.empty()) return;
  double total = 0;
  std::vector<double> start(live.size());
  for (size_t k = 0; k < live.size(); ++k) {
    start[k] = total;
    total += load[k];
  }

  // Thread t takes the slice [t, t+1) * total / T of the jobs' loads laid end to end: a job with
  // twice the load gets twice the threads, and every edge of every job is processed exactly once.
  std::vector<double> seconds(live.size(), 0.0);
  std::vector<std::string> errors(live.size());
#pragma omp parallel num_threads(threads_)
  {
    const int t = omp_get_thread_num(), T = omp_get_num_threads();
    const double lo = total * t / T, hi = total * (t + 1) / T;
    for (size_t k = 0; k < live.size(); ++k) {
      double a = std::max(lo, start[k]), b = std::min(hi, start[k] + load[k]);
      if (a >= b) continue;
      uint64_t first = static_cast<uint64_t>((a - start[k]) / load[k] * static_cast<double>(unit.edges));
      uint64_t last = b >= start[k] + load[k] ? unit.edges
                                              : static_cast<uint64_t>((b - start[k]) / load[k] * static_cast<double>(unit.edges));
      if (first >= last) continue;
      double began = omp_get_wtime();
      try {
        jobs[live[k]]->process(EdgeRun{data + first * record, last - first, weighted});
      } catch (const std::exception& e) {
#pragma omp critical(graphso_engine_errors)
        if (errors[k].empty()) errors[k] = e.what();
      }
      double took = omp_get_wtime() - began;
#pragma omp atomic
      seconds[k] += took;
    }
  }
  for (size_t k = 0; k < live.size(); ++k) {
    job_seconds_[live[k]] += seconds[k];
    job_edges_[live[k]] += unit.edges;
    counters_.edges_processed += unit.edges;
    if (!errors[k].empty()) failures_.emplace_back(live[k], errors[k]);
  }
}

}  // namespace graphso
