// `graphso snapshot`: the store's graph at one log position, as a prepared graph directory (grid +
// TChunk table) that `graphso run` takes. The directory remembers which store and position it
// holds (file store.snapshot), so a snapshot of an unchanged store is not rebuilt.
#pragma once

#include <cstdint>
#include <string>

#include "store/snapshot.h"

namespace graphso {

struct StoreSnapshotOptions {
  uint32_t partitions = 0;  // 0: automatic
  uint64_t chunk_bytes = 0;  // 0: Formula (1)
};

struct StoreSnapshotResult {
  store::SnapshotInfo info;
  bool rebuilt = false;  // false: graph_dir already held this store at this position
};

StoreSnapshotResult snapshot_store(const std::string& store_path, const std::string& graph_dir,
                                   const StoreSnapshotOptions& options);

}  // namespace graphso
