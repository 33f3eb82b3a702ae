// graphso inspect GRAPH_DIR [--verify]
#include <algorithm>
#include <cstdio>

#include "engine/common/progress.h"
#include "engine/gridgraph/grid_graph.h"
#include "tools/graphso/options.h"

namespace graphso {

int cmd_inspect(const Args& args) {
  po::options_description options("inspect options");
  std::string dir;
  options.add_options()
      ("graph", po::value(&dir)->required(), "graph directory")
      ("verify", po::bool_switch(), "read every block and check checksums and vertex ranges");
  po::positional_options_description positional;
  positional.add("graph", 1);
  po::variables_map vm;
  if (!parse_options("inspect", "GRAPH_DIR [--verify]", args, options, positional, vm)) return 0;

  GridGraph graph = GridGraph::open(dir);
  const GridMeta& m = graph.meta();
  uint64_t empty = 0, largest = 0;
  for (uint64_t e : m.block_edges) {
    empty += e == 0;
    largest = std::max(largest, e);
  }
  const auto& deg = graph.out_degrees();
  auto hub = std::max_element(deg.begin(), deg.end());
  uint64_t max_degree = hub == deg.end() ? 0 : *hub;
  uint64_t sinks = static_cast<uint64_t>(std::count(deg.begin(), deg.end(), 0u));
  std::printf("graph:            %s\n", dir.c_str());
  std::printf("format version:   %u\n", kGridFormatVersion);
  std::printf("vertices:         %llu\n", static_cast<unsigned long long>(m.vertices));
  std::printf("edges:            %llu\n", static_cast<unsigned long long>(m.edges));
  std::printf("weighted:         %s\n", m.weighted ? "yes (u32)" : "no");
  std::printf("edge record:      %u bytes\n", m.edge_size());
  std::printf("layout:           gridgraph, %u x %u blocks, %llu vertices per range\n", m.partitions,
              m.partitions, static_cast<unsigned long long>(m.range_size));
  std::printf("blocks:           %llu non-empty, %llu empty, largest %llu edges (%s), average %s\n",
              static_cast<unsigned long long>(m.num_blocks() - empty), static_cast<unsigned long long>(empty),
              static_cast<unsigned long long>(largest),
              human_bytes(static_cast<double>(largest * m.edge_size())).c_str(),
              human_bytes(static_cast<double>(m.edges * m.edge_size()) / static_cast<double>(m.num_blocks() - empty + (empty == m.num_blocks()))).c_str());
  std::printf("edge files:       grid.row, grid.col, %s each\n", human_bytes(static_cast<double>(m.edge_file_bytes())).c_str());
  std::printf("out-degree:       max %llu (vertex %lld), %llu vertices without out-edges\n",
              static_cast<unsigned long long>(max_degree),
              static_cast<long long>(hub == deg.end() ? -1 : hub - deg.begin()), static_cast<unsigned long long>(sinks));
  if (vm["verify"].as<bool>()) {
    graph.verify_blocks();
    std::printf("verify:           ok (every block's checksum and vertex ranges, both files)\n");
  }
  return 0;
}

}  // namespace graphso
