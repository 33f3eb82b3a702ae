#include "prep/grid_prep.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include "datasets/edge_list.h"
#include "base/checksum.h"
#include "base/dataset_ids.h"
#include "base/error.h"
#include "base/file.h"
#include "base/graph_files.h"
#include "base/progress.h"
#include "engine/gridgraph/grid_graph.h"
#include "engine/gridgraph/grid_meta.h"
#include "io/page_sums.h"

namespace graphso {
namespace {

constexpr uint64_t kReadBatch = 1 << 20;  // edges per read from the edge list

void make_directory(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
    fail("{}: cannot create directory: {}", dir, errno_text(errno));
}

void encode(const WeightedEdge& e, uint32_t record, std::byte* out) { std::memcpy(out, &e, record); }

// Whether the distinct (src, dst) pairs of `forward` are exactly the reversed pairs of
// `backward` (weights aside). Both are sorted; `backward` is reordered.
bool mirrored(const std::vector<WeightedEdge>& forward, std::vector<WeightedEdge>& backward) {
  for (WeightedEdge& e : backward) std::swap(e.src, e.dst);
  auto pair_less = [](const WeightedEdge& a, const WeightedEdge& b) { return std::tie(a.src, a.dst) < std::tie(b.src, b.dst); };
  auto pair_equal = [](const WeightedEdge& a, const WeightedEdge& b) { return a.src == b.src && a.dst == b.dst; };
  std::sort(backward.begin(), backward.end(), pair_less);
  backward.erase(std::unique(backward.begin(), backward.end(), pair_equal), backward.end());
  size_t k = 0;
  for (size_t e = 0; e < forward.size(); ++e) {
    if (e > 0 && pair_equal(forward[e], forward[e - 1])) continue;
    if (k == backward.size() || !pair_equal(forward[e], backward[k])) return false;
    ++k;
  }
  return k == backward.size();
}

}  // namespace

uint32_t grid_prep_steps(const GridPrepOptions& options) {
  return (options.order == OrderKind::Natural ? 3 : 4) + (options.encoding == EdgeEncoding::Packed ? 1 : 0);
}

OrderCost prepare_grid(const std::string& edge_list_path, const std::string& dir, const GridPrepOptions& options,
                       ProgressStep first) {
  EdgeListReader reader(edge_list_path);
  const EdgeListInfo& info = reader.info();
  if (info.vertices == 0) fail("{}: the graph has no vertices", edge_list_path);
  // Checked before the directory is touched, so a bad option leaves an earlier prep intact.
  if (options.order_root != kNoVertex && options.order_root >= info.vertices)
    fail("--order-root {} is out of range (the graph has vertices 0..{})", options.order_root, info.vertices - 1);
  // The dataset's own ids, when `convert` left them beside the edge list (base/dataset_ids.h).
  const std::optional<DatasetIds> dataset_ids = DatasetIds::beside(edge_list_path, info.vertices);

  make_directory(dir);
  const GraphFiles files(dir);
  // The meta file is the commit point: remove it first so a half-written directory never opens.
  ::unlink(files.meta().c_str());

  OrderCost order_cost;
  ProgressStep step = first;
  const VertexOrder order = compute_vertex_order(options.order, reader, options.order_root, &order_cost, step);
  if (options.order != OrderKind::Natural) step = step.next();
  auto relabel = [&order](std::vector<WeightedEdge>& edges) {
    if (order.is_natural()) return;
    for (WeightedEdge& e : edges) {
      e.src = order.to_new(e.src);
      e.dst = order.to_new(e.dst);
    }
  };

  GridMeta meta;
  meta.vertices = info.vertices;
  meta.edges = info.edges;
  meta.weighted = info.weighted;
  meta.real_weights = info.real_weights;
  meta.encoding = options.encoding;
  uint32_t wanted = options.partitions ? options.partitions : default_partitions(info.vertices);
  meta.range_size = align_up((info.vertices + wanted - 1) / wanted, 64);
  meta.partitions = static_cast<uint32_t>((info.vertices + meta.range_size - 1) / meta.range_size);
  const uint32_t P = meta.partitions;
  const uint32_t record = meta.edge_size();
  meta.block_edges.assign(meta.num_blocks(), 0);
  meta.block_sizes.assign(meta.num_blocks(), 0);
  meta.block_crc.assign(meta.num_blocks(), 0);

  // Pass 1: block sizes and out-degrees.
  std::vector<uint64_t> degrees(info.vertices, 0);
  std::vector<WeightedEdge> batch;
  {
    Progress progress("counting edges per block", info.edges, "edges", step);
    uint64_t done = 0;
    while (reader.next_batch(batch, kReadBatch)) {
      relabel(batch);
      for (const WeightedEdge& e : batch) {
        ++meta.block_edges[meta.block_index(meta.range_of(e.src), meta.range_of(e.dst))];
        ++degrees[e.src];
      }
      progress.update(done += batch.size());
    }
  }
  // The raw sizes place the scattered edges in grid.col (the edge files themselves, raw; scratch
  // space for packed blocks).
  for (uint64_t b = 0; b < meta.num_blocks(); ++b) meta.block_sizes[b] = meta.block_edges[b] * record;
  meta.finalize();

  // Pass 2: scatter edges into their blocks of grid.col through per-block staging buffers.
  File col(files.grid_col(), File::Mode::ReadWrite);
  File row(files.grid_row(), File::Mode::ReadWrite);
  for (const File* f : {&col, &row}) {
    f->truncate(0);  // no stale bytes from an earlier prep in the padding
    f->truncate(meta.edge_file_bytes());
  }
  {
    uint64_t per_block = std::clamp<uint64_t>(options.staging_bytes / meta.num_blocks(), 4096, 1 << 20);
    per_block = align_down(per_block, record);
    std::vector<std::vector<std::byte>> staging(meta.num_blocks());
    std::vector<uint64_t> cursor(meta.num_blocks());
    for (uint32_t i = 0; i < P; ++i)
      for (uint32_t j = 0; j < P; ++j) cursor[meta.block_index(i, j)] = meta.col_offset(i, j);
    auto flush = [&](uint64_t b) {
      col.pwrite_all(staging[b], cursor[b]);
      cursor[b] += staging[b].size();
      staging[b].clear();
    };
    reader.rewind();
    Progress progress("scattering edges into blocks", info.edges, "edges", step.next());
    uint64_t done = 0;
    while (reader.next_batch(batch, kReadBatch)) {
      relabel(batch);
      for (const WeightedEdge& e : batch) {
        uint64_t b = meta.block_index(meta.range_of(e.src), meta.range_of(e.dst));
        std::vector<std::byte>& buffer = staging[b];
        if (buffer.capacity() == 0) buffer.reserve(per_block);
        size_t at = buffer.size();
        buffer.resize(at + record);
        encode(e, record, buffer.data() + at);
        if (buffer.size() + record > per_block) flush(b);
      }
      progress.update(done += batch.size());
    }
    for (uint64_t b = 0; b < meta.num_blocks(); ++b)
      if (!staging[b].empty()) flush(b);
  }

  // Pass 3: sort each block by (source, destination), checksum it, write it to both files (packed:
  // to the scratch file). Blocks (i, j) and (j, i) are sorted together, which also tells whether
  // every edge's reverse is in the graph (symmetric: jobs that use edges both ways then need only
  // out-edges).
  const std::string packed_path = dir + "/grid.packed.tmp";
  std::optional<File> packed;
  std::vector<uint64_t> packed_at(meta.num_blocks(), 0);
  if (meta.packed()) {
    packed.emplace(packed_path, File::Mode::ReadWrite);
    packed->truncate(0);
  }
  {
    Progress progress("sorting blocks", meta.edges * record, "bytes", step.next().next());
    uint64_t done = 0, packed_end = 0;
    std::vector<std::byte> raw, pages;
    std::vector<WeightedEdge> edges, mirror;
    auto sort_block = [&](uint32_t i, uint32_t j, std::vector<WeightedEdge>& out) {
      uint64_t b = meta.block_index(i, j);
      uint64_t count = meta.block_edges[b];
      raw.resize(count * record);
      col.pread_exact(raw, meta.col_offset(i, j));
      out.resize(count);
      for (uint64_t e = 0; e < count; ++e) {
        out[e] = {0, 0, 1};
        std::memcpy(&out[e], raw.data() + e * record, record);
      }
      std::sort(out.begin(), out.end(), [](const WeightedEdge& a, const WeightedEdge& c) {
        return std::tie(a.src, a.dst, a.weight) < std::tie(c.src, c.dst, c.weight);
      });
      progress.update(done += raw.size());
      if (packed) {
        pages.clear();
        PackedPageWriter writer(meta.weighted, pages);
        for (const WeightedEdge& e : out) writer.add(e);
        writer.finish();
        meta.block_crc[b] = crc32_of(pages);
        meta.block_sizes[b] = pages.size();
        packed_at[b] = packed_end;
        packed->pwrite_all(pages, packed_end);
        packed_end += pages.size();
        return;
      }
      for (uint64_t e = 0; e < count; ++e) encode(out[e], record, raw.data() + e * record);
      meta.block_crc[b] = crc32_of(raw);
      col.pwrite_all(raw, meta.col_offset(i, j));
      row.pwrite_all(raw, meta.row_offset(i, j));
    };
    meta.symmetric = true;
    for (uint32_t i = 0; i < P; ++i)
      for (uint32_t j = i; j < P; ++j) {
        sort_block(i, j, edges);
        if (j != i) sort_block(j, i, mirror);
        else mirror = edges;
        if (meta.symmetric) meta.symmetric = mirrored(edges, mirror);
      }
  }
  // Pass 4 (packed): every block's size is known; copy the blocks into both files in their order.
  if (packed) {
    meta.finalize();
    for (const File* f : {&col, &row}) {
      f->truncate(0);
      f->truncate(meta.edge_file_bytes());
    }
    Progress progress("writing packed blocks", meta.stored_bytes(), "bytes", step.next().next().next());
    uint64_t done = 0;
    std::vector<std::byte> block;
    for (uint32_t i = 0; i < P; ++i)
      for (uint32_t j = 0; j < P; ++j) {
        const uint64_t b = meta.block_index(i, j);
        block.resize(meta.block_sizes[b]);
        packed->pread_exact(block, packed_at[b]);
        row.pwrite_all(block, meta.row_offset(i, j));
        col.pwrite_all(block, meta.col_offset(i, j));
        progress.update(done += block.size());
      }
    packed.reset();
    ::unlink(packed_path.c_str());
  }
  col.sync();
  row.sync();
  // Every page's CRC-32C, for runs to verify each read with (read back while still cached).
  write_page_sums(files.grid_row());
  write_page_sums(files.grid_col());

  std::vector<uint32_t> narrow(info.vertices);
  for (uint64_t v = 0; v < info.vertices; ++v) {
    if (degrees[v] > UINT32_MAX) fail("vertex {} has {} out-edges, more than 2^32-1", v, degrees[v]);
    narrow[v] = static_cast<uint32_t>(degrees[v]);
  }
  auto degree_bytes = std::as_bytes(std::span<const uint32_t>(narrow));
  meta.degrees_crc = crc32_of(degree_bytes);
  {
    AtomicOutputFile out(files.degrees());
    out.append(degree_bytes);
    out.commit();
  }
  meta.order = order.kind();
  meta.order_root = options.order == OrderKind::Bfs ? options.order_root : kNoVertex;
  meta.order_crc = order.save(files.order());
  if (order.is_natural()) ::unlink(files.order().c_str());  // no stale order from an earlier prep
  meta.dataset_ids = dataset_ids.has_value();
  if (dataset_ids) meta.dataset_ids_crc = dataset_ids->save(files.dataset_ids());
  else ::unlink(files.dataset_ids().c_str());
  meta.save(files.meta());
  return order_cost;
}

}  // namespace graphso
