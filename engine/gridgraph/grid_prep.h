// `graphso prep --engine gridgraph`: turns a graphso edge list into a graph directory
// (meta, grid.row, grid.col, degrees). Memory is bounded by the staging budget plus the
// largest single block, not by the graph: edges are counted, scattered to their blocks through
// per-block staging buffers, then each block is sorted on its own.
#pragma once

#include <cstdint>
#include <string>

namespace graphso {

struct GridPrepOptions {
  uint32_t partitions = 0;             // 0: default_partitions(vertices)
  uint64_t staging_bytes = 256ull << 20;
};

void prepare_grid(const std::string& edge_list_path, const std::string& dir,
                  const GridPrepOptions& options);

}  // namespace graphso
