// The evolving-graph store on PMEM (docs/store.md), one face for every store mode: edges are
// logged and acknowledged in batches, then kept as the mode keeps them, and made recoverable by
// checkpoints. The modes and what each keeps: store/store_modes.h; what the face asks of one:
// store/store_mode.h.
//
// One writer per store: create() and open() take the store's WriterLock (a second writer, in
// this process or another, gets a one-line error); snapshots and store-stat read beside it.
// Threads: one caller at a time. Buffering (merging) runs `threads` OpenMP threads. DRAM: as the
// mode says (docs/store.md), bounded by StoreOptions::buffer_memory where it buffers.
//
// A store grows on demand (store/store_growth.cc): an edge naming a vertex past its capacity, or a
// batch it has no room for, rebuilds it into a larger file of the same mode, renamed over the old
// one; the sizes given at creation are only where it starts.
//
// After an error (a failed persist, a full device) the object must be dropped: what is durable is
// what open() recovers.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/types.h"
#include "store/store_modes.h"
#include "store/store_writer.h"

namespace graphso::store {

class StoreView;

// Throws on an option no store can run with (threads, buffer size, crash point); create() and
// open() check it too, before they change anything.
void check_store_options(const StoreOptions& options);

// Sizes for a store of `mode` that will hold `edges` edges over `vertices` vertices (weighted:
// with their weights, which doubles the entries' size).
StoreGeometry default_geometry(uint64_t vertices, uint64_t edges, uint64_t log_slots, bool weighted = false,
                               StoreMode mode = kDefaultStoreMode);

class GraphStore {
 public:
  // Creates a new store file (an existing one is an error) and opens it.
  static std::unique_ptr<GraphStore> create(const std::string& path, const StoreGeometry& geometry, StoreMode mode,
                                            const StoreOptions& options);
  // The same, but null when the store exists, also when another process created it after the
  // caller looked: the caller opens it instead (two first ingests racing both succeed or meet the
  // writer lock, never "it exists").
  static std::unique_ptr<GraphStore> create_if_missing(const std::string& path, const StoreGeometry& geometry,
                                                       StoreMode mode, const StoreOptions& options);
  // Opens a store, recovering after a crash: the checkpoint in force, then the log replayed.
  static std::unique_ptr<GraphStore> open(const std::string& path, const StoreOptions& options);
  ~GraphStore();

  // Durable on return (group commit). An id at or past the store's vertex count grows it (to the
  // next power of two above the id; ids stay below 2^31). A weighted
  // store keeps each edge's weight (1 for edges given without one); an unweighted store keeps
  // none.
  void add_edges(std::span<const WeightedEdge> edges);
  void add_edges(std::span<const Edge> edges);
  void add_edge(VertexId src, VertexId dst, Weight weight = 1);
  // A deletion removes the earliest live occurrence of the edge, whatever its weight; deleting an
  // absent edge does nothing. Its ids must be below the store's vertex count.
  void del_edges(std::span<const WeightedEdge> edges);
  void del_edges(std::span<const Edge> edges);
  void del_edge(VertexId src, VertexId dst);

  // Neighbour multisets, merging PMEM blocks, DRAM buffers and logged unbuffered edges; sorted.
  std::vector<VertexId> out_neighbours(VertexId v) const;
  std::vector<VertexId> in_neighbours(VertexId v) const;
  // The same with each edge's weight (1 in an unweighted store), sorted.
  std::vector<std::pair<VertexId, Weight>> out_edges(VertexId v) const;
  std::vector<std::pair<VertexId, Weight>> in_edges(VertexId v) const;

  // Moves every logged edge into the vertex buffers.
  void buffer_all_edges();
  // Buffers everything, flushes every vertex buffer into blocks and commits a checkpoint: the log
  // is then free up to the head, and the DRAM buffers empty.
  void flush_to_blocks();

  // XPGraph's names for the same calls (the paper's API, docs/store.md).
  std::vector<VertexId> get_nebrs_out(VertexId v) const { return out_neighbours(v); }
  std::vector<VertexId> get_nebrs_in(VertexId v) const { return in_neighbours(v); }
  void flush_all_vbufs() { flush_to_blocks(); }
  // Rewrites every vertex's chains as runs of full blocks with deletions applied; checkpointed.
  void compact();
  // Records a clean close, for a mode read only after one (StoreModeEntry::clean_close_only).
  void close();

  // Resumable ingest: the input records (the current one, if any, and which slot is damaged).
  InputRecords input() const;
  // Records `input` as the current one, its first `already_logged` edges being the last ones
  // logged (0: it starts at the head).
  void begin_input(InputProgress input, uint64_t already_logged = 0);

  // Rebuilds the store now, with room for `vertices` (at least its own), its block region as it is:
  // what growth does on demand. The copy is compact: it leaves behind what deletions freed.
  void rebuild(uint64_t vertices);
  // Rebuilds the store into a file sized for its live edges (smaller when deletions, relocations
  // and merges left space behind): `graphso store-compact`.
  void reclaim();

  StoreStatus status() const;
  const StoreHeader& header() const;
  const std::string& path() const;

 private:
  GraphStore(std::unique_ptr<StoreWriter> impl, const StoreOptions& options);
  GraphStore(std::string path, const StoreOptions& options);  // no writer yet: recovery grows it first
  // The mode's writer; an error when a failed growth could not reopen the store.
  StoreWriter& writer() const;
  static std::unique_ptr<GraphStore> open_locked(WriterLock lock, const std::string& path, const StoreOptions& options);
  // The mode's writer over a locked store file (recovering it).
  static std::unique_ptr<StoreWriter> open_writer(WriterLock lock, const std::string& path, const StoreOptions& options);
  // Sizes the locked, empty file at `file` for `header`'s geometry and writes its superblock and log
  // head; errors name `store`.
  static void format_file(const WriterLock& lock, const std::string& file, const std::string& store,
                          const StoreHeader& header, const StoreOptions& options);

  template <typename EdgeRecord>
  void write(std::span<const EdgeRecord> edges, bool deletes);
  // Runs a step that writes no new edges (buffering, a checkpoint, compaction); a store it finds
  // full grows instead, and the rebuilt store has everything checkpointed and compact.
  void with_room(const std::function<void()>& step);
  // Rebuilds the store into a larger file (store_growth.cc); returns the log head it kept.
  struct Growth {
    uint64_t vertices = 0;  // at least
    bool space = false;     // the store was full: at least twice its block region
    bool fit = false;       // sized for its live edges, smaller than it was if they need less
    bool larger = false;    // full again right after a rebuild that only gave space back: grow
  };
  uint64_t grow(const Growth& growth);
  // The copy and its accounting, with the store's lock in hand and no writer open.
  uint64_t grow_locked(WriterLock& lock, const Growth& growth);
  // The old store's graph at its durable version into a new file, renamed over it; `lock` is then
  // the new file's. On an error the old store is untouched and `lock` still its lock.
  uint64_t copy_into_larger(WriterLock& lock, const Growth& growth);
  // The view's graph into a new store file at `temp` (locked by `lock`, which stays its lock);
  // returns the edges copied.
  uint64_t build_copy(const StoreView& view, WriterLock& lock, const std::string& temp, const StoreHeader& header,
                  const StoreOptions& options);

  std::unique_ptr<StoreWriter> impl_;  // the mode's writer
  std::string path_;
  StoreOptions options_;
  uint64_t growths_ = 0, growth_edges_ = 0;
  PersistStats retired_persisted_;  // by the writers growth replaced (status() counts this process's)
  uint64_t retired_checkpoints_ = 0;
  double growth_seconds_ = 0;
};

}  // namespace graphso::store
