#include "middleware/graphso.h"

#include <omp.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <numeric>

#include "base/decoded_chunk.h"
#include "base/error.h"
#include "base/file.h"
#include "base/graph_files.h"
#include "base/progress.h"
#include "io/read_plan.h"
#include "middleware/chunk_size.h"

namespace graphso {

namespace {

// What chunk mode needs beyond the cache: the chunk records, two partition buffers of at least one
// chunk each, and (when the source index is not resident whole) a read buffer per thread. Before
// the table is read (table_known false) the read buffers are not known yet: the budget named is
// then the least, not the exact smallest.
[[noreturn]] void fail_budget(const GraphSOConfig& config, uint64_t chunk_bytes, uint64_t cache_bytes, uint64_t records,
                              uint64_t largest, uint64_t readers, uint64_t halved_need, bool table_known) {
  const double keep = 1 - config.cache_ratio;
  auto smallest = [&](uint64_t need) { return human_bytes(std::ceil(static_cast<double>(need) / keep)); };
  const uint64_t need = records + 2 * largest + readers;
  std::string advice = fmt::format("{} {} (raise --mem or --graph-mem, or lower --cache-ratio)",
                                   table_known ? "the smallest graph-data budget that works is"
                                               : "it needs a graph-data budget of at least",
                                   smallest(need));
  if (halved_need && halved_need < need)
    advice += fmt::format("; with --chunk-size {}, at least {}", human_bytes(static_cast<double>(chunk_bytes / 2)), smallest(halved_need));
  fail("the graph-data budget of {} is too small for chunk mode with {} chunks: the cache takes {}, the chunk records {}{}, "
       "and each of two partition buffers needs at least one chunk ({}); {}",
       human_bytes(static_cast<double>(config.graph_budget_bytes)), human_bytes(static_cast<double>(chunk_bytes)),
       human_bytes(static_cast<double>(cache_bytes)), human_bytes(static_cast<double>(records)),
       readers ? fmt::format(", the source-index read buffers {}", human_bytes(static_cast<double>(readers))) : std::string(),
       human_bytes(static_cast<double>(largest)), advice);
}

// The bytes a chunk takes in the cache: as read, or decoded (base/decoded_chunk.h).
uint64_t chunk_cache_bytes(const ChunkInfo& c, bool decoded, bool weighted) {
  return decoded ? decoded_chunk_bytes(c.distinct_sources, c.edges, weighted) : c.bytes;
}

uint64_t whole_cache_bytes(const TChunkTable& table, const EngineLayout& layout, bool decoded) {
  uint64_t bytes = 0;
  for (const ChunkInfo& c : table.chunks()) bytes += chunk_cache_bytes(c, decoded, layout.weighted);
  return bytes;
}

}  // namespace

std::unique_ptr<GraphSO> GraphSO::Init(const EngineLayout& layout, const GraphSOConfig& config, ReaderFactory& readers) {
  // Graph budget = chunk cache + TChunk records + resident source index (+ its read buffers) +
  // two logical-partition buffers.
  const uint64_t cache_bytes = static_cast<uint64_t>(config.cache_ratio * static_cast<double>(config.graph_budget_bytes));
  const uint64_t rest = config.graph_budget_bytes > cache_bytes ? config.graph_budget_bytes - cache_bytes : 0;
  const bool chosen = config.chunk_bytes == 0 || config.chunk_bytes == kFormulaChunkBytes;
  const ChunkSizeChoice choice = requested_chunk_size(config.chunk_bytes, GraphFiles(layout.dir),
                                                      layout.stored_bytes(), layout.vertices, config.threads);
  uint64_t chunk_bytes = choice.bytes;
  if (chosen) {
    // The directory's default or Formula (1), no larger than a quarter of what the cache leaves,
    // so that each of the two buffers holds at least two chunks (and never below a page).
    chunk_bytes = std::max<uint64_t>(kDirectAlignment, std::min(chunk_bytes, std::bit_floor(std::max<uint64_t>(rest / 4, 1))));
  }
  if (chunk_bytes < layout.edge_size()) fail("--chunk-size {} is smaller than one edge", chunk_bytes);

  // The records and the buffers' least size follow from the partitions alone, so the chunk size
  // is settled (a chosen one halved until they fit) and a budget too small refused before any
  // table is built.
  auto need = [&](const TChunkTable::Shape& s) { return s.records_bytes() + 2 * s.largest_span; };
  TChunkTable::Shape shape = TChunkTable::shape(layout, chunk_bytes);
  while (chosen && need(shape) > rest && chunk_bytes / 2 >= std::max<uint64_t>(kDirectAlignment, layout.edge_size())) {
    chunk_bytes /= 2;
    shape = TChunkTable::shape(layout, chunk_bytes);
  }
  auto halved_need = [&]() {
    return chunk_bytes / 2 >= layout.edge_size() ? need(TChunkTable::shape(layout, chunk_bytes / 2)) : 0;
  };
  if (need(shape) > rest)
    fail_budget(config, chunk_bytes, cache_bytes, shape.records_bytes(), shape.largest_span, 0, halved_need(), false);

  // The source index stays whole when it fits beside two one-chunk buffers (an index read per
  // round costs bytes; small buffers only cost requests). When it cannot, the buffers keep a
  // quarter of what follows the records, so loads stay large, and the index gets the rest, whole
  // chunks' entries first; the others are read per chunk when a round needs them, into one
  // buffer per thread.
  TChunkTable table = TChunkTable::load_or_build(layout, chunk_bytes, nullptr, 0);
  const uint64_t after_records = rest - table.records_bytes();
  uint64_t capacity = table.index_memory_bytes();
  if (capacity + 2 * shape.largest_span > after_records) {
    const uint64_t buffers_floor = std::max(2 * shape.largest_span, align_down(after_records / 4, kDirectAlignment));
    const uint64_t taken = buffers_floor + table.index_read_buffer_bytes(config.threads);
    capacity = after_records > taken ? after_records - taken : 0;
  }
  table.keep_index(capacity, config.threads);
  const uint64_t used = table.memory_bytes();
  const uint64_t partition = rest > used ? align_down((rest - used) / 2, kDirectAlignment) : 0;
  if (partition < shape.largest_span)
    fail_budget(config, chunk_bytes, cache_bytes, table.records_bytes(), shape.largest_span, used - table.records_bytes() - table.resident_index_bytes(),
                halved_need(), true);
  // A graph the budget holds stays whole: the cache grows past --cache-ratio to every chunk,
  // decoded when that fits as well (CacheForm), and the two buffers keep what is left (at least
  // a chunk each). At a quarter, a budget 1.5 times R-MAT 20's graph re-read 63% of it every
  // PageRank round (0.88 s against 0.54 s resident).
  uint64_t cache = cache_bytes, buffer = partition;
  if (config.cache_ratio > 0) {
    const uint64_t least = used + 2 * shape.largest_span;
    const uint64_t room = config.graph_budget_bytes > least ? config.graph_budget_bytes - least : 0;
    for (const bool decoded : {true, false}) {
      if (layout.packed() && (decoded ? config.cache_form == CacheForm::Packed : config.cache_form == CacheForm::Decoded))
        continue;
      const uint64_t whole = whole_cache_bytes(table, layout, decoded && layout.packed());
      if (whole <= cache) break;
      if (whole > room) continue;
      const uint64_t left = align_down((config.graph_budget_bytes - used - whole) / 2, kDirectAlignment);
      if (left >= shape.largest_span) {
        cache = whole;
        buffer = std::min(partition, left);
        break;
      }
    }
  }
  std::unique_ptr<GraphSO> graphso = finish_init(layout, config, readers, std::move(table), buffer, cache);
  graphso->chunk_size_basis_ = choice.basis;
  if (chunk_bytes != choice.bytes)
    graphso->chunk_size_basis_ +=
        fmt::format("; lowered from {} to fit the graph-data budget", human_bytes(static_cast<double>(choice.bytes)));
  return graphso;
}

std::unique_ptr<GraphSO> GraphSO::finish_init(const EngineLayout& layout, const GraphSOConfig& config,
                                              ReaderFactory& readers, TChunkTable table, uint64_t partition,
                                              uint64_t cache_bytes) {
  // No point in partitions larger than the graph, nor (beyond a few chunks) larger than
  // kLogicalPartitionBytes.
  partition = std::min(partition, align_up(layout.stored_bytes(), kDirectAlignment) + 2 * kDirectAlignment);
  partition = std::min(partition, std::max(kLogicalPartitionBytes, 4 * (table.chunk_bytes() + 2 * kDirectAlignment)));
  // A packed chunk is read whole: its pages are not located per source (docs/formats.md).
  const Granularity granularity = layout.packed() ? Granularity::Chunk : config.granularity;
  std::unique_ptr<GraphSO> graphso(
      new GraphSO(layout, std::move(table), partition, cache_bytes, readers, config.threads, granularity));
  graphso->pass_order_ = config.pass_order;
  graphso->extent_bytes_ = config.extent_bytes;
  if (layout.packed() && config.cache_form != CacheForm::Packed)
    graphso->decoded_ = config.cache_form == CacheForm::Decoded || whole_cache_bytes(graphso->table_, layout, true) <= cache_bytes;
  if (graphso->decoded_) graphso->decode_scratch_.resize(std::max(1, config.threads));
  if (granularity != Granularity::Chunk) {
    // The cost model, measured on the graph's own file with the run's reader, in the buffer the
    // first logical partition will use (no memory beyond the budget). Its reads are not counted
    // as the run's.
    uint64_t largest_file = 0;
    uint32_t file = 0;
    for (uint32_t f = 0; f < layout.files.size(); ++f) {
      uint64_t size = File(layout.files[f], File::Mode::Read).size();
      if (size > largest_file) largest_file = size, file = f;
    }
    std::unique_ptr<ChunkReader> probe = readers.open(layout.files[file]);
    graphso->device_ = measure_device(*probe, largest_file, graphso->buffers_.scratch(), partition);
  }
  return graphso;
}

GraphSO::GraphSO(const EngineLayout& layout, TChunkTable table, uint64_t partition_bytes, uint64_t cache_bytes,
                 ReaderFactory& readers, int threads, Granularity granularity)
    : layout_(layout), table_(std::move(table)), partition_bytes_(partition_bytes), cache_(cache_bytes),
      threads_(threads), granularity_(granularity), buffers_(readers, layout_.files, partition_bytes) {}

GraphSO::~GraphSO() = default;  // the DoubleBuffer lets a read in flight land before its buffer goes

GraphSOStats GraphSO::stats() const {
  GraphSOStats s = counts_;
  s.io = buffers_.io_stats();
  // Source-index entries read on demand are graph metadata read from the device: counted in.
  s.index_bytes_read = table_.index_bytes_read();
  s.io.bytes_read += s.index_bytes_read;
  s.io.requests += table_.index_reads();
  s.cache = cache_.stats();
  return s;
}

ActiveChunks GraphSO::GetActiveChunks(std::span<const JobFrontier> jobs, const Bitmap* accounting) {
  buffers_.abandon();  // a new round abandons whatever the last one left
  in_flight_.reset();
  last_served_.reset();
  round_ = nullptr;
  counted_ = accounting != nullptr;
  ActiveChunks active = get_active_chunks(table_, jobs, threads_, accounting, layout_.partition_views);
  choose_granularity(table_, jobs, layout_.edge_size(), granularity_, device(), active, threads_);
  std::vector<std::pair<uint32_t, double>> priorities;
  for (const ChunkDemand& d : active.chunks) priorities.emplace_back(d.chunk, d.priority);
  cache_.refresh(priorities);
  return active;
}

EdgeRun GraphSO::whole_chunk(const ChunkDemand& demand, const std::byte* data) const {
  const ChunkInfo& c = table_.chunk(demand.chunk);
  EdgeRun run{data, c.edges, layout_.weighted, c.partition, c.file, c.first_edge, demand.jobs, demand.active_edges, {}};
  run.counted_active = demand.accounted_edges;
  run.packed = layout_.packed();
  run.packed_bytes = run.packed ? c.bytes : 0;
  return run;
}

const char* GraphSO::cache_form() const {
  return decoded_ ? cache_form_name(CacheForm::Decoded) : layout_.packed() ? cache_form_name(CacheForm::Packed) : "records";
}

uint64_t GraphSO::cached_bytes(uint32_t chunk) const { return chunk_cache_bytes(table_.chunk(chunk), decoded_, layout_.weighted); }

uint64_t GraphSO::whole_graph_cache_bytes() const { return whole_cache_bytes(table_, layout_, decoded_); }

EdgeRun GraphSO::cached_chunk(const ChunkDemand& demand, const std::byte* entry) const {
  if (!decoded_) return whole_chunk(demand, entry);
  EdgeRun run = whole_chunk(demand, nullptr);
  run.packed = false;
  run.packed_bytes = 0;
  run.groups = decoded_chunk_groups(entry, layout_.weighted);
  return run;
}

void GraphSO::start(size_t lp, const ActiveChunks& active) {
  const uint32_t edge_size = layout_.edge_size();
  // One range per whole chunk, or per page run of a chunk read by pages.
  std::vector<FileRange> ranges;
  Load load{lp, {}};
  for (uint32_t d : plan_[lp].demands) {
    const ChunkDemand& demand = active.chunks[d];
    const ChunkInfo& c = table_.chunk(demand.chunk);
    if (demand.page_runs.empty()) {
      ranges.push_back({c.file, c.offset, c.bytes});
      load.runs.push_back(whole_chunk(demand, nullptr));
      counts_.bytes_requested += c.bytes;
      counts_.whole_bytes += aligned_span(ranges.back());
      continue;
    }
    for (const EdgeSpan& r : demand.page_runs) {
      ranges.push_back({c.file, c.offset + r.first * edge_size, r.count * edge_size});
      EdgeRun run = whole_chunk(demand, nullptr).piece(r.first, r.count);
      // Every active source's edges are in the pages read: the first run carries the count.
      if (run.counted_active != EdgeRun::kUncounted) run.counted_active = &r == &demand.page_runs.front() ? demand.accounted_edges : 0;
      load.runs.push_back(run);
      counts_.bytes_requested += r.count * edge_size;
    }
    ++counts_.chunks_by_pages;
    counts_.page_bytes += demand.page_bytes;
    counts_.page_requests += demand.page_runs.size();
  }
  if (buffers_.start(ranges) != ranges.size()) fail("logical partition {} does not fit its buffer", lp);
  counts_.chunks_loaded += plan_[lp].demands.size();
  in_flight_ = std::move(load);
}

namespace {

// Calls f(demand, run) for each chunk of lp read whole, with its run in the load's runs (start()
// gives a chunk read by pages one run per page run).
template <typename F>
void for_each_whole_chunk(const LogicalPartition& lp, const ActiveChunks& active, std::vector<EdgeRun>& runs, F&& f) {
  size_t run = 0;
  for (uint32_t d : lp.demands) {
    const ChunkDemand& demand = active.chunks[d];
    if (demand.page_runs.empty()) f(demand, runs[run]);
    run += demand.page_runs.empty() ? 1 : demand.page_runs.size();
  }
}

}  // namespace

// Offers lp's chunks read whole to the cache in load order (each admission may evict, even a
// chunk of the same load admitted just before); the ones it kept, with their entries to fill.
std::vector<GraphSO::Admitted> GraphSO::admit(size_t lp, const ActiveChunks& active, std::vector<EdgeRun>& runs) {
  std::vector<Admitted> admitted;
  admitted.reserve(plan_[lp].demands.size());  // no allocation between an admission and its copy
  for_each_whole_chunk(plan_[lp], active, runs, [&](const ChunkDemand& demand, EdgeRun& run) {
    if (std::byte* entry = cache_.admit(demand.chunk, cached_bytes(demand.chunk), demand.priority))
      admitted.push_back({demand.chunk, entry, &run});
  });
  // A later admission may have evicted an earlier one (freeing its memory): only the chunks still
  // cached are filled. A load holds a chunk once, so a cached one's entry is the one admitted here.
  std::erase_if(admitted, [&](const Admitted& a) { return !cache_.contains(a.chunk); });
  return admitted;
}

void GraphSO::offer_served(const ActiveChunks& active) {
  if (!last_served_) return;
  // A chunk read by pages is not offered: only part of it was read. The copies, into memory the
  // kernel has not faulted in yet, go on every thread: on one they were a quarter of a cold BFS
  // round, the other thread idle.
  const std::vector<Admitted> admitted = admit(last_served_->lp, active, last_served_->runs);
  const int64_t count = static_cast<int64_t>(admitted.size());
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 1) if (count > 1)
  for (int64_t k = 0; k < count; ++k)
    std::memcpy(admitted[k].to, admitted[k].run->data, table_.chunk(admitted[k].chunk).bytes);
  last_served_.reset();
}

