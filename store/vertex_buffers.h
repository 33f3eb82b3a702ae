// XPGraph's hierarchical DRAM vertex buffers: each vertex has an out- and an in-buffer that starts
// at 16 bytes and doubles as it fills, up to the maximum (default 256 bytes); a full top buffer
// is flushed to PMEM as one adjacency block. Vertices are split into contiguous shards, one per
// ingest thread; a shard's buffers come from its thread's pool and only that thread touches them,
// so appending takes no lock and no atomic.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "base/types.h"
#include "store/buffer_pool.h"
#include "store/store_format.h"
#include "store/store_mode.h"

namespace graphso::store {

// Shard k of n over [0, vertices): the vertices [shard_begin(k), shard_begin(k + 1)).
inline VertexId shard_begin(uint32_t shard, uint32_t shards, uint64_t vertices) {
  return static_cast<VertexId>((uint64_t{shard} * vertices + shards - 1) / shards);
}

// The options of the modes that buffer edges per vertex in DRAM (ModeOption, store/store_mode.h).
void check_max_buffer_option(uint64_t bytes);
inline constexpr ModeOption kMaxBufferOption{"max-buffer", "largest DRAM vertex buffer, bytes (16-256, a power of two)",
                                             256, 16, 256, ModeOption::Kind::Count, &check_max_buffer_option};
inline constexpr ModeOption kArchiveThresholdOption{
    "archive-threshold", "logged edges that start buffering (XPGraph's archiving threshold; a stream's default: --batch)",
    65536, 1};

class VertexBuffers {
 public:
  // Fails unless max_buffer_bytes is a power of two in [16, 256].
  static void check_max_buffer_bytes(uint32_t max_buffer_bytes);
  // entry_words: words per entry (2 in a weighted store: neighbour, weight); a full buffer then
  // holds whole entries only.
  VertexBuffers(uint64_t vertices, uint32_t threads, uint32_t max_buffer_bytes, uint32_t entry_words = 1);

  // By v's shard thread only: appends one entry (entry_words words). Returns true when the buffer
  // is now full: flush, then empty it.
  bool append(uint32_t shard, AdjacencyList d, VertexId v, std::span<const uint32_t> entry);
  // The same for one-word entries (an unweighted store): its hot path.
  bool append(uint32_t shard, AdjacencyList d, VertexId v, uint32_t entry);
  void prefetch(AdjacencyList d, VertexId v) const { __builtin_prefetch(&slot(d, v), 1); }
  std::span<const uint32_t> entries(AdjacencyList d, VertexId v) const {
    const Slot& s = slot(d, v);
    return {s.data(), s.count};
  }
  // After a flush during buffering: the vertex keeps its (top) buffer, it is busy.
  void empty(AdjacencyList d, VertexId v) { slot(d, v).count = 0; }
  // Returns v's buffer to its shard's pool (flushing everything).
  void clear(uint32_t shard, AdjacencyList d, VertexId v);
  uint64_t reserved_bytes() const;

 private:
  // A vertex's buffer in one direction, 16 bytes. Size class 0 is XPGraph's 16-byte L0 buffer,
  // kept in the slot itself (3 entries after the count), so a low-degree vertex never touches the
  // pool; class c >= 1 is a pooled buffer of 16 << c bytes whose address is in words[1..2].
  struct Slot {
    uint16_t count = 0;
    uint8_t size_class = 0;
    uint8_t pooled = 0;  // 1: words hold a pool address
    uint32_t words[3] = {0, 0, 0};

    uint32_t* data() { return pooled ? pool_address() : words; }
    const uint32_t* data() const { return pooled ? pool_address() : words; }
    uint32_t* pool_address() const {
      uint32_t* address;
      std::memcpy(&address, &words[1], sizeof address);
      return address;
    }
    void set_pool_address(uint32_t* address) {
      std::memcpy(&words[1], &address, sizeof address);
      pooled = 1;
    }
  };
  static_assert(sizeof(Slot) == 16);
  Slot& slot(AdjacencyList d, VertexId v) { return slots_[static_cast<size_t>(d)][v]; }
  const Slot& slot(AdjacencyList d, VertexId v) const { return slots_[static_cast<size_t>(d)][v]; }
  uint32_t capacity(uint32_t size_class) const;
  void grow(uint32_t shard, Slot& s);

  uint32_t classes_;
  uint32_t flush_entries_;  // words a full top buffer holds: what one flushed block carries
  std::vector<Slot> slots_[2];
  std::vector<BufferPool> pools_;
};

}  // namespace graphso::store
