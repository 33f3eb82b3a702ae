// The chained-block store modes: XPGraph (log, DRAM vertex buffers, 256-byte blocks flushed at
// checkpoints) and the naive baseline (every edge written into its PMEM block in place).
#include "store/xpgraph/chain_store.h"
#include "store/store_modes.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <optional>
#include <type_traits>

#include "base/error.h"
#include "base/progress.h"
#include "store/dirty_lines.h"
#include "store/edge_log.h"
#include "store/log_buffering.h"
#include "store/xpgraph/adjacency_blocks.h"
#include "store/vertex_buffers.h"

namespace graphso::store {
namespace {

class ChainStore final : public StoreWriter {
 public:
  ChainStore(WriterLock lock, PmemFile file, const StoreHeader& header, const StoreOptions& options)
      : StoreWriter(std::move(lock), std::move(file), header, options),
        blocks_(file_, layout_, options.threads, checkpoint_.high_water) {
    if (header_.mode == StoreMode::XPGraph)
      buffers_ = std::make_unique<VertexBuffers>(header_.geometry.vertices, options.threads,
                                                 static_cast<uint32_t>(option_value(options.tuning, kMaxBufferOption)),
                                                 entry_words(header_.geometry));
    recover();
  }

  // --- writing ---

  void add(std::span<const WeightedEdge> edges, bool deletes) override { add_records(edges, deletes); }
  void add(std::span<const Edge> edges, bool deletes) override { add_records(edges, deletes); }

  template <typename EdgeRecord>  // Edge (weight 1) or WeightedEdge
  void add_records(std::span<const EdgeRecord> edges, bool deletes) {
    check_ids(edges);
    const uint64_t slots = log_.slots();
    while (!edges.empty()) {
      // The log may hold at most its capacity in edges not yet checkpointed (store_format.h).
      const uint64_t capacity = slots - kLogLineRecords;
      if (header_.mode == StoreMode::XPGraph && log_.head() - checkpoint_.flushed >= capacity) checkpoint();
      uint64_t room = header_.mode == StoreMode::XPGraph ? capacity - (log_.head() - checkpoint_.flushed) : capacity;
      std::span<const EdgeRecord> batch = edges.first(std::min<uint64_t>(room, edges.size()));
      edges = edges.subspan(batch.size());
      if (header_.mode == StoreMode::Naive) {
        check_naive_room(batch);
        log_.append(batch, deletes);
        archive_in_place(batch, deletes);
      } else if (log_.head() - buffered_ >= option_value(options_.tuning, kArchiveThresholdOption)) {
        // XPGraph's logging and archiving run side by side: what is logged is buffered while
        // this batch is logged. They touch different log slots (the batch fits in the room).
        buffer_to(log_.head(), [&] { log_.append(batch, deletes); });
        if (buffers_->reserved_bytes() > options_.buffer_memory) checkpoint();
      } else {
        log_.append(batch, deletes);
      }
    }
  }

  // The baseline writes each edge in place as it is archived, so a store found full in the middle
  // of a batch would hold the batch logged but half archived: its room is checked before anything
  // is logged. Besides the blocks it opens, each thread may take one more reservation.
  template <typename EdgeRecord>
  void check_naive_room(std::span<const EdgeRecord> batch) const {
    std::vector<uint64_t> ends;  // vertex << 1 | direction
    ends.reserve(2 * batch.size());
    for (const EdgeRecord& e : batch) {
      ends.push_back(uint64_t{e.src} << 1);
      ends.push_back(uint64_t{e.dst} << 1 | 1);
    }
    std::sort(ends.begin(), ends.end());
    // A reservation starts wherever the shared mark is, so aligning its 256-byte blocks wastes up
    // to 3 of its units: blocks take up to 64/63 of their units; and each thread may leave one
    // reservation partly used.
    uint64_t need = 2 * uint64_t{options_.threads} * kReservationUnits;
    for (size_t i = 0, j = 0; i < ends.size(); i = j) {
      while (j < ends.size() && ends[j] == ends[i]) ++j;
      const auto d = (ends[i] & 1) ? AdjacencyList::In : AdjacencyList::Out;
      need += blocks_.units_to_append(d, static_cast<VertexId>(ends[i] >> 1), j - i, entry_words(header_.geometry));
    }
    need = need + need / 63 + 1;
    if (blocks_.high_water() + need > header_.geometry.block_units)
      fail_full("{}: the store is full ({} of adjacency blocks, {} in use) for a batch of {} edges", file_.path(),
                human_bytes(static_cast<double>(header_.geometry.block_units * kBlockUnitBytes)),
                human_bytes(static_cast<double>(blocks_.high_water() * kBlockUnitBytes)), batch.size());
  }

  void buffer_all() override {
    if (header_.mode == StoreMode::XPGraph) buffer_to(log_.head());
  }

