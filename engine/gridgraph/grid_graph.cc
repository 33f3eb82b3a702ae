#include "engine/gridgraph/grid_graph.h"

#include <cstring>

#include "base/checksum.h"
#include "base/error.h"
#include "base/file.h"

namespace graphso {

std::string meta_path(const std::string& dir) { return dir + "/meta"; }
std::string degrees_path(const std::string& dir) { return dir + "/degrees"; }

GridGraph GridGraph::open(const std::string& dir) {
  if (!path_exists(dir)) fail("{}: no such graph directory", dir);
  if (!path_exists(meta_path(dir)))
    fail("{}: not a prepared graph (no meta file; run `graphso prep`, or it was interrupted)", dir);
  GridGraph g;
  g.dir_ = dir;
  g.meta_ = GridMeta::parse(read_small_file(meta_path(dir)), meta_path(dir));
  const GridMeta& m = g.meta_;

  for (const std::string& path : {g.row_path(), g.col_path()}) {
    if (!path_exists(path)) fail("{}: missing", path);
    uint64_t size = File(path, File::Mode::Read).size();
    if (size != m.edge_file_bytes())
      fail("{}: size {} bytes, expected {} for {} edges (truncated or corrupt)", path, size,
           m.edge_file_bytes(), m.edges);
  }

  File degrees(degrees_path(dir), File::Mode::Read);
  uint64_t expected = m.vertices * sizeof(uint32_t);
  if (degrees.size() != expected)
    fail("{}: size {} bytes, expected {} (truncated or corrupt)", degrees.path(), degrees.size(),
         expected);
  g.out_degrees_.resize(m.vertices);
  auto bytes = std::as_writable_bytes(std::span<uint32_t>(g.out_degrees_));
  degrees.pread_exact(bytes, 0);
  if (crc32_of(bytes) != m.degrees_crc) fail("{}: checksum mismatch (corrupt)", degrees.path());
  g.order_ = VertexOrder::load(dir, m.order, m.vertices, m.order_crc);
  return g;
}

uint32_t GridGraph::identity() const {
  // The meta's own checksum (its last 4 bytes). A crc32 over the whole file would not do: over
  // data followed by its own crc32 it is the same constant for every file.
  std::string meta = meta_.serialize();
  uint32_t crc;
  std::memcpy(&crc, meta.data() + meta.size() - sizeof(crc), sizeof(crc));
  return crc;
}

void GridGraph::verify_blocks() const {
  const GridMeta& m = meta_;
  File row(row_path(), File::Mode::Read), col(col_path(), File::Mode::Read);
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