// The decoded form is made before the engine sees the load, so a chunk is decoded once, here, on
// every thread; the engine then walks the cache's groups as it will in later rounds. Nothing is
// admitted again before the next Schedule() call, so the entries outlive the load's processing.
void GraphSO::admit_decoded(size_t lp, const ActiveChunks& active, std::vector<EdgeRun>& runs) {
  const std::vector<Admitted> admitted = admit(lp, active, runs);
  const int64_t count = static_cast<int64_t>(admitted.size());
  std::string error;
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 1) if (count > 1)
  for (int64_t k = 0; k < count; ++k) {
    // Decoded whole, a chunk has a group per distinct source (the table's count) and its edges.
    DecodedGroups& scratch = decode_scratch_[omp_get_thread_num()];
    const ChunkInfo& c = table_.chunk(admitted[k].chunk);
    EdgeRun& run = *admitted[k].run;
    PackedPageProblem problem;
    std::string wrong;
    if (decode_packed_groups({run.data, run.packed_bytes}, layout_.weighted, scratch, &problem) < 0)
      wrong = fmt::format("page {} is malformed: {}", problem.page, problem.what);
    else if (scratch.groups != c.distinct_sources || scratch.edges != c.edges)
      wrong = fmt::format("it decodes to {} sources and {} edges where the TChunk table has {} and {}", scratch.groups,
                          scratch.edges, c.distinct_sources, c.edges);
    if (wrong.empty()) {
      write_decoded_chunk(scratch, layout_.weighted, admitted[k].to);
      continue;
    }
#pragma omp critical(graphso_cache_errors)
    if (error.empty())
      error = fmt::format("chunk {} of {}: {} (corrupt graph file; `graphso inspect --verify` checks every block)",
                          admitted[k].chunk, layout_.files[c.file], wrong);
  }
  if (!error.empty()) throw Error(error);
  // The engine range-checks these runs as it would the pages (they came from the device).
  for (const Admitted& a : admitted) {
    a.run->data = nullptr;
    a.run->packed = false;
    a.run->packed_bytes = 0;
    a.run->groups = decoded_chunk_groups(a.to, layout_.weighted);
  }
}

