#include "engine/xstream/xstream_engine.h"

#include <omp.h>

#include <algorithm>

#include "engine/common/error.h"

namespace graphso {
namespace {

// A scatter call covers at most this many edges, so its staging (two records per edge at most)
// stays small and inside the update budget.
constexpr uint64_t kScatterPieceEdges = 1024;
constexpr uint64_t kLargestUpdate = 12;  // a vertex id and an 8-byte value
constexpr uint64_t kScatterStagingBytes = 2 * kScatterPieceEdges * kLargestUpdate;

uint64_t spill_piece_for(uint64_t update_bytes) {
  return align_down(std::clamp<uint64_t>(update_bytes / 16, 16 << 10, 1 << 20), kDirectAlignment);
}

std::vector<uint32_t> record_sizes(std::span<Job* const> jobs) {
  std::vector<uint32_t> sizes;
  for (Job* job : jobs) {
    if (job->update_bytes() > kLargestUpdate)
      fail("job {}: update records of {} bytes (the engine stages at most {})", job->name(), job->update_bytes(), kLargestUpdate);
    sizes.push_back(job->update_bytes());
  }
  return sizes;
}

// The bins get what the update budget leaves after the spill staging, the two read-back
// buffers and every thread's scatter staging.
uint64_t bin_budget(const XStreamConfig& c) {
  const uint64_t piece = spill_piece_for(c.update_bytes);
  const uint64_t fixed = piece + 2 * (piece + 2 * kDirectAlignment) + uint64_t(std::max(1, c.threads)) * kScatterStagingBytes;
  if (c.update_bytes < XStreamEngine::kMinUpdateBytes || c.update_bytes <= fixed + (64 << 10))
    fail("an update budget of {} bytes is too small for {} threads (need at least {})", c.update_bytes, c.threads,
         std::max<uint64_t>(XStreamEngine::kMinUpdateBytes, fixed + (64 << 10) + 1));
  return c.update_bytes - fixed;
}

}  // namespace

XStreamEngine::XStreamEngine(const GridGraph& graph, const XStreamLayout& layout, ReaderFactory& readers,
                             const XStreamConfig& config, std::span<Job* const> jobs)
    : graph_(graph), layout_(layout), readers_(readers), jobs_(jobs), threads_(std::max(1, config.threads)),
      streamer_(readers, layout.paths(), config.buffer_bytes),
      processor_(threads_, graph.meta().weighted, [this](uint32_t j, const EdgeRun& run) { scatter_run(j, run); }),
      bins_(graph.meta(), threads_, record_sizes(jobs), bin_budget(config), spill_piece_for(config.update_bytes),
            config.spill_path) {
  max_unit_edges_ = streamer_.max_range_bytes() / graph.meta().edge_size();
}

std::vector<bool> XStreamEngine::active_partitions(const Job& job) const {
  const GridMeta& m = graph_.meta();
  const Bitmap& f = job.frontier();
  const bool any = job.direction() == Direction::Both && f.count() > 0;
  std::vector<bool> active(m.partitions);
  for (uint32_t k = 0; k < m.partitions; ++k)
    active[k] = layout_.edges(k) > 0 && (any || f.any_in(m.range_begin(k), m.range_end(k)));
  return active;
}

void XStreamEngine::add_partition_units(uint32_t k, std::vector<uint32_t> jobs, Activity activity,
                                        std::vector<XStreamUnit>& units) const {
  const uint64_t total = layout_.edges(k);
  for (uint64_t first = 0; first < total; first += max_unit_edges_)
    units.push_back({k, first, std::min(max_unit_edges_, total - first), jobs, activity, {}});
}

void XStreamEngine::scatter_run(uint32_t job, const EdgeRun& run) {
  Job& j = *jobs_[job];
  const uint32_t record = edge_bytes(run.weighted);
  const int thread = omp_get_thread_num();  // the EdgeProcessor's threads, 0 outside its parallel regions
  std::vector<std::byte> staged;
  staged.reserve(kScatterStagingBytes);
  for (uint64_t first = 0; first < run.count; first += kScatterPieceEdges) {
    EdgeRun piece{run.data + first * record, std::min(kScatterPieceEdges, run.count - first), run.weighted};
    staged.clear();
    j.scatter_updates(piece, staged);
    bins_.add(thread, job, staged);
  }
}

void XStreamEngine::scatter(std::span<const XStreamUnit> units) {
  const uint32_t record = graph_.meta().edge_size();
  std::vector<FileRange> ranges;
  for (const XStreamUnit& u : units) ranges.push_back({u.partition, u.first_edge * record, u.edges * record});
  streamer_.stream(ranges, [&](size_t first, size_t last, std::span<const std::byte* const> data) {
    scatter_in_memory(units.subspan(first, last - first), data);
  });
}

void XStreamEngine::scatter_in_memory(std::span<const XStreamUnit> units, std::span<const std::byte* const> data) {
  const GridMeta& m = graph_.meta();
  std::vector<EdgeUnit> edge_units;
  for (size_t k = 0; k < units.size(); ++k) {
    const XStreamUnit& u = units[k];
    edge_units.push_back({data[k], u.edges, m.range_begin(u.partition), m.range_end(u.partition), 0, m.vertices,
                          u.jobs, u.activity, u.active_edges,
                          [this, &u] { return fmt::format("{}: partition {}", layout_.path(u.partition), u.partition); }});
  }
  processor_.process(edge_units);
}

std::vector<std::pair<uint32_t, std::string>> XStreamEngine::failures() const {
  std::vector<std::pair<uint32_t, std::string>> all = processor_.failures();
  all.insert(all.end(), gather_failures_.begin(), gather_failures_.end());
  return all;
}

bool XStreamEngine::failed(uint32_t job) const {
  auto is_job = [job](const auto& f) { return f.first == job; };
  return std::any_of(processor_.failures().begin(), processor_.failures().end(), is_job) ||
         std::any_of(gather_failures_.begin(), gather_failures_.end(), is_job);
}

void XStreamEngine::apply(uint32_t job, std::span<const std::byte> records) {
  if (failed(job)) return;
  Job& j = *jobs_[job];
  const uint64_t record = j.update_bytes();
  const uint64_t count = records.size() / record;
  // Slices of whole records, one per thread; gathers are atomic, so any order is right.
  const int slices = count >= 8192 ? threads_ : 1;
  std::string error;
#pragma omp parallel for num_threads(threads_) schedule(static, 1) if (slices > 1)
  for (int s = 0; s < slices; ++s) {
    const uint64_t a = count * s / slices, b = count * (s + 1) / slices;
    try {
      j.gather_updates(records.subspan(a * record, (b - a) * record));
    } catch (const std::exception& e) {
#pragma omp critical(graphso_gather_errors)
      if (error.empty()) error = e.what();
    }
  }
  if (!error.empty()) gather_failures_.emplace_back(job, error);
}

void XStreamEngine::gather(std::span<const uint32_t> jobs) {
  bins_.drain(jobs, readers_, [this](uint32_t job, std::span<const std::byte> records) { apply(job, records); });
}

}  // namespace graphso
