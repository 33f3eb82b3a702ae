// The `meta` file of a prepared graph directory: what is in it and where each grid block lives.
//
// Vertices are split into P ranges of range_size ids (a multiple of 64, so a range is whole
// words of a bitmap). Block (i, j) holds the edges with source in range i and destination in
// range j, sorted by (source, destination). The same blocks are stored twice:
//   grid.row  blocks in row order    (0,0) (0,1) ... (0,P-1) (1,0) ...   for sparse rounds
//   grid.col  blocks in column order (0,0) (1,0) ... (P-1,0) (0,1) ...   for dense rounds
// Both files are padded to a multiple of 4096 bytes so O_DIRECT can read the last block. The
// blocks are raw edge records back to back, or packed pages (base/packed_pages.h), each block
// then starting on a page boundary.
// Ids in the files are the vertex order's new ids (base/vertex_order.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/packed_pages.h"
#include "base/types.h"
#include "base/vertex_order.h"

namespace graphso {

inline constexpr uint32_t kGridFormatVersion = 3;  // 2: the vertex order; 3: the edge encoding

struct GridMeta {
  uint64_t vertices = 0;
  uint64_t edges = 0;
  bool weighted = false;
  bool real_weights = false;  // the weights are reals, binary32 in the u32 (base/types.h)
  uint32_t partitions = 0;   // P
  uint64_t range_size = 0;   // vertices per range
  EdgeEncoding encoding = EdgeEncoding::Raw;
  std::vector<uint64_t> block_edges;  // P*P, index i*P+j
  std::vector<uint64_t> block_sizes;  // P*P: bytes of each block in the edge files
  std::vector<uint32_t> block_crc;    // crc32 of each block's bytes as stored
  uint32_t degrees_crc = 0;
  bool symmetric = false;  // every edge's reverse is an edge too (found by prep)
  OrderKind order = OrderKind::Natural;  // how ids were relabelled before partitioning
  uint32_t order_crc = 0;                // crc32 of the order file (none for natural)
  VertexId order_root = kNoVertex;       // bfs: the root asked for (original id), if any
  bool dataset_ids = false;              // the graph has ids of its own (base/dataset_ids.h)
  uint32_t dataset_ids_crc = 0;          // the dataset_ids file's CRC, if so

  uint32_t edge_size() const { return edge_bytes(weighted); }
  uint64_t num_blocks() const { return uint64_t{partitions} * partitions; }
  uint64_t block_index(uint32_t i, uint32_t j) const { return uint64_t{i} * partitions + j; }
  uint64_t range_begin(uint32_t i) const { return std::min(vertices, i * range_size); }
  uint64_t range_end(uint32_t i) const { return std::min(vertices, (i + 1) * range_size); }
  uint32_t range_of(VertexId v) const { return static_cast<uint32_t>(v / range_size); }
  uint64_t edge_file_bytes() const;   // padded size of grid.row / grid.col

  // Byte offsets of block (i, j) in each file, from the prefix sums built by finalize().
  uint64_t row_offset(uint32_t i, uint32_t j) const { return row_offsets_[block_index(i, j)]; }
  uint64_t col_offset(uint32_t i, uint32_t j) const { return col_offsets_[block_index(i, j)]; }
  uint64_t block_bytes(uint32_t i, uint32_t j) const { return block_sizes[block_index(i, j)]; }
  uint64_t stored_bytes() const;      // every block's bytes (the padding aside)
  bool packed() const { return encoding == EdgeEncoding::Packed; }

  void finalize();  // computes the offset tables from block_sizes
  // The file's bytes before its CRC, and that CRC (which identifies this preparation).
  std::string serialize() const;
  uint32_t crc() const;
  void save(const std::string& path) const;
  // Reads and validates a meta file; errors name `path`.
  static GridMeta load(const std::string& path);

 private:
  std::vector<uint64_t> row_offsets_;
  std::vector<uint64_t> col_offsets_;
};

// How many ranges for n vertices when the user does not say: a range's 8-byte vertex state
// should stay within 1 MiB of cache (GridGraph's reason for its grid), with P in [4, 256].
uint32_t default_partitions(uint64_t vertices);

}  // namespace graphso