void GraphSO::start_next(const ActiveChunks& active) {
  // A partition served from the cache reads nothing (after Follow one can come after device ones).
  if (next_ < plan_.size() && !plan_[next_].from_cache) start(next_, active);
}

std::vector<LogicalPartition> GraphSO::plan_demands(const ActiveChunks& active, std::vector<uint32_t> demands) const {
  return plan_logical_partitions(active, std::move(demands), table_, cache_, partition_bytes_, pass_order_, extent_bytes_,
                                 layout_.partitions, threads_);
}

void GraphSO::append_plan(std::vector<LogicalPartition> plan) {
  for (LogicalPartition& lp : plan) {
    for (uint32_t d : lp.demands) {
      if (d >= lp_of_.size()) lp_of_.resize(d + 1);
      lp_of_[d] = plan_.size();
    }
    plan_.push_back(std::move(lp));
  }
}

std::optional<LoadedPartition> GraphSO::Schedule(const ActiveChunks& active) {
  if (round_ != &active) {
    round_ = &active;
    plan_.clear();
    lp_of_.assign(active.chunks.size(), 0);
    std::vector<uint32_t> every(active.chunks.size());
    std::iota(every.begin(), every.end(), 0u);
    append_plan(plan_demands(active, std::move(every)));
    next_ = 0;
    if (late_) late_->begin_pass(active);
  }
  // The partition handed out last time has been processed: offer its chunks to the cache
  // before its buffer is reused.
  offer_served(active);
  if (next_ == plan_.size()) return std::nullopt;

  const size_t lp_index = next_++;
  ++counts_.logical_partitions;
  LoadedPartition loaded;
  if (plan_[lp_index].from_cache) {
    // A chunk planned from the cache after the round began (Follow) may have been evicted since by
    // a later offer: it is read from the device at the end of the pass instead.
    std::vector<uint32_t> evicted;
    for (uint32_t d : plan_[lp_index].demands) {
      if (!cache_.contains(active.chunks[d].chunk)) {  // not a lookup: the device read counts the miss
        if (lp_index == 0) fail("chunk {} left the cache while scheduled", active.chunks[d].chunk);
        evicted.push_back(d);
        continue;
      }
      loaded.runs.push_back(cached_chunk(active.chunks[d], cache_.lookup(active.chunks[d].chunk)));
      loaded.runs.back().checked = true;  // range-checked when it was read, before the cache took it
    }
    if (!evicted.empty()) append_plan(plan_demands(active, std::move(evicted)));
    // Start reading the next device partition now, so it overlaps the cached chunks' processing.
    if (!in_flight_) start_next(active);
    loaded.from_cache = true;
    return loaded;
  }
  if (!in_flight_) start(lp_index, active);
  Load load = std::move(*in_flight_);
  in_flight_.reset();
  std::vector<const std::byte*> data = buffers_.finish();
  for (size_t k = 0; k < load.runs.size(); ++k) load.runs[k].data = data[k];
  cache_.count_misses(plan_[lp_index].demands.size());
  start_next(active);  // into the other buffer: the next read overlaps the decode below
  if (decoded_) admit_decoded(lp_index, active, load.runs);
  loaded.runs = load.runs;
  if (!decoded_) last_served_ = std::move(load);
  return loaded;
}

