// `graphso snapshot`: the store's graph at one log position, as a prepared graph directory that
// `graphso run` takes, written by the same prep library as `graphso prep` (the grid, the X-Stream
// layout when asked, TChunk tables). The directory remembers which store and position it holds
// (GraphFiles::store_marker), so a snapshot of an unchanged store is not rebuilt.
#pragma once

#include <cstdint>
#include <string>

#include "prep/graph_prep.h"
#include "store/snapshot.h"

namespace graphso {

struct StoreSnapshotResult {
  store::SnapshotInfo info;
  bool rebuilt = false;  // false: graph_dir already held this store at this position, so laid out
  bool layout_changed = false;  // rebuilt only because other layout options were asked for
};

// A snapshot already in graph_dir is kept when it holds the same store at the same position, laid
// out with the same options (encoding, partitions, order, chunk size) and the layouts asked for;
// otherwise graph_dir (missing, empty or an earlier snapshot) is replaced.
StoreSnapshotResult snapshot_store(const std::string& store_path, const std::string& graph_dir,
                                   const PrepOptions& options);

}  // namespace graphso
