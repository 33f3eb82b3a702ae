#include "prep/graph_prep.h"

#include <omp.h>

#include <filesystem>
#include <optional>

#include "base/enum_names.h"
#include "base/error.h"
#include "base/file.h"
#include "base/graph_files.h"
#include "engine/gridgraph/grid_engine.h"
#include "engine/gridgraph/grid_graph.h"
#include "engine/xstream/xstream_engine.h"
#include "engine/xstream/xstream_layout.h"
#include "middleware/tchunk.h"

namespace graphso {

namespace {
constexpr EnumName<LayoutSet> kLayoutSetNames[] = {
    {LayoutSet::GridGraph, "gridgraph"}, {LayoutSet::XStream, "xstream"}, {LayoutSet::Both, "both"}};
}  // namespace

LayoutSet parse_layout_set(const std::string& name) { return parse_enum<LayoutSet>(kLayoutSetNames, name, "engine layout"); }

PrepSummary prepare_graph(const std::string& edge_list_path, const std::string& dir, const PrepOptions& options) {
  PrepSummary summary;
  summary.order_cost = prepare_grid(edge_list_path, dir, options.grid);
  GridGraph graph = GridGraph::open(dir);
  const GridMeta& m = graph.meta();
  summary.vertices = m.vertices;
  summary.edges = m.edges;
  summary.partitions = m.partitions;

  std::optional<XStreamLayout> streaming;
  if (options.layouts != LayoutSet::GridGraph) {
    XStreamLayout::write(graph);
    streaming = XStreamLayout::open(graph);
    summary.xstream_partitions = streaming->partitions();
  }
  if (!options.tchunk_tables) return summary;
  const uint64_t chunk_bytes = options.chunk_bytes ? options.chunk_bytes
                                                   : default_chunk_bytes(m.edges * m.edge_size(), m.vertices, omp_get_num_procs());
  if (chunk_bytes < m.edge_size()) fail("--chunk-size {} is smaller than one edge", chunk_bytes);
  std::vector<EngineLayout> layouts = {gridgraph_layout(graph)};
  if (streaming) layouts.push_back(xstream_layout(graph, *streaming));
  for (const EngineLayout& layout : layouts) {
    const TChunkTable table = TChunkTable::build_and_save(layout, chunk_bytes, 0);
    summary.tables.push_back({GraphFiles::tchunk_name(layout.name, chunk_bytes), table.chunks().size(), chunk_bytes});
  }
  return summary;
}

void check_replaceable_graph_dir(const std::string& dir, const std::string& command) {
  std::error_code error;
  if (!std::filesystem::exists(dir, error)) return;
  if (!std::filesystem::is_directory(dir, error) ||
      (!std::filesystem::is_empty(dir, error) && !path_exists(GraphFiles(dir).meta())))
    fail("{}: {} exists and is not a prepared graph directory; choose a new or empty directory", command, dir);
}

}  // namespace graphso
