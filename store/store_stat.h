// What a store holds, read only from what is persisted (`graphso store-stat`), so it may run
// while another process ingests. The live edges and blocks are counted at the same consistent
// position a snapshot would use.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
  std::vector<StatLine> mode_lines;   // what the mode adds (StoreView::stat_lines)

  // The mode's line `key` as a number (0 when it has none).
  double mode_value(std::string_view key) const {
    for (const StatLine& l : mode_lines)
      if (l.key == key) return std::stod(l.value);
    return 0;
  }
  uint64_t log_unflushed() const { return log_head - std::min(log_head, checkpoint.flushed); }
  uint64_t block_bytes_free() const { return block_bytes_capacity - std::min(block_bytes_capacity, block_bytes_used); }
};

StoreStat read_store_stat(const std::string& store_path);

}  // namespace graphso::store
