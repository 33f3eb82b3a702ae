// An opened, validated graph directory in the GridGraph layout. Opening checks the meta
// checksum and version, the exact sizes of grid.row/grid.col/degrees/order and their checksums;
// any mismatch is an Error naming the file.
#pragma once

#include <string>
#include <vector>

#include "base/graph_files.h"
#include "engine/gridgraph/grid_meta.h"

namespace graphso {

class GridGraph {
 public:
  static GridGraph open(const std::string& dir);

  const std::string& dir() const { return files_.dir(); }
  const GraphFiles& files() const { return files_; }
  const GridMeta& meta() const { return meta_; }
  // Indexed by new id.
  const std::vector<uint32_t>& out_degrees() const { return out_degrees_; }
  const VertexOrder& order() const { return order_; }
  // Changes whenever the prepared graph does (crc32 of the meta); ties derived files to it.
  uint32_t identity() const;

  // Reads every block of both edge files and checks its crc32 and vertex ranges (inspect --verify).
  void verify_blocks() const;

 private:
  GraphFiles files_{""};
  GridMeta meta_;
  std::vector<uint32_t> out_degrees_;
  VertexOrder order_;
};

}  // namespace graphso
