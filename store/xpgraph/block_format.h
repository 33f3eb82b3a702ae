// The chained-block modes' on-PMEM records (xpgraph and naive, docs/store.md): adjacency blocks
// of 64, 128 or 256 bytes (size class 0, 1, 2), aligned to their size in the block region, each
// vertex's blocks chained newest first from its head in the checkpoint's table copy (out heads,
// a u32 per vertex, then in heads).
#pragma once

#include <cstdint>

#include "store/store_format.h"

namespace graphso::store {

inline constexpr uint32_t kBlockClasses = 3;
inline constexpr uint64_t block_units(uint32_t size_class) { return uint64_t{1} << size_class; }
inline constexpr uint32_t block_entries(uint32_t size_class) {
  return static_cast<uint32_t>((kBlockUnitBytes * block_units(size_class) - 16) / 4);
}
// The smallest size class holding n entries (n <= kBlockEntries).
inline constexpr uint32_t block_class_for(uint32_t n) { return n <= block_entries(0) ? 0 : n <= block_entries(1) ? 1 : 2; }

struct BlockHeader {
  uint32_t owner;
  uint32_t previous;  // unit index of the older block of the same chain, 0 at the end
  uint8_t count;
  uint8_t size_class;
  uint8_t direction;  // AdjacencyList
  uint8_t flags;      // kBlockCompacted, kBlockNaive
  uint32_t crc;       // of header (crc field zero) and the count entries (naive mode: rewritten with each entry)
};
inline constexpr uint8_t kBlockCompacted = 1;  // first block of a compacted run
inline constexpr uint8_t kBlockNaive = 2;      // written in place by the naive baseline

// The largest block; smaller ones are its first 64 or 128 bytes. `count` counts words: in a
// weighted store each entry is two, the neighbour and its weight.
struct AdjacencyBlock {
  BlockHeader header;
  uint32_t entries[kBlockEntries];  // neighbour ids, bit 31: tombstone (each followed by a weight when weighted)
};
static_assert(sizeof(AdjacencyBlock) == kXPLineBytes);

uint32_t block_crc(const AdjacencyBlock& block);

// A table copy: out heads then in heads, a u32 unit index per vertex each.
inline constexpr uint64_t chain_table_bytes(const StoreGeometry& g) { return g.vertices * 8; }

}  // namespace graphso::store
