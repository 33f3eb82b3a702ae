#include "engine/gridgraph/grid_graph.h"

#include <algorithm>
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
  if (m.dataset_ids) {
    if (!path_exists(files.dataset_ids())) fail("{}: missing (the graph was prepared with the dataset's own ids)", files.dataset_ids());
    g.order_.set_dataset_ids(std::make_shared<const DatasetIds>(DatasetIds::load(files.dataset_ids(), m.vertices, m.dataset_ids_crc)));
  }
  return g;
}

GridGraph GridGraph::in_memory(const std::string& dir, GridMeta meta, std::vector<uint32_t> out_degrees) {
  GridGraph g;
  g.files_ = GraphFiles(dir);
  g.order_ = VertexOrder::natural(meta.vertices);
  g.meta_ = std::move(meta);
  g.out_degrees_ = std::move(out_degrees);
  return g;
}

uint32_t GridGraph::identity() const {
  // The meta's own checksum. A crc32 over the whole file would not do: over data followed by its
  // own crc32 it is the same constant for every file.
  return meta_.crc();
}

void GridGraph::read_blocks(EdgeFile which, const BlockPieceVisitor& visit) const {
  const GridMeta& m = meta_;
  const bool rows = which == EdgeFile::Row;
  File file(rows ? files_.grid_row() : files_.grid_col(), File::Mode::Read);
  // Pieces of whole records, or of whole pages when packed (decoded before they are handed over).
  const uint64_t unit = m.packed() ? kPackedPageBytes : m.edge_size();
  const uint64_t piece_bytes = std::max<uint64_t>(1, (uint64_t{1} << 20) / unit) * unit;
  std::vector<std::byte> piece, decoded;
  for (uint32_t a = 0; a < m.partitions; ++a)
    for (uint32_t b = 0; b < m.partitions; ++b) {
      const uint32_t i = rows ? a : b, j = rows ? b : a;
      const uint64_t start = rows ? m.row_offset(i, j) : m.col_offset(i, j), bytes = m.block_bytes(i, j);
      uint32_t crc = 0;
      uint64_t edges = 0;
      // The block's first fault: a malformed page or an edge outside its ranges. The rest of the
      // block is read for its checksum only: a damaged block is reported as corrupt, only an
      // intact one as malformed or misplaced.
      std::string misplaced;
      for (uint64_t done = 0; done < bytes;) {
        piece.resize(std::min(piece_bytes, bytes - done));
        file.pread_exact(piece, start + done);
        crc = crc32_of(piece, crc);
        done += piece.size();
        if (!misplaced.empty()) continue;
        std::span<const std::byte> records = piece;
        if (m.packed()) {
          PackedPageProblem problem;
          if (decode_packed_pages(piece, m.weighted, decoded, &problem) < 0) {
            misplaced = fmt::format("{}: block ({}, {}): the page at offset {} is malformed: {}", file.path(), i, j,
                                    start + done - piece.size() + problem.page * kPackedPageBytes, problem.what);
            continue;
          }
          records = decoded;
        }
        for (uint64_t offset = 0; offset < records.size() && misplaced.empty(); offset += m.edge_size()) {
          Edge edge;
          std::memcpy(&edge, records.data() + offset, sizeof(edge));
          if (edge.src >= m.vertices || edge.dst >= m.vertices || m.range_of(edge.src) != i || m.range_of(edge.dst) != j)
            misplaced = fmt::format("{}: block ({}, {}) holds edge {} -> {} outside its ranges", file.path(), i, j,
                                    edge.src, edge.dst);
        }
        edges += records.size() / m.edge_size();
        if (misplaced.empty()) visit(i, j, records);
      }
      if (crc != m.block_crc[m.block_index(i, j)])
        fail("{}: block ({}, {}) checksum mismatch (corrupt)", file.path(), i, j);
      if (!misplaced.empty()) fail("{}", misplaced);
      if (edges != m.block_edges[m.block_index(i, j)])
        fail("{}: block ({}, {}) holds {} edges, the meta says {} (corrupt)", file.path(), i, j, edges,
             m.block_edges[m.block_index(i, j)]);
    }
}

void GridGraph::read_original_edges(const std::function<void(std::span<const WeightedEdge>)>& visit) const {
  const uint32_t record = meta_.edge_size();
  std::vector<WeightedEdge> edges;
  read_blocks(EdgeFile::Row, [&](uint32_t, uint32_t, std::span<const std::byte> records) {
    edges.clear();
    for (uint64_t offset = 0; offset < records.size(); offset += record) {
      WeightedEdge e{0, 0, 1};
      std::memcpy(&e, records.data() + offset, record);  // ids in range: read_blocks checked
      edges.push_back({order_.to_original(e.src), order_.to_original(e.dst), e.weight});
    }
    visit(edges);
  });
}

void GridGraph::verify_blocks() const {
  for (EdgeFile which : {EdgeFile::Row, EdgeFile::Col}) read_blocks(which, [](uint32_t, uint32_t, std::span<const std::byte>) {});
}

}  // namespace graphso
