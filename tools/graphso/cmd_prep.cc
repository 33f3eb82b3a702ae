// graphso prep EDGES.bin -o GRAPH_DIR [--engine gridgraph|xstream|both] [--partitions P] [--order natural|degree|bfs]
#include <omp.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <optional>

#include "base/progress.h"
#include "base/staging.h"
#include "engine/gridgraph/grid_graph.h"
#include "prep/grid_prep.h"
#include "engine/xstream/xstream_layout.h"
#include "engine/gridgraph/grid_engine.h"
#include "engine/xstream/xstream_engine.h"
#include "middleware/tchunk.h"
#include "tools/graphso/options.h"

namespace graphso {

int cmd_prep(const Args& args) {
  po::options_description options("prep options");
  std::string input, output, engine, staging, chunk_size, order;
  GridPrepOptions prep;
  options.add_options()
      ("input", po::value(&input)->required(), "graphso edge list (from convert or generate)")
      ("output,o", po::value(&output)->required(), "graph directory to write")
      ("engine", po::value(&engine)->default_value("gridgraph"),
       "layouts to write: gridgraph|xstream|both (the grid is always written: xstream derives from it)")
      ("partitions,p", number(&prep.partitions)->default_value(0), "P for the P x P grid (0: automatic)")
      ("order", po::value(&order)->default_value("natural"), "relabel vertices first: natural|degree|bfs (see docs/middleware.md)")
      ("order-root", number<uint64_t>(), "bfs order: start from this vertex (original id), e.g. where traversals start")
      ("staging", po::value(&staging)->default_value("256M"), "memory for scattering edges to blocks")
      ("chunk-size", po::value(&chunk_size), "also build the TChunk table for this chunk size (default: Formula (1))")
      ("no-chunks", po::bool_switch(), "do not build a TChunk table now (chunk mode builds it on first use)");
  po::positional_options_description positional;
  positional.add("input", 1);
  po::variables_map vm;
  if (!parse_options("prep", "EDGES.bin -o GRAPH_DIR [options]", args, options, positional, vm)) return 0;
  if (engine != "gridgraph" && engine != "xstream" && engine != "both")
    fail("prep: unknown engine layout '{}' (expected gridgraph, xstream or both)", engine);
  const bool xstream = engine != "gridgraph";
  if (prep.partitions > 4096) fail("prep: --partitions {} is above the maximum of 4096", prep.partitions);
  prep.staging_bytes = parse_size(staging, "--staging");
  prep.order = parse_order(order);
  if (vm.count("order-root")) {
    if (prep.order != OrderKind::Bfs) fail("prep: --order-root needs --order bfs");
    uint64_t root = vm["order-root"].as<uint64_t>();
    if (root > kMaxVertexId) fail("prep: --order-root {} is not a vertex id", root);
    prep.order_root = static_cast<VertexId>(root);
  }
  // Prepared beside the target and swapped in whole at the end: a failed, full-disk or killed
  // prep leaves an earlier graph in the target as it was. Only a graph directory (or an empty
  // one) is ever replaced.
  output = normal_path(output);
  std::error_code error;
  if (std::filesystem::exists(output, error) &&
      (!std::filesystem::is_directory(output, error) ||
       (!std::filesystem::is_empty(output, error) && !path_exists(output + "/meta"))))
    fail("prep: {} exists and is not a prepared graph directory; choose a new or empty directory", output);
  StagedDirectory staged(output);
  OrderCost cost = prepare_grid(input, staged.path(), prep);
  GridGraph graph = GridGraph::open(staged.path());
  const GridMeta& m = graph.meta();
  std::printf("%s: %llu vertices, %llu edges, %u x %u grid\n", output.c_str(),
              static_cast<unsigned long long>(m.vertices), static_cast<unsigned long long>(m.edges),
              m.partitions, m.partitions);
  if (prep.order != OrderKind::Natural)
    std::printf("%s: vertex order %s computed in %.2f s with %s of memory\n", output.c_str(), order_name(prep.order),
                cost.seconds, human_bytes(static_cast<double>(cost.memory_bytes)).c_str());
  std::optional<XStreamLayout> streaming;
  if (xstream) {
    XStreamLayout::write(graph);
    streaming = XStreamLayout::open(graph);
    std::printf("%s: X-Stream layout, %u streaming partitions\n", output.c_str(), streaming->partitions());
  }
  if (!vm["no-chunks"].as<bool>()) {
    uint64_t chunk_bytes = chunk_size.empty() ? default_chunk_bytes(m.edges * m.edge_size(), m.vertices, omp_get_num_procs())
                                              : parse_size(chunk_size, "--chunk-size");
    if (chunk_bytes < m.edge_size()) fail("prep: --chunk-size {} is smaller than one edge", chunk_bytes);
    std::vector<EngineLayout> layouts = {gridgraph_layout(graph)};
    if (streaming) layouts.push_back(xstream_layout(graph, *streaming));
    for (const EngineLayout& layout : layouts) {
      TChunkTable table = TChunkTable::build(layout, chunk_bytes);
      table.save(layout);
      std::printf("%s/%s%llu: %zu chunks of %s\n", output.c_str(), TChunkTable::file_prefix(layout).c_str(),
                  static_cast<unsigned long long>(chunk_bytes), table.chunks().size(),
                  human_bytes(static_cast<double>(chunk_bytes)).c_str());
    }
  }
  staged.publish();
  return 0;
}

}  // namespace graphso
