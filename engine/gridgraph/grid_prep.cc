#include "engine/gridgraph/grid_prep.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "datasets/edge_list.h"
#include "engine/common/checksum.h"
#include "engine/common/error.h"
#include "engine/common/file.h"
#include "engine/common/progress.h"
#include "engine/gridgraph/grid_graph.h"
#include "engine/gridgraph/grid_meta.h"

namespace graphso {
namespace {

constexpr uint64_t kReadBatch = 1 << 20;  // edges per read from the edge list

void make_directory(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
    fail("{}: cannot create directory: {}", dir, errno_text(errno));
}

void encode(const WeightedEdge& e, uint32_t record, std::byte* out) { std::memcpy(out, &e, record); }

}  // namespace

void prepare_grid(const std::string& edge_list_path, const std::string& dir,
                  const GridPrepOptions& options) {
  EdgeListReader reader(edge_list_path);
  const EdgeListInfo& info = reader.info();
  if (info.vertices == 0) fail("{}: the graph has no vertices", edge_list_path);

  make_directory(dir);
  // The meta file is the commit point: remove it first so a half-written directory never opens.
  ::unlink(meta_path(dir).c_str());

  GridMeta meta;
  meta.vertices = info.vertices;
  meta.edges = info.edges;
  meta.weighted = info.weighted;
  uint32_t wanted = options.partitions ? options.partitions : default_partitions(info.vertices);
  meta.range_size = align_up((info.vertices + wanted - 1) / wanted, 64);
  meta.partitions = static_cast<uint32_t>((info.vertices + meta.range_size - 1) / meta.range_size);
  const uint32_t P = meta.partitions;
  const uint32_t record = meta.edge_size();
  meta.block_edges.assign(meta.num_blocks(), 0);
  meta.block_crc.assign(meta.num_blocks(), 0);

  // Pass 1: block sizes and out-degrees.
  std::vector<uint64_t> degrees(info.vertices, 0);
  std::vector<WeightedEdge> batch;
  {
    Progress progress("prep: counting", info.edges, "edges");
    uint64_t done = 0;
    while (reader.next_batch(batch, kReadBatch)) {
      for (const WeightedEdge& e : batch) {
        ++meta.block_edges[meta.block_index(meta.range_of(e.src), meta.range_of(e.dst))];
        ++degrees[e.src];
      }
      progress.update(done += batch.size());
    }
  }
  meta.finalize();

  // Pass 2: scatter edges into their blocks of grid.col through per-block staging buffers.
  File col(dir + "/grid.col", File::Mode::ReadWrite);
  File row(dir + "/grid.row", File::Mode::ReadWrite);
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
    Progress progress("prep: scattering", info.edges, "edges");
    uint64_t done = 0;
    while (reader.next_batch(batch, kReadBatch)) {
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

  // Pass 3: sort each block by (source, destination), checksum it, write it to both files.
  {
    Progress progress("prep: sorting blocks", meta.edges * record, "bytes");
    uint64_t done = 0;
    std::vector<std::byte> raw;
    std::vector<WeightedEdge> edges;
    for (uint32_t j = 0; j < P; ++j)
      for (uint32_t i = 0; i < P; ++i) {
        uint64_t b = meta.block_index(i, j);
        uint64_t count = meta.block_edges[b];
        raw.resize(count * record);
        col.pread_exact(raw, meta.col_offset(i, j));
        edges.resize(count);
        for (uint64_t e = 0; e < count; ++e) {
          edges[e] = {0, 0, 1};
          std::memcpy(&edges[e], raw.data() + e * record, record);
        }
        std::sort(edges.begin(), edges.end(), [](const WeightedEdge& a, const WeightedEdge& c) {
          return std::tie(a.src, a.dst, a.weight) < std::tie(c.src, c.dst, c.weight);
        });
        for (uint64_t e = 0; e < count; ++e) encode(edges[e], record, raw.data() + e * record);
        meta.block_crc[b] = crc32_of(raw);
        col.pwrite_all(raw, meta.col_offset(i, j));
        row.pwrite_all(raw, meta.row_offset(i, j));
        progress.update(done += raw.size());
      }
  }
  col.sync();
  row.sync();

  std::vector<uint32_t> narrow(info.vertices);
  for (uint64_t v = 0; v < info.vertices; ++v) {
    if (degrees[v] > UINT32_MAX) fail("vertex {} has {} out-edges, more than 2^32-1", v, degrees[v]);
    narrow[v] = static_cast<uint32_t>(degrees[v]);
  }
  auto degree_bytes = std::as_bytes(std::span<const uint32_t>(narrow));
  meta.degrees_crc = crc32_of(degree_bytes);
  {
    AtomicOutputFile out(degrees_path(dir));
    out.append(degree_bytes);
    out.commit();
  }
  AtomicOutputFile out(meta_path(dir));
  out.append(meta.serialize());
  out.commit();
}

}  // namespace graphso
