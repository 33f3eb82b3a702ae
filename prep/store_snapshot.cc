#include "prep/store_snapshot.h"

#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "base/error.h"
#include "base/file.h"
#include "base/graph_files.h"
#include "base/packed_pages.h"
#include "base/staging.h"
#include "base/vertex_order.h"
#include "engine/xstream/xstream_layout.h"

namespace graphso {
namespace {

namespace fs = std::filesystem;

struct Marker {
  uint64_t store_id = 0;
  uint64_t position = 0;
  std::string layout;  // layout_of(the options it was prepared with)
};

// The options that shape a prepared graph, as the snapshot's marker records them: asked for
// again with others, the snapshot is rebuilt.
std::string layout_of(const PrepOptions& options) {
  const GridPrepOptions& g = options.grid;
  return fmt::format("encoding={} partitions={} order={} order_root={} chunk_bytes={} tchunk_tables={}",
                     encoding_name(g.encoding), g.partitions, order_name(g.order),
                     g.order_root == kNoVertex ? std::string("none") : std::to_string(g.order_root), options.chunk_bytes,
                     options.tchunk_tables ? 1 : 0);
}

bool read_marker(const GraphFiles& files, Marker& marker) {
  const std::string path = files.store_marker();
  if (!path_exists(path)) return false;
  std::istringstream in(read_small_file(path));
  std::string key;
  bool id = false, position = false;
  while (in >> key) {
    if (key == "store_id:") id = static_cast<bool>(in >> marker.store_id);
    else if (key == "position:") position = static_cast<bool>(in >> marker.position);
    else if (key == "layout:") std::getline(in >> std::ws, marker.layout);
    else in.ignore(1 << 20, '\n');
  }
  return id && position;
}

}  // namespace

StoreSnapshotResult snapshot_store(const std::string& store_path, const std::string& target_dir,
                                   const PrepOptions& options) {
  const GraphFiles target(target_dir);
  const std::string& graph_dir = target.dir();
  StoreSnapshotResult result;
  Marker marker;
  store::SnapshotInfo now = store::peek_snapshot_position(store_path);
  const bool is_snapshot = read_marker(target, marker);
  const bool has_layouts = options.layouts == LayoutSet::GridGraph || XStreamLayout::exists(graph_dir);
  const std::string layout = layout_of(options);
  if (is_snapshot && marker.store_id == now.store_id && marker.position == now.position &&
      path_exists(target.meta()) && has_layouts) {
    result.info = now;
    if (marker.layout == layout) return result;
    result.layout_changed = true;
  }
  // The directory is replaced whole: only an earlier snapshot may be replaced, never other data.
  std::error_code error;
  if (!is_snapshot && fs::exists(graph_dir) && !fs::is_empty(graph_dir, error))
    fail("{}: exists and is not a store snapshot; choose another directory", graph_dir);
  // Built beside the target and swapped in whole: an interrupted snapshot leaves the old one.
  StagedDirectory staged(graph_dir);
  const GraphFiles files(staged.path());
  try {
    result.info = store::write_snapshot_edges(store_path, files.snapshot_edges());
    prepare_graph(files.snapshot_edges(), files.dir(), options);
    ::unlink(files.snapshot_edges().c_str());
    AtomicOutputFile out(files.store_marker());
    out.append(fmt::format("store: {}\nstore_id: {}\nposition: {}\nedges: {}\nlayout: {}\n", store_path,
                           result.info.store_id, result.info.position, result.info.edges, layout));
    out.commit();
    staged.publish();
  } catch (const fs::filesystem_error& e) {
    fail("{}: cannot write the snapshot: {}", graph_dir, e.code().message());
  }
  result.rebuilt = true;
  return result;
}

}  // namespace graphso
