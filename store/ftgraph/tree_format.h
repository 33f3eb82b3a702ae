// ftgraph's on-PMEM records (docs/store.md, "The ftgraph mode").
#pragma once

#include <cstdint>

#include "store/store_format.h"

namespace graphso::store {

// ftgraph mode: no log and no checkpoints. Each vertex's out-edges and in-edges
// are a degree-aware suffix-bit tree of nodes in the block region, found through the vertex array
// (table copy 0: a VertexWord per vertex and direction, out then in). A node is a header line,
// a line of fingerprints, in a weighted store a line of entry checks, then 64 entry slots (a u32
// neighbour, or a u64 neighbour | weight << 32). A root holds 16, 32, then 64 edges in place; a
// full node branches: its children (2 up to level 2, then 4) are allocated together, and an edge
// goes down by its neighbour's low bits. The log head word counts operations applied.
inline constexpr uint32_t kTreeSlots = 64;
inline constexpr uint32_t kTreeBinaryLevels = 3;  // levels 0-2 branch two ways, deeper ones four
struct TreeNodeHeader {
  uint64_t next;     // children: unit | check << 32 (tree_link), 0 when none
  uint64_t locate;   // slots taken or being written; equal to `set` when no batch is under way
  uint64_t set;      // slots holding an edge: bit i set (one 8-byte store) commits slot i
  uint64_t version;  // odd while a batch changes the node; a reader retries when it moved
  uint64_t size;     // slots in use: 16, 32 or 64 (a root grows in place), 64 below the root
  uint32_t owner;    // vertex
  uint8_t direction; // AdjacencyList
  uint8_t level;
  uint16_t reserved;
  uint32_t path;     // the low bits its neighbours share (the first tree_shift(level) bits)
  uint32_t check;    // CRC-32C of owner, direction, level, path
  uint64_t pad;
};
static_assert(sizeof(TreeNodeHeader) == 64);
inline constexpr uint32_t tree_fanout(uint32_t level) { return level < kTreeBinaryLevels ? 2 : 4; }
// Neighbour bits a node at `level` shares with its siblings' parent path: its children split on
// the next tree_fanout(level) / 2 bits above these.
inline constexpr uint32_t tree_shift(uint32_t level) {
  return level <= kTreeBinaryLevels ? level : kTreeBinaryLevels + 2 * (level - kTreeBinaryLevels);
}
inline constexpr uint32_t kTreeMaxLevel = 17;  // tree_shift reaches 31 bits: every id's path is distinct
// 64-byte units of a node: header, fingerprints, (entry checks,) entries.
inline constexpr uint64_t tree_node_units(bool weighted) { return weighted ? 3 + 8 : 2 + 4; }

// A single table copy: a VertexWord per vertex and direction.
inline constexpr uint64_t tree_table_bytes(const StoreGeometry& g) { return 2 * g.vertices * sizeof(uint64_t); }

// The words after the log head (each encoded as the head is): the batch being applied (every
// operation before the head may be in the trees; equal to the head when no batch is under way);
// block units [1, allocated) hold the nodes of every batch before the head, persisted before it;
// how many vertices have an out-tree, and an in-tree (persisted with the allocation mark): a reader
// of a store at rest counts the roots against them, so a zeroed piece of the vertex array is an
// error, not a smaller graph.
inline uint64_t applying_word(const StoreLayout& l) { return l.head_word(1); }
inline uint64_t allocated_word(const StoreLayout& l) { return l.head_word(2); }
inline uint64_t tree_count_word(const StoreLayout& l, AdjacencyList d) { return l.head_word(d == AdjacencyList::Out ? 3 : 4); }

}  // namespace graphso::store
