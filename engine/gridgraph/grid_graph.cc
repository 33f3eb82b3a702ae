#include "engine/gridgraph/grid_graph.h"

#include <cstring>

#include "base/checked_file.h"
#include "base/error.h"
#include "base/file.h"

namespace graphso {

GridGraph GridGraph::open(const std::string& dir) {
  if (!path_exists(dir)) fail("{}: no such graph directory", dir);
  GridGraph g;
  g.files_ = GraphFiles(dir);
  const GraphFiles& files = g.files_;
  if (!path_exists(files.meta()))
    fail("{}: not a prepared graph (no meta file; run `graphso prep`, or it was interrupted)", dir);
  g.meta_ = GridMeta::load(files.meta());
  const GridMeta& m = g.meta_;

  for (const std::string& path : {files.grid_row(), files.grid_col()}) {
    if (!path_exists(path)) fail("{}: missing", path);
    check_size(path, File(path, File::Mode::Read).size(), m.edge_file_bytes(), fmt::format("{} edges", m.edges));
  }

  File degrees(files.degrees(), File::Mode::Read);
  check_size(degrees.path(), degrees.size(), m.vertices * sizeof(uint32_t));
  g.out_degrees_.resize(m.vertices);
  auto bytes = std::as_writable_bytes(std::span<uint32_t>(g.out_degrees_));
  degrees.pread_exact(bytes, 0);
  check_crc(degrees.path(), m.degrees_crc, crc32_of(bytes));
  g.order_ = VertexOrder::load(files.order(), m.order, m.vertices, m.order_crc);
  return g;
}

uint32_t GridGraph::identity() const {
  // The meta's own checksum. A crc32 over the whole file would not do: over data followed by its
  // own crc32 it is the same constant for every file.
  return meta_.crc();
}

void GridGraph::verify_blocks() const {
  const GridMeta& m = meta_;
  File row(files_.grid_row(), File::Mode::Read), col(files_.grid_col(), File::Mode::Read);
  std::vector<std::byte> block;
  for (uint32_t i = 0; i < m.partitions; ++i)
    for (uint32_t j = 0; j < m.partitions; ++j) {
      block.resize(m.block_bytes(i, j));
      for (const File* file : {&row, &col}) {
        uint64_t offset = file == &row ? m.row_offset(i, j) : m.col_offset(i, j);
        file->pread_exact(block, offset);
        if (crc32_of(block) != m.block_crc[m.block_index(i, j)])
          fail("{}: block ({}, {}) checksum mismatch (corrupt)", file->path(), i, j);
        for (uint64_t e = 0; e < m.block_edges[m.block_index(i, j)]; ++e) {
          Edge edge;
          std::memcpy(&edge, block.data() + e * m.edge_size(), sizeof(edge));
          if (m.range_of(edge.src) != i || m.range_of(edge.dst) != j)
            fail("{}: block ({}, {}) holds edge {} -> {} outside its ranges", file->path(), i, j,
                 edge.src, edge.dst);
        }
      }
    }
}

}  // namespace graphso
