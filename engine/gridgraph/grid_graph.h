// An opened, validated graph directory in the GridGraph layout. Opening checks the meta
// checksum and version, the exact sizes of grid.row/grid.col/degrees/order and their checksums;
// any mismatch is an Error naming the file.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "base/graph_files.h"
#include "engine/gridgraph/grid_meta.h"

namespace graphso {

class GridGraph {
 public:
  static GridGraph open(const std::string& dir);
  // A graph known only in memory (a store read in place, integrations/store_graph.h): its meta
  // (vertex ranges, counts; no blocks), out-degrees and the natural order; `dir` names it in
  // reports. It has no edge files: only an engine given its layout runs on it.
  static GridGraph in_memory(const std::string& dir, GridMeta meta, std::vector<uint32_t> out_degrees);

  const std::string& dir() const { return files_.dir(); }
  const GraphFiles& files() const { return files_; }
  const GridMeta& meta() const { return meta_; }
  // Indexed by new id.
  const std::vector<uint32_t>& out_degrees() const { return out_degrees_; }
  const VertexOrder& order() const { return order_; }
  // Changes whenever the prepared graph does (crc32 of the meta); ties derived files to it.
  uint32_t identity() const;

  // Which edge file: grid.row holds the blocks row by row (i, then j), grid.col column by column.
  enum class EdgeFile { Row, Col };
  // Streams every block of one edge file, in that file's order, in pieces of at most 1 MiB of
  // whole edge records (new ids): visit(i, j, records). Every edge handed over lies in its block's
  // ranges (ids below the vertex count). Each block's crc32 is checked when its last piece has
  // been read, so a damaged block fails after some of its pieces were seen: callers publish
  // nothing until the whole file is through.
  using BlockPieceVisitor = std::function<void(uint32_t i, uint32_t j, std::span<const std::byte> records)>;
  void read_blocks(EdgeFile which, const BlockPieceVisitor& visit) const;

  // Every edge of grid.row through read_blocks, decoded and in ORIGINAL ids (weight 1 when
  // unweighted), one piece at a time (export, the in-memory reference).
  void read_original_edges(const std::function<void(std::span<const WeightedEdge>)>& visit) const;

  // Reads every block of both edge files and checks its crc32 and vertex ranges (inspect --verify):
  // read_blocks() over both files.
  void verify_blocks() const;

 private:
  GraphFiles files_{""};
  GridMeta meta_;
  std::vector<uint32_t> out_degrees_;
  VertexOrder order_;
};

}  // namespace graphso
