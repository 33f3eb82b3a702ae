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
#include "middleware/chunk_size.h"
#include "middleware/tchunk.h"

namespace graphso {

namespace {
constexpr EnumName<LayoutSet> kLayoutSetNames[] = {
    {LayoutSet::GridGraph, "gridgraph"}, {LayoutSet::XStream, "xstream"}, {LayoutSet::Both, "both"}};
}  // namespace

LayoutSet parse_layout_set(const std::string& name) { return parse_enum<LayoutSet>(kLayoutSetNames, name, "engine layout"); }

PrepSummary prepare_graph(const std::string& edge_list_path, const std::string& dir, const PrepOptions& options) {
  // Every step, with its cost in passes over the edges (read or written), for one overall ETA.
  std::vector<double> costs;
  if (options.grid.order != OrderKind::Natural) costs.push_back(options.grid.order == OrderKind::Bfs ? 3 : 1);
  costs.insert(costs.end(), {1, 2, 3});  // count; scatter (read, write); sort (read, write both files)
  const bool streaming_layout = options.layouts != LayoutSet::GridGraph;
  if (streaming_layout) costs.push_back(2);
  if (options.tchunk_tables) costs.insert(costs.end(), streaming_layout ? 2 : 1, 1.0);
  const ProgressPlan plan("prep", costs);
  PrepSummary summary;
  summary.order_cost = prepare_grid(edge_list_path, dir, options.grid, plan.step(0));
  uint32_t next_step = grid_prep_steps(options.grid);
  GridGraph graph = GridGraph::open(dir);
  const GridMeta& m = graph.meta();
  summary.vertices = m.vertices;
  summary.edges = m.edges;
  summary.partitions = m.partitions;

  std::optional<XStreamLayout> streaming;
  if (streaming_layout) {
    ++next_step;  // the X-Stream layout shows no progress of its own; its time counts in the ETA
    XStreamLayout::write(graph);
    streaming = XStreamLayout::open(graph);
    summary.xstream_partitions = streaming->partitions();
  }
  // The default chunk size is recorded even without tables: the first chunk-mode run builds its
  // table at that size.
  const GraphFiles files(dir);
  ChunkSizeChoice choice;
  if (options.chunk_bytes == 0) {
    choice = measure_chunk_bytes(files.grid_row(), ReaderOptions{}, options.device_sample_bytes);
  } else {
    choice = requested_chunk_size(options.chunk_bytes, files, m.edges * m.edge_size(), m.vertices, omp_get_num_procs());
    choice.basis = "given to prep: " + choice.basis;
  }
  const uint64_t chunk_bytes = choice.bytes;
  if (chunk_bytes < m.edge_size()) fail("--chunk-size {} is smaller than one edge", chunk_bytes);
  record_chunk_size(files, choice);
  summary.chunk_bytes = chunk_bytes;
  summary.chunk_size_basis = choice.basis;
  if (!options.tchunk_tables) return summary;
  std::vector<EngineLayout> layouts = {gridgraph_layout(graph)};
  if (streaming) layouts.push_back(xstream_layout(graph, *streaming));
  for (const EngineLayout& layout : layouts) {
    const TChunkTable table = TChunkTable::build_and_save(layout, chunk_bytes, 0, plan.step(next_step++));
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
