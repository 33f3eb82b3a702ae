// The prep library: an edge list into a prepared graph directory, for `graphso prep` and
// `graphso snapshot` alike. The grid is always written (the X-Stream layout derives from it);
// the X-Stream layout when asked; then a TChunk table for every layout written.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "middleware/chunk_size.h"
#include "prep/grid_prep.h"

namespace graphso {

enum class LayoutSet { GridGraph, XStream, Both };
LayoutSet parse_layout_set(const std::string& name);  // gridgraph|xstream|both

struct PrepOptions {
  GridPrepOptions grid;
  LayoutSet layouts = LayoutSet::GridGraph;
  bool tchunk_tables = true;
  // The directory's default chunk size, recorded for runs that name none: 0 measured from the
  // device (middleware/chunk_size.h), kFormulaChunkBytes Formula (1) for this graph and host, else
  // itself. The TChunk tables are built at that size.
  uint64_t chunk_bytes = 0;
  // The device is measured only on an edge file at least this large (tests lower it).
  uint64_t device_sample_bytes = kDeviceSampleBytes;
};

// What was written, for the command to print.
struct PrepSummary {
  uint64_t vertices = 0;
  uint64_t edges = 0;
  uint32_t partitions = 0;
  OrderCost order_cost;
  uint32_t xstream_partitions = 0;  // 0: no X-Stream layout
  struct Table {
    std::string file;  // its name in the directory
    uint64_t chunks = 0;
    uint64_t chunk_bytes = 0;
  };
  std::vector<Table> tables;
  uint64_t chunk_bytes = 0;       // the directory's default chunk size
  std::string chunk_size_basis;   // how it was chosen
};

// Writes every file of the graph into `dir` (a staging directory the caller publishes).
PrepSummary prepare_graph(const std::string& edge_list_path, const std::string& dir, const PrepOptions& options);

// Whether `dir` may be replaced by a prepared graph: it is missing, empty, or holds one. Errors
// name `command` and say what to do.
void check_replaceable_graph_dir(const std::string& dir, const std::string& command);

}  // namespace graphso
