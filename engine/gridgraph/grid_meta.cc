#include "engine/gridgraph/grid_meta.h"

#include <algorithm>
#include <cstring>

#include "base/checked_file.h"
#include "base/error.h"
#include "base/file.h"

namespace graphso {
namespace {

constexpr FileFormat kFormat{"GSOGRID", kGridFormatVersion, "a graphso graph meta file", "graph format",
                             "re-run `graphso prep`"};

struct Header {
  FormatTag tag;
  uint32_t flags;  // bit 0: weighted; bit 1: symmetric; bit 2: dataset ids; bit 3: real weights
  uint64_t vertices;
  uint64_t edges;
  uint32_t partitions;
  uint32_t degrees_crc;
  uint64_t range_size;
  uint32_t order;      // OrderKind
  uint32_t order_crc;  // of the order file
  uint32_t order_root;
  uint32_t encoding;   // EdgeEncoding
  uint32_t dataset_ids_crc;  // of the dataset_ids file (flag bit 2); reserved and zero before, so earlier graphs have none
  uint32_t reserved32;
  uint64_t reserved;
};
static_assert(sizeof(Header) == 80);  // the format's, version 3

template <typename T>
void put(std::string& out, const T* data, size_t count) {
  out.append(reinterpret_cast<const char*>(data), count * sizeof(T));
}

}  // namespace

uint64_t GridMeta::stored_bytes() const {
  uint64_t bytes = 0;
  for (uint64_t b : block_sizes) bytes += b;
  return bytes;
}

uint64_t GridMeta::edge_file_bytes() const { return align_up(stored_bytes(), kDirectAlignment); }

void GridMeta::finalize() {
  uint64_t blocks = num_blocks();
  row_offsets_.assign(blocks, 0);
  col_offsets_.assign(blocks, 0);
  uint64_t at = 0;
  for (uint32_t i = 0; i < partitions; ++i)
    for (uint32_t j = 0; j < partitions; ++j) {
      row_offsets_[block_index(i, j)] = at;
      at += block_bytes(i, j);
    }
  at = 0;
  for (uint32_t j = 0; j < partitions; ++j)
    for (uint32_t i = 0; i < partitions; ++i) {
      col_offsets_[block_index(i, j)] = at;
      at += block_bytes(i, j);
    }
}

std::string GridMeta::serialize() const {
  Header h{};
  h.tag = kFormat.tag();
  h.flags = (weighted ? 1u : 0u) | (symmetric ? 2u : 0u) | (dataset_ids ? 4u : 0u) | (real_weights ? 8u : 0u);
  h.dataset_ids_crc = dataset_ids_crc;
  h.vertices = vertices;
  h.edges = edges;
  h.partitions = partitions;
  h.degrees_crc = degrees_crc;
  h.range_size = range_size;
  h.order = static_cast<uint32_t>(order);
  h.order_crc = order_crc;
  h.order_root = order_root;
  h.encoding = static_cast<uint32_t>(encoding);
  std::string out;
  put(out, &h, 1);
  put(out, block_edges.data(), block_edges.size());
  put(out, block_sizes.data(), block_sizes.size());
  put(out, block_crc.data(), block_crc.size());
  return out;
}

uint32_t GridMeta::crc() const {
  std::string bytes = serialize();
  return crc32_of(std::as_bytes(std::span<const char>(bytes.data(), bytes.size())));
}

void GridMeta::save(const std::string& path) const { write_sealed_file(path, serialize()); }

GridMeta GridMeta::load(const std::string& path) {
  SealedFile file(kFormat, path, sizeof(Header));
  const Header h = file.header<Header>();
  if (h.partitions == 0 || h.partitions > 4096)
    fail("{}: corrupt: {} partitions", path, h.partitions);
  uint64_t blocks = uint64_t{h.partitions} * h.partitions;
  file.check_size_and_crc(sizeof(Header) + blocks * (2 * sizeof(uint64_t) + sizeof(uint32_t)) + sizeof(uint32_t),
                          "meta file");

  GridMeta meta;
  meta.vertices = h.vertices;
  meta.edges = h.edges;
  meta.weighted = (h.flags & 1) != 0;
  meta.symmetric = (h.flags & 2) != 0;
  meta.dataset_ids = (h.flags & 4) != 0;
  meta.real_weights = (h.flags & 8) != 0;
  meta.dataset_ids_crc = h.dataset_ids_crc;
  if (h.flags > 15 || (meta.real_weights && !meta.weighted)) fail("{}: corrupt: unknown flags {:#x}", path, h.flags);
  meta.partitions = h.partitions;
  meta.range_size = h.range_size;
  meta.degrees_crc = h.degrees_crc;
  if (h.order > static_cast<uint32_t>(OrderKind::Bfs)) fail("{}: corrupt: unknown vertex order {}", path, h.order);
  meta.order = static_cast<OrderKind>(h.order);
  meta.order_crc = h.order_crc;
  meta.order_root = h.order_root;
  if (h.encoding > static_cast<uint32_t>(EdgeEncoding::Packed)) fail("{}: corrupt: unknown edge encoding {}", path, h.encoding);
  meta.encoding = static_cast<EdgeEncoding>(h.encoding);
  meta.block_edges.resize(blocks);
  meta.block_sizes.resize(blocks);
  meta.block_crc.resize(blocks);
  std::memcpy(meta.block_edges.data(), file.body(), blocks * sizeof(uint64_t));
  std::memcpy(meta.block_sizes.data(), file.body() + blocks * sizeof(uint64_t), blocks * sizeof(uint64_t));
  std::memcpy(meta.block_crc.data(), file.body() + 2 * blocks * sizeof(uint64_t), blocks * sizeof(uint32_t));

  // A checksum protects against accidents; these protect against a consistent-but-wrong file.
  if (meta.vertices == 0 || meta.vertices > kMaxVertexId + 1)
    fail("{}: corrupt: {} vertices", path, meta.vertices);
  if (meta.range_size == 0 || meta.range_size % 64 != 0 ||
      meta.range_size * meta.partitions < meta.vertices)
    fail("{}: corrupt: range size {} does not cover {} vertices in {} ranges", path,
         meta.range_size, meta.vertices, meta.partitions);
  if (meta.order_root != kNoVertex && (meta.order != OrderKind::Bfs || meta.order_root >= meta.vertices))
    fail("{}: corrupt: order root {} for a {} order over {} vertices", path, meta.order_root, order_name(meta.order),
         meta.vertices);
  uint64_t sum = 0;
  for (uint64_t e : meta.block_edges) sum += e;
  if (sum != meta.edges) fail("{}: corrupt: blocks hold {} edges, header says {}", path, sum, meta.edges);
  for (uint64_t b = 0; b < blocks; ++b) {
    const uint64_t n = meta.block_edges[b], size = meta.block_sizes[b];
    // Raw: records back to back. Packed: whole pages (packed_size_fits).
    const bool fits = meta.packed() ? packed_size_fits(n, size) : size == n * meta.edge_size();
    if (!fits)
      fail("{}: corrupt: block {} holds {} edges in {} bytes ({} encoding)", path, b, n, size, encoding_name(meta.encoding));
  }
  meta.finalize();
  return meta;
}

uint32_t default_partitions(uint64_t vertices) {
  uint64_t p = (vertices + (1u << 17) - 1) >> 17;  // 128 Ki vertices x 8 bytes = 1 MiB
  return static_cast<uint32_t>(std::clamp<uint64_t>(p, 4, 256));
}

}  // namespace graphso
