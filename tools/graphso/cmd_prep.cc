// graphso prep EDGES.bin -o GRAPH_DIR [--engine gridgraph] [--partitions P]
#include <cstdio>

#include "engine/common/progress.h"
#include "engine/gridgraph/grid_graph.h"
#include "engine/gridgraph/grid_prep.h"
#include "tools/graphso/options.h"

namespace graphso {

int cmd_prep(const Args& args) {
  po::options_description options("prep options");
  std::string input, output, engine, staging;
  GridPrepOptions prep;
  options.add_options()
      ("input", po::value(&input)->required(), "graphso edge list (from convert or generate)")
      ("output,o", po::value(&output)->required(), "graph directory to write")
      ("engine", po::value(&engine)->default_value("gridgraph"), "layout: gridgraph")
      ("partitions,p", po::value(&prep.partitions)->default_value(0), "P for the P x P grid (0: automatic)")
      ("staging", po::value(&staging)->default_value("256M"), "memory for scattering edges to blocks");
  po::positional_options_description positional;
  positional.add("input", 1);
  po::variables_map vm;
  if (!parse_options("prep", "EDGES.bin -o GRAPH_DIR [options]", args, options, positional, vm)) return 0;
  if (engine != "gridgraph") fail("prep: unknown engine layout '{}' (this build has: gridgraph)", engine);
  if (prep.partitions > 4096) fail("prep: --partitions {} is above the maximum of 4096", prep.partitions);
  prep.staging_bytes = parse_size(staging, "--staging");
  prepare_grid(input, output, prep);
  GridGraph graph = GridGraph::open(output);
  const GridMeta& m = graph.meta();
  std::printf("%s: %llu vertices, %llu edges, %u x %u grid\n", output.c_str(),
              static_cast<unsigned long long>(m.vertices), static_cast<unsigned long long>(m.edges),
              m.partitions, m.partitions);
  return 0;
}

}  // namespace graphso
