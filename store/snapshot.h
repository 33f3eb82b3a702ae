// A consistent read of a store's graph by another process while ingest may go on (docs/store.md,
// "Snapshots"): its store view (store/store_view.h) at the persisted head S, every source's
// out-edges in order. The result is the graph after the first S logged edges.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "base/types.h"
#include "store/store_view.h"

namespace graphso::store {

struct SnapshotInfo {
  uint64_t store_id = 0;
  uint64_t position = 0;  // S: the log position the snapshot is consistent at
  uint64_t vertices = 0;
  bool weighted = false;  // the store keeps weights (else every edge has weight 1)
  uint64_t edges = 0;     // live edges written
  uint64_t blocks = 0;    // adjacency blocks the out-chains reach
  uint64_t block_bytes = 0;  // and their size
  uint64_t in_edges = 0;     // with SnapshotConsumer::in_edges: the same from the in-chains
  uint64_t in_blocks = 0;
  uint64_t in_block_bytes = 0;
  uint64_t checkpoint_seq = 0;  // the checkpoint the read started from
  uint32_t attempts = 0;  // reads made: more than one when a checkpoint moved underneath
};

// Receives the snapshot's live edges, grouped by source in increasing order. A consumer is told
// where an attempt starts (begin) so it can drop what a failed attempt gave it.
struct SnapshotConsumer {
  std::function<void()> begin;
  std::function<void(std::span<const WeightedEdge>)> edges;  // weight 1 from an unweighted store
  // When set, the same position is also read through the in-chains (and the log by destination):
  // the same edges, grouped by destination. store-check compares the two.
  std::function<void(std::span<const WeightedEdge>)> in_edges;
};

// Reads the graph at the store's persisted head (deletions applied) into `consumer`.
SnapshotInfo scan_snapshot(const std::string& store_path, const SnapshotConsumer& consumer);
// The same at an open view's version.
SnapshotInfo scan_snapshot(const StoreView& view, const SnapshotConsumer& consumer);

// The store's identity and persisted head, read without a full snapshot.
SnapshotInfo peek_snapshot_position(const std::string& store_path);

// Writes the live edges (deletions applied) as a graphso edge list at edge_list_path, weighted
// when the store is.
SnapshotInfo write_snapshot_edges(const std::string& store_path, const std::string& edge_list_path);

}  // namespace graphso::store
