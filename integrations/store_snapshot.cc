#include "integrations/store_snapshot.h"

#include <omp.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "base/error.h"
#include "base/file.h"
#include "base/staging.h"
#include "engine/gridgraph/grid_graph.h"
#include "prep/grid_prep.h"
#include "engine/gridgraph/grid_engine.h"
#include "middleware/tchunk.h"

namespace graphso {
namespace {

namespace fs = std::filesystem;

constexpr const char* kMarkerFile = "store.snapshot";

struct Marker {
  uint64_t store_id = 0;
  uint64_t position = 0;
};

bool read_marker(const std::string& graph_dir, Marker& marker) {
  std::string path = graph_dir + "/" + kMarkerFile;
  if (!path_exists(path)) return false;
  std::istringstream in(read_small_file(path));
  std::string key;
  bool id = false, position = false;
  while (in >> key) {
    if (key == "store_id:") id = static_cast<bool>(in >> marker.store_id);
    else if (key == "position:") position = static_cast<bool>(in >> marker.position);
    else in.ignore(1 << 20, '\n');
  }
  return id && position;
}

}  // namespace

StoreSnapshotResult snapshot_store(const std::string& store_path, const std::string& target_dir,
                                   const StoreSnapshotOptions& options) {
  const std::string graph_dir = normal_path(target_dir);
  StoreSnapshotResult result;
  Marker marker;
  store::SnapshotInfo now = store::peek_snapshot_position(store_path);
  const bool is_snapshot = read_marker(graph_dir, marker);
  if (is_snapshot && marker.store_id == now.store_id && marker.position == now.position &&
      path_exists(graph_dir + "/meta")) {
    result.info = now;
    return result;
  }
  // The directory is replaced whole: only an earlier snapshot may be replaced, never other data.
  std::error_code error;
  if (!is_snapshot && fs::exists(graph_dir) && !fs::is_empty(graph_dir, error))
    fail("{}: exists and is not a store snapshot; choose another directory", graph_dir);
  // Built beside the target and swapped in whole: an interrupted snapshot leaves the old one.
  StagedDirectory staged(graph_dir);
  const std::string& staging = staged.path();
  try {
    const std::string edges = staging + "/snapshot.edges.bin";
    result.info = store::write_snapshot_edges(store_path, edges);
    GridPrepOptions prep;
    prep.partitions = options.partitions;
    prepare_grid(edges, staging, prep);
    ::unlink(edges.c_str());
    GridGraph graph = GridGraph::open(staging);
    const GridMeta& m = graph.meta();
    uint64_t chunk_bytes = options.chunk_bytes ? options.chunk_bytes
                                               : default_chunk_bytes(m.edges * m.edge_size(), m.vertices, omp_get_num_procs());
    EngineLayout layout = gridgraph_layout(graph);
    TChunkTable::build(layout, chunk_bytes).save(layout);
    AtomicOutputFile out(staging + "/" + kMarkerFile);
    out.append(fmt::format("store: {}\nstore_id: {}\nposition: {}\nedges: {}\n", store_path, result.info.store_id,
                           result.info.position, result.info.edges));
    out.commit();
    staged.publish();
  } catch (const fs::filesystem_error& e) {
    fail("{}: cannot write the snapshot: {}", graph_dir, e.code().message());
  }
  result.rebuilt = true;
  return result;
}

}  // namespace graphso