uint64_t GraphSO::Follow(ActiveChunks& active, std::span<const JobChanges> changes) {
  if (round_ != &active || changes.empty()) return 0;
  if (!late_) {
    late_ = std::make_unique<LateJoin>(table_, layout_);
    late_->begin_pass(active);
  }
  // What was handed out last is processed: the cache takes it now, so the re-plan below sees the
  // cache as the next partitions will find it.
  offer_served(active);
  // A job may join a chunk whose partition is not served yet (the one being read included: its
  // runs are re-pointed below), and not one read by pages: its pages hold other sources' edges.
  auto open = [&](uint32_t d) { return (d >= lp_of_.size() || lp_of_[d] >= next_) && active.chunks[d].page_runs.empty(); };
  LateJoin::Joined joined = late_->follow(active, changes, open, counted_);
  if (joined.grown.empty()) return 0;

  // Everything not started yet is planned again, with the new chunks, in the pass's order.
  const size_t started = next_ + (in_flight_ ? 1 : 0);
  std::vector<uint32_t> rest;
  for (size_t lp = started; lp < plan_.size(); ++lp)
    rest.insert(rest.end(), plan_[lp].demands.begin(), plan_[lp].demands.end());
  for (uint32_t d : joined.grown)
    if (d >= lp_of_.size()) rest.push_back(d);
  plan_.resize(started);
  append_plan(plan_demands(active, std::move(rest)));
  // The partition being read made its runs from its demands' job lists before they grew.
  if (in_flight_)
    for_each_whole_chunk(plan_[in_flight_->lp], active, in_flight_->runs, [](const ChunkDemand& demand, EdgeRun& run) {
      run.jobs = demand.jobs;
      run.active_edges = demand.active_edges;
    });
  counts_.late_chunks += joined.new_chunks;
  return joined.new_chunks;
}

