// `graphso prep --engine gridgraph`: turns a graphso edge list into a graph directory
// (meta, grid.row, grid.col, degrees). Memory is bounded by the staging budget plus the two
// largest blocks, not by the graph: edges are counted, scattered to their blocks through
// per-block staging buffers, then each block is sorted together with its mirror (j, i). Packed
// (the default encoding), each sorted block is encoded into a scratch file and the blocks are
// then copied into grid.row and grid.col, whose offsets are known only once every block is.
//
// With a vertex order other than natural, the order is computed first (datasets/vertex_orders.h,
// which holds per-vertex arrays in memory) and every edge is relabelled as it is read.
#pragma once

#include <cstdint>
#include <string>

#include "base/packed_pages.h"
#include "datasets/vertex_orders.h"

namespace graphso {

struct GridPrepOptions {
  uint32_t partitions = 0;             // 0: default_partitions(vertices)
  uint64_t staging_bytes = 256ull << 20;
  OrderKind order = OrderKind::Natural;
  VertexId order_root = kNoVertex;  // bfs: the first component's root (original id)
  EdgeEncoding encoding = EdgeEncoding::Packed;
};

// Returns what computing the vertex order cost. Its steps report to `first` and the steps after it:
// the vertex order (when not natural), counting, scattering, sorting, and for packed blocks
// writing them (grid_prep_steps of them).
OrderCost prepare_grid(const std::string& edge_list_path, const std::string& dir, const GridPrepOptions& options,
                       ProgressStep first = {});
uint32_t grid_prep_steps(const GridPrepOptions& options);

}  // namespace graphso