  // Persist order (docs/store.md): blocks, then the table copy, then the slot that commits them.
  void checkpoint() override {
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

  void compact() override {
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

  void close() override {
    if (header_.mode != StoreMode::Naive) return;
    blocks_.end_reservations();
    const uint32_t table_crc = write_table_copy(1 - checkpoint_.slot);
    Checkpoint next{1 - checkpoint_.slot, checkpoint_.seq + 1, log_.head(), blocks_.high_water(), true, table_crc};
    write_checkpoint(file_, layout_, persister_, next);
    checkpoint_ = next;
  }

  // --- reading ---

  // v's live d-edges as (neighbour, weight), sorted; weight 1 in an unweighted store.
  std::vector<std::pair<VertexId, Weight>> edges(AdjacencyList d, VertexId v) const override {
    check_vertex(v);
    std::vector<uint32_t> words;
    merged(d, v, true, words);
    return sorted_edges(words, entry_words(header_.geometry));
  }

  StoreStatus status() const override {
    StoreStatus s = common_status();
    s.buffered = buffered_;
    if (header_.mode == StoreMode::Naive) s.flushed = buffered_;
    s.high_water = blocks_.high_water();
    s.buffer_bytes = buffers_ ? buffers_->reserved_bytes() : 0;
    s.checkpoints = checkpoints_;
    s.replayed = replayed_;
    return s;
  }

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
      check_closed_cleanly(file_, header_, c, head, "was not closed cleanly, and the naive baseline has no crash recovery");
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

  // Moves log records [buffered_, position) into the vertex buffers; a full one becomes a block.
  void buffer_to(uint64_t position, const std::function<void()>& alongside = {}) {
    buffer_log_records(file_, layout_, *buffers_, options_.threads, buffered_, position, alongside,
                       [&](uint32_t shard, AdjacencyList d, VertexId v, std::span<const uint32_t> entries) {
                         blocks_.prepend(shard, d, v, entries);
                       });
    buffered_ = std::max(buffered_, position);
  }

  // Naive baseline: every edge straight into its PMEM adjacency lists, then the batch's written
  // lines persisted (one bit per block marks them).
  template <typename EdgeRecord>
  void archive_in_place(std::span<const EdgeRecord> batch, bool deletes) {
    const uint32_t tombstone = deletes ? kFlagBit : 0;
    if (!dirty_) dirty_.emplace(layout_);
    // check_naive_room made room for the batch: a store found full here would hold it logged but
    // half archived, which only a clean close could make readable, and it must not be: an error
    // the store does not grow from (the baseline has no recovery).
    try {
      run_tasks(options_.threads, [&](uint32_t shard) {
        const VertexId lo = shard_begin(shard);
        const uint32_t span = shard_begin(shard + 1) - lo;
        const uint32_t words = entry_words(header_.geometry);
        for (const EdgeRecord& e : batch) {
          Weight weight = 1;
          if constexpr (std::is_same_v<EdgeRecord, WeightedEdge>) weight = e.weight;
          const uint32_t out[2] = {e.dst | tombstone, weight}, in[2] = {e.src | tombstone, weight};
          if (e.src - lo < span)
            blocks_.append_in_place(shard, AdjacencyList::Out, e.src, std::span<const uint32_t>(out, words), *dirty_);
          if (e.dst - lo < span)
            blocks_.append_in_place(shard, AdjacencyList::In, e.dst, std::span<const uint32_t>(in, words), *dirty_);
        }
      });
    } catch (const StoreFull& full) {
      throw Error(full.what());
    }
    persister_.persist(dirty_->take());
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
    apply_chain(neighbours, chain);
    if (buffers_) neighbours.apply_words(buffers_->entries(d, v));
    if (with_log)
      for (uint64_t p = buffered_; p < log_.head(); ++p) {
        LoggedEdge e = log_.read(p);
        uint32_t tombstone = e.deleted ? kFlagBit : 0;
        if (d == AdjacencyList::Out && e.src == v) neighbours.apply(e.dst | tombstone, e.weight);
        if (d == AdjacencyList::In && e.dst == v) neighbours.apply(e.src | tombstone, e.weight);
      }
    neighbours.append_words(live);
  }

  AdjacencyBlocks blocks_;
  std::unique_ptr<VertexBuffers> buffers_;
  uint64_t buffered_ = 0;
  uint64_t checkpoints_ = 0;
  uint64_t replayed_ = 0;
  std::optional<DirtyLines> dirty_;  // naive: the lines a batch wrote in place
};

}  // namespace

std::unique_ptr<StoreWriter> open_chain_store(WriterLock lock, PmemFile file, const StoreHeader& header,
                                              const StoreOptions& options) {
  return std::make_unique<ChainStore>(std::move(lock), std::move(file), header, options);
}

}  // namespace graphso::store