Adjacency GraphSO::adjacency(std::span<const uint32_t> out_degrees) const {
  if (!caches_every_chunk()) fail("internal: the adjacency is built from a cache holding every chunk");
  Adjacency adjacency(out_degrees, layout_.weighted);
  const std::vector<uint32_t> chunks = cache_.cached_chunks();
  const int64_t count = static_cast<int64_t>(chunks.size());
  const bool packed = layout_.packed() && !decoded_;
  std::vector<DecodedGroups> scratch(packed ? static_cast<size_t>(threads_) : 0);
  std::string error;
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 1)
  for (int64_t k = 0; k < count; ++k) {
    const uint32_t chunk = chunks[static_cast<size_t>(k)];
    const ChunkInfo& c = table_.chunk(chunk);
    const std::byte* entry = cache_.peek(chunk);
    EdgeRun run{entry, c.edges, layout_.weighted, c.partition, c.file, c.first_edge, {}, {}, {}};
    std::string wrong;
    if (decoded_) {
      run.data = nullptr;
      run.groups = decoded_chunk_groups(entry, layout_.weighted);
    } else if (packed) {
      // Checked when it was read; decoded here once, into this thread's scratch.
      DecodedGroups& groups = scratch[static_cast<size_t>(omp_get_thread_num())];
      PackedPageProblem problem;
      if (decode_packed_groups({entry, c.bytes}, layout_.weighted, groups, &problem) < 0)
        wrong = fmt::format("page {} is malformed: {}", problem.page, problem.what);
      run.data = nullptr;
      run.groups = groups.view();
    }
    if (wrong.empty()) wrong = adjacency.add(run);
    if (!wrong.empty()) {
#pragma omp critical(graphso_adjacency_errors)
      if (error.empty()) error = fmt::format("chunk {}: {}", chunk, wrong);
    }
  }
  if (!error.empty()) fail("the graph in memory: {} (corrupt graph directory)", error);
  adjacency.finish();
  return adjacency;
}

}  // namespace graphso
