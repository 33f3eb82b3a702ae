// The ftgraph store mode (FTGraph on PMEM, docs/store.md "ftgraph"): no edge log, no DRAM
// buffers, no checkpoints. Each vertex's out-edges and in-edges are a degree-aware suffix-bit tree
// (store_format.h, store/ftgraph/tree_nodes.h) changed in place, with set semantics: an edge
// already present is not inserted again (its first weight stays), a deletion clears its slot's bit.
//
// A batch is durable through the bitmaps alone. Persist order: the batch's end position in the
// `applying` word; every new entry (with its fingerprint and check) and every new node's header;
// then each changed node's set bitmap (one 8-byte store per node, which commits all of its slots
// at once) with the vertex array words of new roots and the allocation mark; then the head. A
// crash leaves the head's graph with part of the batch applied: recovery makes every node's locate
// bitmap its set bitmap again and the batch, replayed from the head (ingest resumes there), lands
// on the same set. Readers in other processes see a consistent version through the operation
// ring (store/ftgraph/op_ring.h).
//
// Threads: a batch's out-trees are changed by `threads` threads, each the sources v with
// v % threads its own, then its in-trees by destination; no node has two writers. DRAM: 8 bytes
// per vertex and direction (the roots), and per batch a few words per operation.
#pragma once

#include <cstdint>
#include <memory>

#include "store/store_mode.h"
#include "store/store_writer.h"

namespace graphso::store {

// Block units an ftgraph store of `vertices` and `edges` is given: a root for every vertex and
// direction, a node for every 16 entries beyond, and some to spare.
uint64_t ftgraph_units(uint64_t vertices, uint64_t edges, bool weighted);

// Operations applied (and persisted) at once.
inline constexpr ModeOption kApplyBatchOption{"apply-batch", "operations applied (and persisted) in one pass over the trees",
                                              uint64_t{1} << 20, 1};

// Power-cut points of its own: a batch's entries and new nodes persisted, no set bit yet; its set
// bitmaps persisted, the head not yet; and in the bitmaps' persist, every other 64-byte line of
// it reached the media (headers, vertex array words, the allocation mark), the rest not.
inline constexpr const char* kTreeEntriesPoint = "tree-entries";
inline constexpr const char* kTreeBitmapsPoint = "tree-bitmaps";
inline constexpr const char* kTreeBitmapsTornPoint = "tree-bitmaps-torn";

extern const StoreModeEntry kFtgraphMode;  // store/store_mode.h

// Opens (and recovers) an ftgraph store; the caller holds its writer lock.
std::unique_ptr<StoreWriter> open_ftgraph_store(WriterLock lock, PmemFile file, const StoreHeader& header,
                                                const StoreOptions& options);

}  // namespace graphso::store
