#include "engine/xstream/xstream_engine.h"

#include <omp.h>

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>

#include "base/error.h"

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

struct XStreamConfig {
  uint64_t update_bytes = 0;  // the update budget: bins, spill staging, read-back buffers, scatter pieces
  int threads = 1;
};

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

XStreamEngine::XStreamEngine(const GridGraph& graph, ReaderFactory& readers)
    : graph_(graph), xstream_(XStreamLayout::open(graph)), layout_(xstream_layout(graph, xstream_)), readers_(readers) {}

void XStreamEngine::start(std::span<Job* const> jobs, uint64_t update_bytes, int threads) {
  jobs_ = jobs;
  threads_ = std::max(1, threads);
  const XStreamConfig config{update_bytes, threads_};
  std::string spill = fmt::format("{}/xstream.updates.{}.{}", graph_.dir(), ::getpid(), static_cast<const void*>(this));
  bins_.emplace(graph_.meta(), threads_, record_sizes(jobs), bin_budget(config), spill_piece_for(update_bytes), spill);
  processor_.emplace(
      layout_, threads_, [this](uint32_t j, const EdgeRun& run) { scatter_run(j, run); },
      [this](const EdgeRun& run) { return fmt::format("{}: partition {}", layout_.files[run.file], run.partition); });
}

void XStreamEngine::scatter_run(uint32_t job, const EdgeRun& run) {
  Job& j = *jobs_[job];
  const int thread = omp_get_thread_num();  // the EdgeProcessor's threads, 0 outside its parallel regions
  std::vector<std::byte> staged;
  staged.reserve(kScatterStagingBytes);
  for (uint64_t first = 0; first < run.count; first += kScatterPieceEdges) {
    staged.clear();
    j.scatter_updates(run.piece(first, std::min(kScatterPieceEdges, run.count - first)), staged);
    bins_->add(thread, job, staged);
  }
}

std::vector<std::pair<uint32_t, std::string>> XStreamEngine::failures() const {
  std::vector<std::pair<uint32_t, std::string>> all = processor_ ? processor_->failures() : decltype(all){};
  all.insert(all.end(), gather_failures_.begin(), gather_failures_.end());
  return all;
}

bool XStreamEngine::failed(uint32_t job) const {
  auto is_job = [job](const auto& f) { return f.first == job; };
  return std::any_of(processor_->failures().begin(), processor_->failures().end(), is_job) ||
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

void XStreamEngine::finish_round(std::span<const uint32_t> jobs) {
  bins_->drain(jobs, readers_, [this](uint32_t job, std::span<const std::byte> records) { apply(job, records); });
}

}  // namespace graphso
