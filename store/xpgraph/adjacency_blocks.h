// The PMEM adjacency lists: blocks of 64, 128 or 256 bytes chained per vertex and direction by unit
// index, newest first, and the DRAM table of each chain's newest block. A full vertex buffer is
// flushed as a 256-byte block (one XPLine); a partly filled one, at a checkpoint, as the smallest
// block that holds it. A block is written once, whole, and never changed (the naive baseline
// appends in place instead). The table reaches PMEM only as a checkpoint's copy (docs/store.md).
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "base/types.h"
#include "store/pmem_file.h"
#include "store/dirty_lines.h"
#include "store/live_neighbours.h"
#include "store/xpgraph/block_format.h"

namespace graphso::store {

// Units a thread takes at a time (16 KiB): the shared high-water mark moves once per 64 full-block
// flushes. Aligning a larger block after smaller ones wastes at most 3 units.
inline constexpr uint64_t kReservationUnits = 256;

class AdjacencyBlocks {
 public:
  // high_water: the first unit never handed out (recovery: the checkpoint's H).
  AdjacencyBlocks(const PmemFile& file, const StoreLayout& layout, uint32_t threads, uint64_t high_water);

  // The table of chain heads, one per vertex and direction (loaded from a checkpoint copy).
  uint32_t head(AdjacencyList d, VertexId v) const { return heads_[static_cast<size_t>(d)][v]; }
  std::vector<uint32_t>& heads(AdjacencyList d) { return heads_[static_cast<size_t>(d)]; }
  const std::vector<uint32_t>& heads(AdjacencyList d) const { return heads_[static_cast<size_t>(d)]; }

  // Writes entries (at most kBlockEntries) as a new block at the front of v's chain. Called by
  // v's shard thread, which takes blocks from its own reservation.
  void prepend(uint32_t thread, AdjacencyList d, VertexId v, std::span<const uint32_t> entries, uint8_t flags = 0);
  // Naive baseline: appends one entry (its words) into v's newest block in place (a new 256-byte
  // block when it has no room) and marks the block's line in `dirty` for the batch's persist.
  void append_in_place(uint32_t thread, AdjacencyList d, VertexId v, std::span<const uint32_t> entry,
                       DirtyLines& dirty);

  // Naive baseline: the block units append_in_place takes for `entries` more entries of `words`
  // words in v's d-chain.
  uint64_t units_to_append(AdjacencyList d, VertexId v, uint64_t entries, uint32_t words) const {
    const uint32_t newest = head(d, v);
    const uint64_t room = newest == 0 ? 0 : (kBlockEntries - block(newest).header.count) / words;
    const uint64_t per_block = kBlockEntries / words;
    return entries <= room ? 0 : (entries - room + per_block - 1) / per_block * block_units(kBlockClasses - 1);
  }

  // Units handed out so far are [1, high_water()). end_reservations() drops what threads hold in
  // reserve: all threads must be idle.
  uint64_t high_water() const { return next_.load(); }
  void end_reservations();

 private:
  uint32_t allocate(uint32_t thread, uint32_t size_class);
  AdjacencyBlock& block(uint32_t unit) { return *file_.at<AdjacencyBlock>(layout_.block_offset(unit)); }
  const AdjacencyBlock& block(uint32_t unit) const { return *file_.at<AdjacencyBlock>(layout_.block_offset(unit)); }

  const PmemFile& file_;
  const StoreLayout& layout_;
  std::vector<uint32_t> heads_[2];
  std::atomic<uint64_t> next_;
  // One reservation per thread for every size class: a thread's blocks then only ever grow in
  // position, and a vertex's blocks all come from its shard's thread, so each chain runs from
  // higher to lower units (walks end; a loop is corruption).
  struct alignas(64) Reservation {  // one cache line per thread
    uint64_t next = 0, end = 0;
  };
  std::vector<Reservation> reservations_;
};

// Block `unit` of v's d-chain, after checking it is well formed: inside [1, high_water), aligned
// to its size, owner, direction, count, checksum, and `previous` below it.
const AdjacencyBlock& checked_block(const PmemFile& file, const StoreLayout& layout, uint32_t unit,
                                    uint64_t high_water, AdjacencyList d, VertexId v);

// Reads a chain from its head towards older blocks, checking each; `visit` gets each block,
// newest first.
template <typename Visit>
void walk_chain(const PmemFile& file, const StoreLayout& layout, uint64_t high_water, AdjacencyList d, VertexId v,
                uint32_t head, Visit&& visit) {
  for (uint32_t unit = head; unit != 0;) {
    const AdjacencyBlock& block = checked_block(file, layout, unit, high_water, d, v);
    visit(block);
    unit = block.header.previous;
  }
}

// A chain as walk_chain gives it, newest block first: applied oldest first.
inline void apply_chain(LiveNeighbours& neighbours, std::span<const AdjacencyBlock* const> newest_first) {
  for (auto it = newest_first.rbegin(); it != newest_first.rend(); ++it)
    neighbours.apply_words(std::span<const uint32_t>((*it)->entries, (*it)->header.count));
}

}  // namespace graphso::store
