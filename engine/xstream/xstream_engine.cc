#include "engine/xstream/xstream_engine.h"

#include <omp.h>

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>

#include "base/error.h"

namespace graphso {
namespace {

// A scatter call covers at most this many edges, so its staging stays small and inside the update
// budget.
constexpr uint64_t kScatterPieceEdges = 256;
// A thread's scatter staging: what the batch's largest writes for a piece. per_edge: per job, its
// record (a vertex id and a value, or a group's lanes) times the most it writes an edge
// (Job::updates_per_edge: two for an edge used both ways, a record per lane for a group in passes).
uint64_t scatter_staging_bytes(std::span<const uint32_t> per_edge) {
  const uint64_t largest = per_edge.empty() ? 0 : *std::max_element(per_edge.begin(), per_edge.end());
  return kScatterPieceEdges * std::max<uint64_t>(largest, 24);
}

// A spilled piece is read back through a LoadStreamer, whose buffers (a piece and two pages of
// slack) must hold four pages: two pages is the least piece.
constexpr uint64_t kLeastSpillPiece = 2 * kDirectAlignment;

uint64_t spill_piece_for(uint64_t update_bytes) {
  return align_down(std::clamp<uint64_t>(update_bytes / 16, kLeastSpillPiece, 1 << 20), kDirectAlignment);
}

// The spill staging, the two read-back buffers and every thread's scatter staging.
uint64_t fixed_update_bytes(uint64_t piece, int threads, std::span<const uint32_t> per_edge) {
  return piece + 2 * (piece + 2 * kDirectAlignment) + uint64_t(std::max(1, threads)) * scatter_staging_bytes(per_edge);
}

// The least the bins need: a scatter piece per thread, or one record per thread per bin.
uint64_t least_bin_bytes(int threads, const UpdateShapes& shapes, uint32_t partitions) {
  uint64_t one_each = 0;
  for (uint32_t r : shapes.record_bytes) one_each += uint64_t{r} * partitions;
  return uint64_t(std::max(1, threads)) * std::max(scatter_staging_bytes(shapes.per_edge_bytes), one_each);
}

UpdateShapes shapes_of(std::span<Job* const> jobs) {
  UpdateShapes shapes;
  for (Job* job : jobs) {
    shapes.record_bytes.push_back(job->update_bytes());
    shapes.per_edge_bytes.push_back(job->update_bytes() * job->updates_per_edge());
  }
  return shapes;
}

// The bins get what the update budget leaves after the spill staging, the two read-back
// buffers and every thread's scatter staging.
uint64_t bin_budget(uint64_t update_bytes, int threads, const UpdateShapes& shapes, uint32_t partitions) {
  const uint64_t least = XStreamEngine::min_update_bytes(threads, shapes, partitions);
  if (update_bytes < least)
    fail("an update budget of {} bytes is too small for {} threads (need at least {})", update_bytes, threads, least);
  return update_bytes - fixed_update_bytes(spill_piece_for(update_bytes), threads, shapes.per_edge_bytes);
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
  out.encoding = m.encoding;
  out.identity = layout.identity();
  out.out_degrees = &graph.out_degrees();
  for (uint32_t k = 0; k < layout.partitions(); ++k)
    out.partitions.push_back({k, 0, layout.edges(k), static_cast<VertexId>(m.range_begin(k)),
                              static_cast<VertexId>(m.range_end(k)), 0, static_cast<VertexId>(m.vertices), layout.bytes(k)});
  return out;
}

XStreamEngine::XStreamEngine(const GridGraph& graph, ReaderFactory& readers)
    : XStreamEngine(graph, xstream_layout(graph, XStreamLayout::open(graph)), readers) {}

XStreamEngine::XStreamEngine(const GridGraph& graph, EngineLayout layout, ReaderFactory& readers)
    : graph_(graph), layout_(std::move(layout)), readers_(readers) {}

void XStreamEngine::start(std::span<Job* const> jobs, uint64_t update_bytes, int threads) {
  jobs_ = jobs;
  threads_ = std::max(1, threads);
  const UpdateShapes shapes = shapes_of(jobs);
  scratch_.emplace(scratch_parent_.empty() ? default_scratch_parent() : scratch_parent_);
  const std::string spill = scratch_->path() + "/xstream.updates";
  UpdateBins::Apply overflow;
  if (update_overflow_ == UpdateOverflow::Apply)
    overflow = [this](uint32_t job, std::span<const std::byte> records) { apply(job, records); };
  bins_.emplace(graph_.meta(), threads_, shapes.record_bytes, bin_budget(update_bytes, threads_, shapes, graph_.meta().partitions),
                spill_piece_for(update_bytes), spill, readers_.options().verify_reads, std::move(overflow));
  processor_.emplace(
      layout_, threads_, [this](uint32_t j, const EdgeRun& run) { scatter_run(j, run); },
      [this](const EdgeRun& run) { return fmt::format("{}: partition {}", layout_.files[run.file], run.partition); },
      decode_.bytes, page_filter(jobs, decode_));
}

uint64_t XStreamEngine::min_update_bytes(int threads, const UpdateShapes& shapes, uint32_t partitions) {
  // The pieces are the least at the least budget (spill_piece_for of a small budget).
  const uint64_t fixed = fixed_update_bytes(kLeastSpillPiece, threads, shapes.per_edge_bytes);
  // A larger budget has larger pieces, but it has the bytes for them (a piece is 1/16 of it).
  return fixed + least_bin_bytes(threads, shapes, partitions);
}

uint64_t XStreamEngine::min_update_bytes(int threads, std::span<Job* const> jobs) const {
  return min_update_bytes(threads, shapes_of(jobs), graph_.meta().partitions);
}

void XStreamEngine::scatter_run(uint32_t job, const EdgeRun& run) {
  Job& j = *jobs_[job];
  const int thread = omp_get_thread_num();  // the EdgeProcessor's threads, 0 outside its parallel regions
  std::vector<std::byte> staged;
  staged.reserve(kScatterPieceEdges * j.update_bytes() * j.updates_per_edge());
  for (uint64_t first = 0; first < run.count; first += kScatterPieceEdges) {
    staged.clear();
    j.scatter_updates(run.piece(first, std::min(kScatterPieceEdges, run.count - first)), staged);
    bins_->add(thread, job, staged);
  }
}

std::vector<std::pair<uint32_t, std::string>> XStreamEngine::failures() const {
  std::vector<std::pair<uint32_t, std::string>> all = processor_ ? processor_->failures() : decltype(all){};
  std::lock_guard lock(failures_mutex_);
  all.insert(all.end(), gather_failures_.begin(), gather_failures_.end());
  return all;
}

bool XStreamEngine::failed(uint32_t job) const {
  auto is_job = [job](const auto& f) { return f.first == job; };
  if (std::any_of(processor_->failures().begin(), processor_->failures().end(), is_job)) return true;
  std::lock_guard lock(failures_mutex_);
  return std::any_of(gather_failures_.begin(), gather_failures_.end(), is_job);
}

// At the gather, or from the scatter thread whose bins are full (UpdateOverflow::Apply), beside
// the other scatter threads: there in one slice, its thread's own.
void XStreamEngine::apply(uint32_t job, std::span<const std::byte> records) {
  if (failed(job)) return;
  Job& j = *jobs_[job];
  const uint64_t record = j.update_bytes();
  const uint64_t count = records.size() / record;
  // Slices of whole records, one per thread; gathers are atomic, so any order is right.
  const int slices = count >= 8192 && !omp_in_parallel() ? threads_ : 1;
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
  if (!error.empty()) {
    std::lock_guard lock(failures_mutex_);
    gather_failures_.emplace_back(job, error);
  }
}

void XStreamEngine::process(std::span<const EdgeRun> runs) {
  processor_->process(runs);
  std::vector<uint32_t> async;
  for (const EdgeRun& run : runs)
    for (uint32_t j : run.jobs)
      if (jobs_[j]->async() && std::find(async.begin(), async.end(), j) == async.end()) async.push_back(j);
  if (!async.empty()) finish_round(async);
}

void XStreamEngine::finish_round(std::span<const uint32_t> jobs) {
  bins_->drain(jobs, readers_, [this](uint32_t job, std::span<const std::byte> records) { apply(job, records); });
}

}  // namespace graphso
