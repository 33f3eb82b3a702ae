#include "engine/xstream/xstream_engine.h"

#include <omp.h>

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>

#include "base/error.h"

namespace graphso {
namespace {

// A scatter call writes at most kPieceRecords records, so its staging stays small and inside the
// update budget: it covers kScatterPieceEdges edges of a job that writes up to two records an
// edge, fewer of one that writes more (a group's lanes in passes, Job::updates_per_edge), whose
// pieces end where a source does when that is within as many edges again, so that a source's
// pushes are whole there (jobs/lane_passes.h), and so at most twice as many records.
constexpr uint64_t kScatterPieceEdges = 256;
constexpr uint64_t kPieceRecords = 2 * kScatterPieceEdges;
// A thread's scatter staging: twice a piece's records of the batch's largest (a vertex id and an
// 8-byte value, or a group's lanes: jobs/job_group.h).
uint64_t scatter_staging_bytes(std::span<const uint32_t> record_bytes) {
  const uint64_t largest = record_bytes.empty() ? 0 : *std::max_element(record_bytes.begin(), record_bytes.end());
  return 2 * kPieceRecords * std::max<uint64_t>(largest, 12);
}

// A piece of `edges` edges from `first` on, ended at the next source boundary when that is at most
// as many edges further.
uint64_t to_source_end(const EdgeRun& run, uint64_t first, uint64_t edges) {
  const uint64_t end = first + edges;
  if (end >= run.count) return run.count - first;
  if (run.grouped()) {  // a group per source: the first group boundary at or after the end
    const SourceGroups& g = run.groups;
    const uint32_t* offsets_end = g.offsets + g.groups + 1;
    const uint32_t* at = std::lower_bound(g.offsets, offsets_end, g.begin + end);
    const uint64_t boundary = at == offsets_end ? g.end : std::min<uint64_t>(*at, g.end);
    return boundary - g.begin - first <= 2 * edges ? boundary - g.begin - first : edges;
  }
  auto source = [&](uint64_t k) {
    return run.weighted ? reinterpret_cast<const WeightedEdge*>(run.data)[k].src : reinterpret_cast<const Edge*>(run.data)[k].src;
  };
  uint64_t stop = end;
  while (stop < run.count && stop < first + 2 * edges && source(stop) == source(end - 1)) ++stop;
  return stop < run.count && source(stop) == source(end - 1) ? edges : stop - first;
}

// A spilled piece is read back through a LoadStreamer, whose buffers (a piece and two pages of
// slack) must hold four pages: two pages is the least piece.
constexpr uint64_t kLeastSpillPiece = 2 * kDirectAlignment;

uint64_t spill_piece_for(uint64_t update_bytes) {
  return align_down(std::clamp<uint64_t>(update_bytes / 16, kLeastSpillPiece, 1 << 20), kDirectAlignment);
}

// The spill staging, the two read-back buffers and every thread's scatter staging.
uint64_t fixed_update_bytes(uint64_t piece, int threads, std::span<const uint32_t> record_bytes) {
  return piece + 2 * (piece + 2 * kDirectAlignment) + uint64_t(std::max(1, threads)) * scatter_staging_bytes(record_bytes);
}

// The least the bins need: a scatter piece per thread, or one record per thread per bin.
uint64_t least_bin_bytes(int threads, std::span<const uint32_t> record_bytes, uint32_t partitions) {
  uint64_t one_each = 0;
  for (uint32_t r : record_bytes) one_each += uint64_t{r} * partitions;
  return uint64_t(std::max(1, threads)) * std::max(scatter_staging_bytes(record_bytes), one_each);
}

std::vector<uint32_t> record_sizes(std::span<Job* const> jobs) {
  std::vector<uint32_t> sizes;
  for (Job* job : jobs) sizes.push_back(job->update_bytes());
  return sizes;
}

// The bins get what the update budget leaves after the spill staging, the two read-back
// buffers and every thread's scatter staging.
uint64_t bin_budget(uint64_t update_bytes, int threads, std::span<const uint32_t> record_bytes, uint32_t partitions) {
  const uint64_t least = XStreamEngine::min_update_bytes(threads, record_bytes, partitions);
  if (update_bytes < least)
    fail("an update budget of {} bytes is too small for {} threads (need at least {})", update_bytes, threads, least);
  return update_bytes - fixed_update_bytes(spill_piece_for(update_bytes), threads, record_bytes);
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
  const std::vector<uint32_t> records = record_sizes(jobs);
  scratch_.emplace(scratch_parent_.empty() ? default_scratch_parent() : scratch_parent_);
  const std::string spill = scratch_->path() + "/xstream.updates";
  UpdateBins::Apply overflow;
  if (update_overflow_ == UpdateOverflow::Apply)
    overflow = [this](uint32_t job, std::span<const std::byte> records) { apply(job, records); };
  bins_.emplace(graph_.meta(), threads_, records, bin_budget(update_bytes, threads_, records, graph_.meta().partitions),
                spill_piece_for(update_bytes), spill, readers_.options().verify_reads, std::move(overflow));
  processor_.emplace(
      layout_, threads_, [this](uint32_t j, const EdgeRun& run) { scatter_run(j, run); },
      [this](const EdgeRun& run) { return fmt::format("{}: partition {}", layout_.files[run.file], run.partition); },
      decode_.bytes, page_filter(jobs, decode_));
}

uint64_t XStreamEngine::min_update_bytes(int threads, std::span<const uint32_t> record_bytes, uint32_t partitions) {
  // The pieces are the least at the least budget (spill_piece_for of a small budget).
  const uint64_t fixed = fixed_update_bytes(kLeastSpillPiece, threads, record_bytes);
  // A larger budget has larger pieces, but it has the bytes for them (a piece is 1/16 of it).
  return fixed + least_bin_bytes(threads, record_bytes, partitions);
}

uint64_t XStreamEngine::min_update_bytes(int threads, std::span<Job* const> jobs) const {
  return min_update_bytes(threads, record_sizes(jobs), graph_.meta().partitions);
}

void XStreamEngine::scatter_run(uint32_t job, const EdgeRun& run) {
  Job& j = *jobs_[job];
  const int thread = omp_get_thread_num();  // the EdgeProcessor's threads, 0 outside its parallel regions
  std::vector<std::byte> staged;
  staged.reserve(2 * kPieceRecords * j.update_bytes());
  const uint32_t per_edge = j.updates_per_edge();
  const uint64_t edges = per_edge <= 2 ? kScatterPieceEdges : std::max<uint64_t>(1, kPieceRecords / per_edge);
  for (uint64_t first = 0; first < run.count;) {
    const uint64_t count = per_edge <= 2 ? std::min(edges, run.count - first) : to_source_end(run, first, edges);
    staged.clear();
    j.scatter_updates(run.piece(first, count), staged);
    bins_->add(thread, job, staged);
    first += count;
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
