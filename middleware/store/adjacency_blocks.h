// The PMEM adjacency lists: 256-byte blocks (one XPLine each) chained per vertex and direction by
// block index, newest first, and the DRAM table of each chain's newest block. A block is written
// once, whole, and never changed (the naive baseline appends in place instead). The table reaches
// PMEM only as a checkpoint's copy (docs/store.md).
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/common/types.h"
#include "middleware/store/pmem_file.h"
#include "middleware/store/store_format.h"

namespace graphso::store {

class AdjacencyBlocks {
 public:
  // high_water: the first block never handed out (recovery: the checkpoint's H).
  AdjacencyBlocks(const PmemFile& file, const StoreLayout& layout, uint32_t threads, uint64_t high_water);

  // The table of chain heads, one per vertex and direction (loaded from a checkpoint copy).
  uint32_t head(Direction d, VertexId v) const { return heads_[static_cast<size_t>(d)][v]; }
  std::vector<uint32_t>& heads(Direction d) { return heads_[static_cast<size_t>(d)]; }
  const std::vector<uint32_t>& heads(Direction d) const { return heads_[static_cast<size_t>(d)]; }

  // Writes entries as a new block at the front of v's chain. Called by v's shard thread, which
  // takes blocks from its own reservation.
  void prepend(uint32_t thread, Direction d, VertexId v, std::span<const uint32_t> entries, uint8_t flags = 0);
  // Naive baseline: appends one entry into v's newest block in place (a new block when full) and
  // marks the block in `dirty` (one bit per block, that is per 256-byte line), for the batch's persist.
  void append_in_place(uint32_t thread, Direction d, VertexId v, uint32_t entry, std::vector<std::atomic<uint64_t>>& dirty);

  // Blocks handed out so far are [1, high_water()); reservations are dropped, so all threads must be idle.
  uint64_t high_water() const { return next_.load(); }
  void end_reservations();
  uint64_t capacity() const { return layout_.geometry.block_capacity; }

  const AdjacencyBlock& block(uint32_t index) const { return blocks_[index]; }

 private:
  uint32_t allocate(uint32_t thread);

  const PmemFile& file_;
  const StoreLayout& layout_;
  AdjacencyBlock* blocks_;
  std::vector<uint32_t> heads_[2];
  std::atomic<uint64_t> next_;
  struct Reservation {
    uint64_t next = 0, end = 0;
    char pad[48];  // one cache line per thread
  };
  std::vector<Reservation> reservations_;
};

// Reads a chain from its head towards older blocks, checking each block is well formed (index
// in range, owner, direction, count, CRC, `previous` below the block). `visit` gets each block,
// newest first.
template <typename Visit>
void walk_chain(const PmemFile& file, const StoreLayout& layout, uint64_t high_water, Direction d, VertexId v,
                uint32_t head, Visit&& visit);

// Block `index` of v's d-chain, after checking it is well formed.
const AdjacencyBlock& checked_block(const PmemFile& file, const StoreLayout& layout, uint32_t index,
                                    uint64_t high_water, Direction d, VertexId v);

template <typename Visit>
void walk_chain(const PmemFile& file, const StoreLayout& layout, uint64_t high_water, Direction d, VertexId v,
                uint32_t head, Visit&& visit) {
  for (uint32_t index = head; index != 0;) {
    const AdjacencyBlock& block = checked_block(file, layout, index, high_water, d, v);
    visit(block);
    index = block.header.previous;
  }
}

}  // namespace graphso::store
