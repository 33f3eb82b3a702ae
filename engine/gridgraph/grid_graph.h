// An opened, validated graph directory in the GridGraph layout. Opening checks the meta
// checksum and version, the exact sizes of grid.row/grid.col/degrees/order and their checksums;
// any mismatch is an Error naming the file.
#pragma once

#include <string>
#include <vector>

#include "engine/gridgraph/grid_meta.h"

namespace graphso {

class GridGraph {
 public:
  static GridGraph open(const std::string& dir);

  const std::string& dir() const { return dir_; }
  const GridMeta& meta() const { return meta_; }
  // Indexed by new id.
  const std::vector<uint32_t>& out_degrees() const { return out_degrees_; }
  const VertexOrder& order() const { return order_; }
  std::string row_path() const { return dir_ + "/grid.row"; }
  std::string col_path() const { return dir_ + "/grid.col"; }
  // Changes whenever the prepared graph does (crc32 of the meta); ties derived files to it.
  uint32_t identity() const;

  // Reads every block of both edge files and checks its crc32 and vertex ranges (inspect --verify).
  void verify_blocks() const;

 private:
  std::string dir_;
  GridMeta meta_;
  std::vector<uint32_t> out_degrees_;
  VertexOrder order_;
};

// File names inside a graph directory.
std::string meta_path(const std::string& dir);
std::string degrees_path(const std::string& dir);

}  // namespace graphso
