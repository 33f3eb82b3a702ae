#include "middleware/graphso.h"

#include <bit>

#include "engine/common/error.h"
#include "engine/common/file.h"
#include "engine/common/progress.h"
#include "middleware/io/read_plan.h"

namespace graphso {

std::unique_ptr<GraphSO> GraphSO::Init(const EngineLayout& layout, const GraphSOConfig& config, ReaderFactory& readers) {
  uint64_t chunk_bytes = config.chunk_bytes;
  if (chunk_bytes == 0) {
    // Formula (1), and no larger than a quarter of what the budget leaves for partition buffers,
    // so that each of the two buffers holds at least two chunks.
    chunk_bytes = default_chunk_bytes(layout.edges * layout.edge_size(), layout.vertices, config.threads);
    uint64_t buffers = static_cast<uint64_t>((1 - config.cache_ratio) * static_cast<double>(config.graph_budget_bytes));
    chunk_bytes = std::max<uint64_t>(64 << 10, std::min(chunk_bytes, std::bit_floor(std::max<uint64_t>(buffers / 4, 1))));
  }
  if (chunk_bytes < layout.edge_size()) fail("--chunk-size {} is smaller than one edge", chunk_bytes);
  TChunkTable table = TChunkTable::load_or_build(layout, chunk_bytes);

  // Graph budget = chunk cache + TChunk table + two logical-partition buffers.
  uint64_t cache_bytes = static_cast<uint64_t>(config.cache_ratio * static_cast<double>(config.graph_budget_bytes));
  uint64_t table_bytes = table.memory_bytes();
  uint64_t largest = 0;
  for (const ChunkInfo& c : table.chunks()) largest = std::max(largest, aligned_span({c.file, c.offset, c.bytes}));
  uint64_t rest = config.graph_budget_bytes > cache_bytes + table_bytes ? config.graph_budget_bytes - cache_bytes - table_bytes : 0;
  uint64_t partition = align_down(rest / 2, kDirectAlignment);
  if (partition < largest)
    fail("the graph-data budget of {} is too small for chunk mode: the TChunk table takes {}, the cache {}, "
         "and each of two partition buffers needs at least {} (one {} chunk); raise --mem or lower --chunk-size",
         human_bytes(static_cast<double>(config.graph_budget_bytes)), human_bytes(static_cast<double>(table_bytes)),
         human_bytes(static_cast<double>(cache_bytes)), human_bytes(static_cast<double>(largest)),
         human_bytes(static_cast<double>(chunk_bytes)));
  // No point in partitions larger than the graph.
  partition = std::min(partition, align_up(layout.edges * layout.edge_size(), kDirectAlignment) + 2 * kDirectAlignment);
  return std::unique_ptr<GraphSO>(new GraphSO(layout, std::move(table), partition, cache_bytes, readers, config.threads));
}

GraphSO::GraphSO(const EngineLayout& layout, TChunkTable table, uint64_t partition_bytes, uint64_t cache_bytes,
                 ReaderFactory& readers, int threads)
    : layout_(layout), table_(std::move(table)), partition_bytes_(partition_bytes), cache_(cache_bytes),
      readers_(readers), threads_(threads) {
  file_readers_.resize(layout_.files.size());
}

GraphSO::~GraphSO() {
  // An error may leave a read in flight; it must land before its buffer is freed.
  if (in_flight_) {
    try {
      wait_in_flight();
    } catch (...) {
    }
  }
}

const char* GraphSO::backend() const {
  for (const auto& r : file_readers_)
    if (r) return r->backend();
  return "none";
}

GraphSOStats GraphSO::stats() const {
  GraphSOStats s;
  s.logical_partitions = logical_partitions_;
  s.chunks_loaded = chunks_loaded_;
  s.bytes_requested = bytes_requested_;
  for (const auto& r : file_readers_)
    if (r) s.io += r->stats();
  s.cache = cache_.stats();
  return s;
}

ActiveChunks GraphSO::GetActiveChunks(std::span<const JobActivity> jobs) {
  if (in_flight_) wait_in_flight();  // a new round abandons whatever the last one left
  last_served_.reset();
  round_ = nullptr;
  ActiveChunks active = get_active_chunks(table_, jobs, threads_);
  std::vector<std::pair<uint32_t, double>> priorities;
  for (const ChunkDemand& d : active.chunks) priorities.emplace_back(d.chunk, d.priority);
  cache_.refresh(priorities);
  return active;
}

void GraphSO::submit(size_t lp, int slot, const ActiveChunks& active) {
  if (!buffers_[slot].data()) buffers_[slot] = AlignedBuffer(partition_bytes_);
  std::vector<FileRange> ranges;
  for (uint32_t d : plan_[lp].demands) {
    const ChunkInfo& c = table_.chunk(active.chunks[d].chunk);
    ranges.push_back({c.file, c.offset, c.bytes});
    bytes_requested_ += c.bytes;
  }
  ReadPlan reads = plan_reads(ranges, buffers_[slot].data(), partition_bytes_);
  if (reads.placed != ranges.size()) fail("logical partition {} does not fit its buffer", lp);
  InFlight flight{lp, slot, std::move(reads.placement), {}};
  for (uint32_t f = 0; f < layout_.files.size(); ++f) {
    std::vector<ReadRequest> mine;
    for (size_t r = 0; r < reads.reads.size(); ++r)
      if (reads.read_file[r] == f) mine.push_back(reads.reads[r]);
    if (mine.empty()) continue;
    if (!file_readers_[f]) file_readers_[f] = readers_.open(layout_.files[f]);
    file_readers_[f]->submit(mine);
    flight.files.push_back(f);
  }
  chunks_loaded_ += ranges.size();
  in_flight_ = std::move(flight);
}

void GraphSO::wait_in_flight() {
  InFlight flight = std::move(*in_flight_);
  in_flight_.reset();
  for (uint32_t f : flight.files) file_readers_[f]->wait();
}

std::optional<LoadedPartition> GraphSO::Schedule(const ActiveChunks& active) {
  if (round_ != &active) {
    round_ = &active;
    plan_ = plan_logical_partitions(active, table_, cache_, partition_bytes_);
    next_ = 0;
  }
  // The partition handed out last time has been processed: offer its chunks to the cache
  // before its buffer is reused.
  if (last_served_) {
    const LogicalPartition& lp = plan_[last_served_->lp];
    for (size_t k = 0; k < lp.demands.size(); ++k) {
      const ChunkDemand& d = active.chunks[lp.demands[k]];
      const ChunkInfo& c = table_.chunk(d.chunk);
      cache_.offer(d.chunk, std::span<const std::byte>(buffers_[last_served_->slot].data() + last_served_->placement[k], c.bytes),
                   d.priority);
    }
    last_served_.reset();
  }
  if (next_ == plan_.size()) return std::nullopt;

  const size_t lp_index = next_++;
  const LogicalPartition& lp = plan_[lp_index];
  ++logical_partitions_;
  LoadedPartition loaded;
  if (lp.from_cache) {
    // Start reading the first device partition now, so it overlaps the cached chunks' processing.
    if (next_ < plan_.size() && !in_flight_) submit(next_, 0, active);
    for (uint32_t d : lp.demands) {
      const std::byte* data = cache_.lookup(active.chunks[d].chunk);
      if (!data) fail("chunk {} left the cache while scheduled", active.chunks[d].chunk);
      loaded.chunks.push_back({d, data, true});
    }
    return loaded;
  }
  if (!in_flight_) submit(lp_index, 0, active);
  const int slot = in_flight_->slot;
  std::vector<uint64_t> placement = in_flight_->placement;
  wait_in_flight();
  cache_.count_misses(lp.demands.size());
  if (next_ < plan_.size()) submit(next_, 1 - slot, active);
  for (size_t k = 0; k < lp.demands.size(); ++k)
    loaded.chunks.push_back({lp.demands[k], buffers_[slot].data() + placement[k], false});
  last_served_ = InFlight{lp_index, slot, std::move(placement), {}};
  return loaded;
}

}  // namespace graphso
