// graphso prep EDGES.bin -o GRAPH_DIR [--engine gridgraph|xstream|both] [--partitions P] [--order natural|degree|bfs]
#include <cstdio>

#include "base/progress.h"
#include "base/staging.h"
#include "tools/graphso/layout_options.h"

namespace graphso {

int cmd_prep(const Args& args) {
  po::options_description options("prep options");
  std::string input, output, staging, order;
  PrepOptions prep;
  LayoutOptions layout;
  options.add_options()
      ("input", po::value(&input)->required(), "graphso edge list (from convert or generate)")
      ("output,o", po::value(&output)->required(), "graph directory to write");
  layout.add_to(options, prep);
  options.add_options()
      ("order", po::value(&order)->default_value("natural"), "relabel vertices first: natural|degree|bfs (see docs/middleware.md)")
      ("order-root", number<uint64_t>(), "bfs order: start from this vertex (original id), e.g. where traversals start")
      ("staging", po::value(&staging)->default_value("256M"), "memory for scattering edges to blocks")
      ("no-chunks", po::bool_switch(), "do not build a TChunk table now (chunk mode builds it on first use)");
  po::positional_options_description positional;
  positional.add("input", 1);
  po::variables_map vm;
  if (!parse_options("prep", "EDGES.bin -o GRAPH_DIR [options]", args, options, positional, vm)) return 0;
  command_line([&] {
    layout.apply("prep", prep);
    prep.grid.staging_bytes = parse_size(staging, "--staging");
    prep.grid.order = parse_order(order);
    if (vm.count("order-root")) {
      if (prep.grid.order != OrderKind::Bfs) fail("prep: --order-root needs --order bfs");
      uint64_t root = vm["order-root"].as<uint64_t>();
      if (root > kMaxVertexId) fail("prep: --order-root {} is not a vertex id", root);
      prep.grid.order_root = static_cast<VertexId>(root);
    }
  });
  prep.tchunk_tables = !vm["no-chunks"].as<bool>();
  // Prepared beside the target and swapped in whole at the end: a failed, full-disk or killed
  // prep leaves an earlier graph in the target as it was. Only a graph directory (or an empty
  // one) is ever replaced.
  output = normal_path(output);
  check_replaceable_graph_dir(output, "prep");
  StagedDirectory staged(output);
  const PrepSummary done = prepare_graph(input, staged.path(), prep);
  std::printf("%s: %llu vertices, %llu edges, %u x %u grid\n", output.c_str(), static_cast<unsigned long long>(done.vertices),
              static_cast<unsigned long long>(done.edges), done.partitions, done.partitions);
  if (prep.grid.order != OrderKind::Natural)
    std::printf("%s: vertex order %s computed in %.2f s with %s of memory\n", output.c_str(), order_name(prep.grid.order),
                done.order_cost.seconds, human_bytes(static_cast<double>(done.order_cost.memory_bytes)).c_str());
  if (done.xstream_partitions)
    std::printf("%s: X-Stream layout, %u streaming partitions\n", output.c_str(), done.xstream_partitions);
  std::printf("%s: default chunk size %s (%s)\n", output.c_str(), human_bytes(static_cast<double>(done.chunk_bytes)).c_str(),
              done.chunk_size_basis.c_str());
  for (const PrepSummary::Table& table : done.tables)
    std::printf("%s/%s: %llu chunks of %s\n", output.c_str(), table.file.c_str(), static_cast<unsigned long long>(table.chunks),
                human_bytes(static_cast<double>(table.chunk_bytes)).c_str());
  staged.publish();
  return 0;
}

}  // namespace graphso
