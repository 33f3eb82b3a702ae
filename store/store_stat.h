// What a store holds, read only from what is persisted (`graphso store-stat`), so it may run
// while another process ingests. The live edges and blocks are counted at the same consistent
// position a snapshot would use.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "store/snapshot.h"
#include "store/store_meta.h"
#include "store/store_view.h"

namespace graphso::store {

struct StoreStat {
  StoreHeader header;
  SnapshotInfo snapshot;  // live edges and blocks, and the position they are counted at
  Checkpoint checkpoint;
  std::optional<InputProgress> input;
  uint64_t log_head = 0;
  uint64_t file_bytes = 0;
  uint64_t block_bytes_used = 0;      // block units the checkpoint may reach
  uint64_t block_bytes_capacity = 0;
  uint64_t bytes_used = 0;            // every region before the blocks, and the blocks used
  uint64_t input_acknowledged = 0;    // of `input`'s edges
  SectionStats sections;              // dgap: the edge array (all zero in the other modes)
  PlacementStats placement;           // gear: lists in subpages, page wear (all zero in the others)
  TreeStats trees;                    // ftgraph: the trees' shape (all zero in the others)
  uint64_t applying = 0;              // ftgraph: the end of a batch under way (the head when none is)

  uint64_t log_unflushed() const { return log_head - std::min(log_head, checkpoint.flushed); }
  uint64_t block_bytes_free() const { return block_bytes_capacity - std::min(block_bytes_capacity, block_bytes_used); }
};

StoreStat read_store_stat(const std::string& store_path);

}  // namespace graphso::store
