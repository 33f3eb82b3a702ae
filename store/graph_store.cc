#include "store/graph_store.h"

#include <omp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <functional>
#include <random>
#include <type_traits>

#include "base/error.h"
#include "store/adjacency_blocks.h"
#include "store/edge_log.h"
#include "store/pmem_file.h"
#include "store/vertex_buffers.h"

namespace graphso::store {
namespace {

// Runs body(task) for tasks 0..tasks-1, each on its own thread where OpenMP gives enough; the
// first error is rethrown.
template <typename Body>
void run_tasks(uint32_t tasks, Body&& body) {
  std::exception_ptr error;
  std::atomic<bool> failed{false};
#pragma omp parallel for schedule(dynamic, 1) num_threads(tasks)
  for (uint32_t task = 0; task < tasks; ++task) {
    try {
      body(task);
    } catch (...) {
      if (!failed.exchange(true)) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace

void check_store_options(const StoreOptions& options) {
  if (options.threads == 0 || options.threads > 256) fail("--threads {} is out of range (1-256)", options.threads);
  VertexBuffers::check_max_buffer_bytes(options.max_buffer_bytes);
  check_power_cut(options.power_cut);
}

StoreGeometry default_geometry(uint64_t vertices, uint64_t edges, uint64_t log_slots, bool weighted) {
  StoreGeometry g;
  g.vertices = vertices;
  g.log_slots = log_slots;
  g.weighted = weighted;
  // In 64-byte units: full 256-byte blocks for both directions, twice over (compaction writes the
  // live ones again), plus at every checkpoint the log forces a partly filled block per vertex
  // and direction (mostly 64 bytes; 2 units on average allowed) and the unused part of each
  // thread's reservations.
  const uint64_t full = 2 * 4 * (2 * edges * entry_words(g) / kBlockEntries + 1);
  const uint64_t checkpoints = edges / std::max(log_slots, kMinLogSlots) + 2;
  g.block_units = std::min<uint64_t>(full + checkpoints * (2 * 2 * vertices + 64 * 3 * 256) + 4096, uint64_t{1} << 32);
  return g;
}

class GraphStore::Impl {
 public:
  Impl(WriterLock lock, PmemFile file, const StoreHeader& header, const StoreOptions& options)
      : lock_(std::move(lock)),
        file_(std::move(file)),
        header_(header),
        layout_(header.geometry),
        options_(options),
        persister_(file_, options.power_cut, false),
        log_(file_, layout_, persister_),
        checkpoint_(read_checkpoint(file_, layout_)),
        blocks_(file_, layout_, options.threads, checkpoint_.high_water) {
    if (header_.mode == StoreMode::XPGraph)
      buffers_ = std::make_unique<VertexBuffers>(header_.geometry.vertices, options.threads, options.max_buffer_bytes,
                                                 entry_words(header_.geometry));
    recover();
  }

  // --- writing ---

  template <typename EdgeRecord>  // Edge (weight 1) or WeightedEdge
  void add(std::span<const EdgeRecord> edges, bool deletes) {
    for (const EdgeRecord& e : edges)
      if (e.src >= header_.geometry.vertices || e.dst >= header_.geometry.vertices)
        fail("{}: edge {} -> {} is outside the store's {} vertices", file_.path(), e.src, e.dst,
             header_.geometry.vertices);
    const uint64_t slots = log_.slots();
    while (!edges.empty()) {
      // The log may hold at most its capacity in edges not yet checkpointed (store_format.h).
      const uint64_t capacity = slots - kLogLineRecords;
      if (header_.mode == StoreMode::XPGraph && log_.head() - checkpoint_.flushed >= capacity) checkpoint();
      uint64_t room = header_.mode == StoreMode::XPGraph ? capacity - (log_.head() - checkpoint_.flushed) : capacity;
      std::span<const EdgeRecord> batch = edges.first(std::min<uint64_t>(room, edges.size()));
      edges = edges.subspan(batch.size());
      if (header_.mode == StoreMode::Naive) {
        log_.append(batch, deletes);
        archive_in_place(batch, deletes);
      } else if (log_.head() - buffered_ >= options_.archive_threshold) {
        // XPGraph's logging and archiving run side by side: what is logged is buffered while
        // this batch is logged. They touch different log slots (the batch fits in the room).
        buffer_to(log_.head(), [&] { log_.append(batch, deletes); });
        if (buffers_->reserved_bytes() > options_.buffer_memory) checkpoint();
      } else {
        log_.append(batch, deletes);
      }
    }
  }

  void buffer_all() {
    if (header_.mode == StoreMode::XPGraph) buffer_to(log_.head());
  }

  // Persist order (docs/store.md): blocks, then the table copy, then the slot that commits them.
  void checkpoint() {
    if (header_.mode == StoreMode::Naive) return;
    const uint64_t position = log_.head();
    buffer_to(position);
    run_tasks(options_.threads, [&](uint32_t shard) {
      for (VertexId v = shard_begin(shard), end = shard_begin(shard + 1); v < end; ++v)
        for (AdjacencyList d : {AdjacencyList::Out, AdjacencyList::In}) {
          std::span<const uint32_t> entries = buffers_->entries(d, v);
          if (!entries.empty()) blocks_.prepend(shard, d, v, entries);
          buffers_->clear(shard, d, v);
        }
    });
    commit(position);
  }

  void compact() {
    if (header_.mode == StoreMode::Naive) fail("{}: compact needs an xpgraph-mode store", file_.path());
    const uint64_t position = log_.head();
    buffer_to(position);
    run_tasks(options_.threads, [&](uint32_t shard) {
      std::vector<uint32_t> live;
      for (VertexId v = shard_begin(shard), end = shard_begin(shard + 1); v < end; ++v)
        for (AdjacencyList d : {AdjacencyList::Out, AdjacencyList::In}) {
          live.clear();
          merged(d, v, false, live);  // entry words
          if (already_compact(d, v, live.size())) continue;
          // A fresh run: the vertex's new chain starts empty and takes full blocks.
          blocks_.heads(d)[v] = 0;
          for (size_t at = 0; at < live.size(); at += kBlockEntries) {
            size_t n = std::min<size_t>(kBlockEntries, live.size() - at);
            blocks_.prepend(shard, d, v, std::span<const uint32_t>(live).subspan(at, n), kBlockCompacted);
          }
          buffers_->clear(shard, d, v);
        }
    });
    commit(position);
  }

  void close() {
    if (header_.mode != StoreMode::Naive) return;
    blocks_.end_reservations();
    const uint32_t table_crc = write_table_copy(1 - checkpoint_.slot);
    Checkpoint next{1 - checkpoint_.slot, checkpoint_.seq + 1, log_.head(), blocks_.high_water(), true, table_crc};
    write_checkpoint(file_, layout_, persister_, next);
    checkpoint_ = next;
  }

  // --- reading ---

  // v's live d-edges as (neighbour, weight), sorted; weight 1 in an unweighted store.
  std::vector<std::pair<VertexId, Weight>> edges(AdjacencyList d, VertexId v) const {
    if (v >= header_.geometry.vertices)
      fail("{}: vertex {} is outside the store's {} vertices", file_.path(), v, header_.geometry.vertices);
    std::vector<uint32_t> words;
    merged(d, v, true, words);
    const uint32_t step = entry_words(header_.geometry);
    std::vector<std::pair<VertexId, Weight>> live;
    for (size_t i = 0; i < words.size(); i += step) live.emplace_back(words[i], step == 2 ? words[i + 1] : Weight{1});
    std::sort(live.begin(), live.end());
    return live;
  }

  // --- resumable input ---

  InputRecords input() const { return read_inputs(file_, layout_); }
  void begin_input(InputProgress input, uint64_t already_logged) {
    if (already_logged > log_.head())
      fail("{}: {} edges cannot be in the store already: it has logged {}", file_.path(), already_logged, log_.head());
    input.start = log_.head() - already_logged;
    write_input(file_, layout_, persister_, input);
  }

  StoreStatus status() const {
    StoreStatus s;
    s.header = header_;
    s.head = log_.head();
    s.buffered = buffered_;
    s.flushed = header_.mode == StoreMode::Naive ? buffered_ : checkpoint_.flushed;
    s.checkpoint_seq = checkpoint_.seq;
    s.high_water = blocks_.high_water();
    s.buffer_bytes = buffers_ ? buffers_->reserved_bytes() : 0;
    s.checkpoints = checkpoints_;
    s.replayed = replayed_;
    s.repaired_input_slot = repaired_input_slot_;
    s.persisted = persister_.stats();
    return s;
  }

  const StoreHeader& header() const { return header_; }
  const std::string& path() const { return file_.path(); }

 private:
  // Recovery (docs/store.md, "What recovery reads"): the checkpoint in force gives the table of
  // chain heads, F and H; blocks from H on are dropped and reused; the log [F, head) is replayed.
  void recover() {
    const uint64_t head = log_.head();
    const Checkpoint& c = checkpoint_;
    check_positions(file_, header_, c, head);
    load_table_copy(c);
    buffered_ = c.flushed;
    if (header_.mode == StoreMode::XPGraph) with_damage_note(c, [&] { verify_log_lines(file_, layout_, c.flushed, head); });
    // The input record is kept twice; one lost copy is written back from the other.
    repaired_input_slot_ = repair_inputs(file_, layout_, persister_);
    if (header_.mode == StoreMode::Naive) {
      check_naive_closed(file_, c, head, "was not closed cleanly, and the naive baseline has no crash recovery");
      // From here on it is not clean until close().
      Checkpoint dirty{1 - c.slot, c.seq + 1, head, c.high_water, false, table_copy_crc(file_, layout_, 1 - c.slot)};
      write_checkpoint(file_, layout_, persister_, dirty);
      checkpoint_ = dirty;
      buffered_ = head;
      return;
    }
    replayed_ = head - c.flushed;
    with_damage_note(c, [&] { buffer_to(head); });
  }

  void load_table_copy(const Checkpoint& c) {
    const std::span<const uint32_t> table = checked_table_copy(file_, layout_, c);
    if (table.empty()) return;  // no checkpoint: the heads stay 0
    const uint64_t v = header_.geometry.vertices;
    std::copy(table.begin(), table.begin() + v, blocks_.heads(AdjacencyList::Out).begin());
    std::copy(table.begin() + v, table.end(), blocks_.heads(AdjacencyList::In).begin());
  }

  // Returns the copy's CRC-32C, which the checkpoint slot committing it records.
  uint32_t write_table_copy(uint32_t slot) {
    auto* table = file_.at<uint32_t>(layout_.tables[slot]);
    const uint64_t v = header_.geometry.vertices;
    std::memcpy(table, blocks_.heads(AdjacencyList::Out).data(), v * sizeof(uint32_t));
    std::memcpy(table + v, blocks_.heads(AdjacencyList::In).data(), v * sizeof(uint32_t));
    persister_.persist(layout_.tables[slot], layout_.table_bytes());
    return table_copy_crc(file_, layout_, slot);
  }

  // Everything below `position` is in blocks (threads idle): persist the blocks written since the
  // last checkpoint, the table copy, then the slot.
  void commit(uint64_t position) {
    blocks_.end_reservations();
    const uint64_t high_water = blocks_.high_water();
    const uint64_t first = checkpoint_.high_water;
    persister_.persist(layout_.block_offset(first), (high_water - first) * kBlockUnitBytes);
    persister_.crash_point(CrashPoint::CheckpointBlocks);
    const uint32_t slot = 1 - checkpoint_.slot;
    const uint32_t table_crc = write_table_copy(slot);
    persister_.crash_point(CrashPoint::CheckpointTable);
    Checkpoint next{slot, checkpoint_.seq + 1, position, high_water, false, table_crc};
    write_checkpoint(file_, layout_, persister_, next);
    persister_.crash_point(CrashPoint::CheckpointSlot);
    checkpoint_ = next;
    ++checkpoints_;
  }

  VertexId shard_begin(uint32_t shard) const {
    return store::shard_begin(shard, options_.threads, header_.geometry.vertices);
  }

  // Moves log records [buffered_, position) into the vertex buffers, flushing full ones. Every
  // shard thread reads every record and keeps the ones whose source (out) or destination (in) it
  // owns. The records are decoded here rather than through read_log_record, which divides to
  // find each position's slot and lap: this is the hot path, and it steps slot and phase along. `alongside`, if given, runs at the same time on a thread of its own.
  void buffer_to(uint64_t position, const std::function<void()>& alongside = {}) {
    const uint64_t first = buffered_;
    const uint64_t slots = log_.slots();
    const uint64_t vertices = header_.geometry.vertices;
    const LogRecord* records = file_.at<LogRecord>(layout_.log);
    const Weight* weights = header_.geometry.weighted ? file_.at<Weight>(layout_.log_weights) : nullptr;
    const uint32_t extra = alongside ? 1 : 0;
    if (position <= first && !alongside) return;
    run_tasks(options_.threads + extra, [&](uint32_t task) {
      if (task < extra) return alongside();
      const uint32_t shard = task - extra;
      const VertexId lo = shard_begin(shard);
      const uint32_t span = shard_begin(shard + 1) - lo;
      constexpr uint64_t kAhead = 16;  // records between a slot's prefetch and its use
      uint64_t slot = first % slots;
      uint32_t phase = phase_of(first, slots);
      for (uint64_t p = first; p < position; ++p) {
        if (p + kAhead < position) {
          uint64_t ahead = slot + kAhead;
          const LogRecord& next = records[ahead < slots ? ahead : ahead - slots];
          VertexId s = next.src & ~kFlagBit, d = next.dst & ~kFlagBit;
          if (s - lo < span) buffers_->prefetch(AdjacencyList::Out, s);
          if (d - lo < span) buffers_->prefetch(AdjacencyList::In, d);
        }
        const LogRecord r = records[slot];
        const VertexId src = r.src & ~kFlagBit, dst = r.dst & ~kFlagBit;
        if ((r.dst >> 31) != phase || src >= vertices || dst >= vertices)
          fail("{}: corrupt store: log record at position {} was not written in its lap or names no vertex",
               file_.path(), p);
        const uint32_t tombstone = r.src & kFlagBit;
        const Weight weight = weights ? weights[slot] : 1;
        if (src - lo < span) append(shard, AdjacencyList::Out, src, dst | tombstone, weight);
        if (dst - lo < span) append(shard, AdjacencyList::In, dst, src | tombstone, weight);
        if (++slot == slots) {
          slot = 0;
          phase ^= 1;
        }
      }
    });
    buffered_ = position;
  }

  void append(uint32_t shard, AdjacencyList d, VertexId v, uint32_t entry, Weight weight) {
    const uint32_t words[2] = {entry, weight};
    const bool full = header_.geometry.weighted ? buffers_->append(shard, d, v, std::span<const uint32_t>(words, 2))
                                                : buffers_->append(shard, d, v, entry);
    if (full) {
      blocks_.prepend(shard, d, v, buffers_->entries(d, v));
      buffers_->empty(d, v);
    }
  }

  // Naive baseline: every edge straight into its PMEM adjacency lists, then the batch's written
  // lines persisted (one bit per block marks them).
  template <typename EdgeRecord>
  void archive_in_place(std::span<const EdgeRecord> batch, bool deletes) {
    const uint32_t tombstone = deletes ? kFlagBit : 0;
    const uint64_t line_units = block_units(kBlockClasses - 1);
    if (dirty_.empty()) dirty_ = std::vector<std::atomic<uint64_t>>((header_.geometry.block_units / line_units + 63) / 64);
    run_tasks(options_.threads, [&](uint32_t shard) {
      const VertexId lo = shard_begin(shard);
      const uint32_t span = shard_begin(shard + 1) - lo;
      const uint32_t words = entry_words(header_.geometry);
      for (const EdgeRecord& e : batch) {
        Weight weight = 1;
        if constexpr (std::is_same_v<EdgeRecord, WeightedEdge>) weight = e.weight;
        const uint32_t out[2] = {e.dst | tombstone, weight}, in[2] = {e.src | tombstone, weight};
        if (e.src - lo < span)
          blocks_.append_in_place(shard, AdjacencyList::Out, e.src, std::span<const uint32_t>(out, words), dirty_);
        if (e.dst - lo < span)
          blocks_.append_in_place(shard, AdjacencyList::In, e.dst, std::span<const uint32_t>(in, words), dirty_);
      }
    });
    ranges_.clear();
    for (uint64_t word = 0; word < dirty_.size(); ++word) {
      uint64_t bits = dirty_[word].exchange(0, std::memory_order_relaxed);
      while (bits) {
        uint64_t line = word * 64 + static_cast<uint64_t>(__builtin_ctzll(bits));
        bits &= bits - 1;
        uint64_t offset = layout_.block_offset(line * line_units);
        if (!ranges_.empty() && ranges_.back().offset + ranges_.back().length == offset)
          ranges_.back().length += kXPLineBytes;
        else
          ranges_.push_back({offset, kXPLineBytes});
      }
    }
    persister_.persist(ranges_);
    buffered_ = log_.head();
  }

  // v's d-chain is one smallest-fitting block holding exactly its `live` entries, none buffered.
  bool already_compact(AdjacencyList d, VertexId v, uint64_t live) const {
    if (!buffers_->entries(d, v).empty()) return false;
    const uint32_t head = blocks_.head(d, v);
    if (head == 0) return live == 0;
    const BlockHeader& h = checked_block(file_, layout_, head, blocks_.high_water(), d, v).header;
    return h.previous == 0 && h.count == live && h.size_class == block_class_for(h.count);
  }

  // v's live d-entries in `live`, as blocks hold them (entry_words words each; tombstones applied
  // in log order): its chain, oldest block first, then its DRAM buffer, then (with_log) the
  // logged edges not yet buffered.
  void merged(AdjacencyList d, VertexId v, bool with_log, std::vector<uint32_t>& live) const {
    std::vector<const AdjacencyBlock*> chain;
    walk_chain(file_, layout_, blocks_.high_water(), d, v, blocks_.head(d, v),
               [&](const AdjacencyBlock& block) { chain.push_back(&block); });
    const uint32_t words = entry_words(header_.geometry);
    LiveNeighbours neighbours(words);
    neighbours.apply_chain(chain);
    if (buffers_) neighbours.apply_words(buffers_->entries(d, v));
    if (with_log)
      for (uint64_t p = buffered_; p < log_.head(); ++p) {
        LoggedEdge e = log_.read(p);
        uint32_t tombstone = e.deleted ? kFlagBit : 0;
        if (d == AdjacencyList::Out && e.src == v) neighbours.apply(e.dst | tombstone, e.weight);
        if (d == AdjacencyList::In && e.dst == v) neighbours.apply(e.src | tombstone, e.weight);
      }
    neighbours.for_each([&](uint32_t n, Weight w) {
      live.push_back(n);
      if (words == 2) live.push_back(w);
    });
  }

  WriterLock lock_;  // held for the object's life: no second writer
  PmemFile file_;
  StoreHeader header_;
  StoreLayout layout_;
  StoreOptions options_;
  Persister persister_;
  EdgeLog log_;
  Checkpoint checkpoint_;
  AdjacencyBlocks blocks_;
  std::unique_ptr<VertexBuffers> buffers_;
  uint64_t buffered_ = 0;
  uint64_t checkpoints_ = 0;
  uint64_t replayed_ = 0;
  int repaired_input_slot_ = -1;
  std::vector<std::atomic<uint64_t>> dirty_;
  std::vector<ByteRange> ranges_;
};

// --- GraphStore: the face ---

GraphStore::GraphStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
GraphStore::~GraphStore() = default;

std::unique_ptr<GraphStore> GraphStore::create(const std::string& path, const StoreGeometry& geometry, StoreMode mode,
                                               const StoreOptions& options) {
  std::unique_ptr<GraphStore> store = create_if_missing(path, geometry, mode, options);
  if (!store) fail("{}: cannot create the store: it exists", path);
  return store;
}

std::unique_ptr<GraphStore> GraphStore::create_if_missing(const std::string& path, const StoreGeometry& geometry,
                                                          StoreMode mode, const StoreOptions& options) {
  check_store_options(options);
  if (geometry.vertices == 0 || geometry.vertices > kMaxStoreVertices)
    fail("{}: a store holds 1 to 2^31 vertices, not {}", path, geometry.vertices);
  if (geometry.log_slots < kMinLogSlots) fail("{}: the log needs at least {} slots, not {}", path, kMinLogSlots, geometry.log_slots);
  if (geometry.block_units < 8 || geometry.block_units > (uint64_t{1} << 32))
    fail("{}: {} block units is out of range (8 to 2^32)", path, geometry.block_units);
  StoreHeader header{geometry, mode, std::random_device{}() * uint64_t{0x9E3779B97F4A7C15ull} ^ static_cast<uint64_t>(::getpid())};
  if (path_exists(path)) return nullptr;
  // Written under another name and renamed into place once its superblock is persisted: a crash
  // while creating leaves no half-made store behind, only a ".new" file the next create replaces.
  // The lock is taken on that file first, so it is already held on the store when it appears.
  const std::string temp = path + ".new";
  WriterLock lock = WriterLock::take(temp, path, true);
  if (path_exists(path)) {  // another process created it meanwhile
    ::unlink(temp.c_str());
    return nullptr;
  }
  const uint64_t bytes = StoreLayout(geometry).file_bytes;
  try {
    if (::ftruncate(lock.fd(), 0) != 0 || ::ftruncate(lock.fd(), static_cast<off_t>(bytes)) != 0)
      fail("{}: cannot size the store to {} bytes: {}", path, bytes, errno_text(errno));
    lock.reserve(path, bytes);
    PmemFile file = PmemFile::open(temp);
    Persister persister(file, options.power_cut, true);
    write_superblock(file, persister, header);
    write_initial_log_head(file, StoreLayout(geometry), persister);
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
  publish_file(temp, path);
  return open_locked(std::move(lock), path, options);
}

std::unique_ptr<GraphStore> GraphStore::open(const std::string& path, const StoreOptions& options) {
  check_store_options(options);
  if (!path_exists(path)) fail("{}: no such store", path);
  return open_locked(WriterLock::take(path, path, false), path, options);
}

std::unique_ptr<GraphStore> GraphStore::open_locked(WriterLock lock, const std::string& path, const StoreOptions& options) {
  {
    // A store made sparse by an earlier graphso gets its space now, before anything is mapped.
    struct stat st {};
    if (::fstat(lock.fd(), &st) != 0) fail("{}: cannot stat the store: {}", path, errno_text(errno));
    lock.reserve(path, static_cast<uint64_t>(st.st_size));
  }
  PmemFile file = PmemFile::open(path);
  StoreHeader header = read_superblock(file);
  return std::unique_ptr<GraphStore>(
      new GraphStore(std::make_unique<Impl>(std::move(lock), std::move(file), header, options)));
}

namespace {

std::vector<VertexId> neighbours_of(const std::vector<std::pair<VertexId, Weight>>& edges) {
  std::vector<VertexId> ids;
  ids.reserve(edges.size());
  for (const auto& [n, w] : edges) ids.push_back(n);
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace

void GraphStore::add_edges(std::span<const WeightedEdge> edges) { impl_->add(edges, false); }
void GraphStore::add_edges(std::span<const Edge> edges) { impl_->add(edges, false); }
void GraphStore::add_edge(VertexId src, VertexId dst, Weight weight) {
  WeightedEdge e{src, dst, weight};
  impl_->add(std::span<const WeightedEdge>(&e, 1), false);
}
void GraphStore::del_edges(std::span<const WeightedEdge> edges) { impl_->add(edges, true); }
void GraphStore::del_edges(std::span<const Edge> edges) { impl_->add(edges, true); }
void GraphStore::del_edge(VertexId src, VertexId dst) {
  WeightedEdge e{src, dst, 1};
  impl_->add(std::span<const WeightedEdge>(&e, 1), true);
}
std::vector<VertexId> GraphStore::out_neighbours(VertexId v) const { return neighbours_of(impl_->edges(AdjacencyList::Out, v)); }
std::vector<VertexId> GraphStore::in_neighbours(VertexId v) const { return neighbours_of(impl_->edges(AdjacencyList::In, v)); }
std::vector<std::pair<VertexId, Weight>> GraphStore::out_edges(VertexId v) const { return impl_->edges(AdjacencyList::Out, v); }
std::vector<std::pair<VertexId, Weight>> GraphStore::in_edges(VertexId v) const { return impl_->edges(AdjacencyList::In, v); }
void GraphStore::buffer_all_edges() { impl_->buffer_all(); }
void GraphStore::flush_to_blocks() { impl_->checkpoint(); }
void GraphStore::compact() { impl_->compact(); }
void GraphStore::close() { impl_->close(); }
InputRecords GraphStore::input() const { return impl_->input(); }
void GraphStore::begin_input(InputProgress input, uint64_t already_logged) {
  impl_->begin_input(std::move(input), already_logged);
}
StoreStatus GraphStore::status() const { return impl_->status(); }
const StoreHeader& GraphStore::header() const { return impl_->header(); }
const std::string& GraphStore::path() const { return impl_->path(); }

}  // namespace graphso::store
