#include "datasets/edge_list.h"

#include <cstdio>
#include <cstring>
#include <type_traits>

#include "base/checked_file.h"
#include "base/checksum.h"
#include "base/error.h"

namespace graphso {
namespace {

// 2: the records checked in blocks (a CRC-32C per block after the records). Version 1 files are
// still read, with a warning: only their header is checked.
constexpr FileFormat kFormat{"GSOEDGE1", 2, "a graphso edge list", "edge list format",
                             "re-create it with `graphso convert`", "use `graphso convert` first"};
constexpr uint32_t kUncheckedVersion = 1;
constexpr uint64_t kWriteBatchBytes = 8ull << 20;
// Records per checksummed block: 512 KiB (768 KiB weighted) read and checked at a time.
constexpr uint32_t kBlockRecords = 65536;

struct Header {
  FormatTag tag;
  uint32_t flags;  // bit 0: weighted; bit 1: the weights are reals (binary32)
  uint64_t vertices;
  uint64_t edges;
  uint32_t block_records;  // version 2: records per checksummed block
  uint8_t reserved[24];
  uint32_t crc;  // crc32 of the 60 bytes before it
};
static_assert(sizeof(Header) == kEdgeListHeaderBytes);

uint32_t header_crc(const Header& h) { return crc_before(h, offsetof(Header, crc)); }

}  // namespace

EdgeListWriter::EdgeListWriter(const std::string& path, bool weighted, bool real_weights)
    : out_(path), weighted_(weighted), real_weights_(weighted && real_weights) {
  Header placeholder{};
  out_.append(as_bytes_of(placeholder));
}

void EdgeListWriter::append(std::span<const WeightedEdge> edges) {
  const uint32_t record = edge_bytes(weighted_);
  const size_t at = pending_.size();
  pending_.resize(at + edges.size() * record);
  std::byte* p = pending_.data() + at;
  for (const WeightedEdge& e : edges) {
    std::memcpy(p, &e, record);  // src, dst[, weight] are the leading fields
    p += record;
    max_id_plus_one_ = std::max<uint64_t>(max_id_plus_one_, uint64_t{std::max(e.src, e.dst)} + 1);
  }
  // The new records' checksums, block by block.
  const std::byte* q = pending_.data() + at;
  for (uint64_t left = edges.size(); left > 0;) {
    const uint64_t n = std::min<uint64_t>(left, kBlockRecords - edges_ % kBlockRecords);
    block_crc_ = crc32c_of(std::span<const std::byte>(q, n * record), block_crc_);
    q += n * record;
    edges_ += n;
    left -= n;
    if (edges_ % kBlockRecords == 0) {
      block_crcs_.push_back(block_crc_);
      block_crc_ = 0;
    }
  }
  if (pending_.size() >= kWriteBatchBytes) flush();
}

void EdgeListWriter::flush() {
  out_.append(pending_);
  pending_.clear();
}

void EdgeListWriter::finish(uint64_t vertices) {
  if (edges_ % kBlockRecords != 0) block_crcs_.push_back(block_crc_);
  flush();
  out_.append(std::as_bytes(std::span<const uint32_t>(block_crcs_)));
  if (vertices < max_id_plus_one_)
    fail("edge list declares {} vertices but uses id {}", vertices, max_id_plus_one_ - 1);
  if (vertices > kMaxVertexId + 1) fail("{} vertices exceed the maximum of 2^32-1", vertices);
  Header h{};
  h.tag = kFormat.tag();
  h.flags = (weighted_ ? 1u : 0u) | (real_weights_ ? 2u : 0u);
  h.vertices = vertices;
  h.edges = edges_;
  h.block_records = kBlockRecords;
  h.crc = header_crc(h);
  out_.file().pwrite_all(as_bytes_of(h), 0);
  out_.commit();
}

EdgeListReader::EdgeListReader(const std::string& path) : file_(path, File::Mode::Read) {
  uint64_t size = file_.size();
  if (size < sizeof(Header)) fail("{}: too small to be a graphso edge list ({} bytes)", path, size);
  Header h{};
  file_.pread_exact(std::as_writable_bytes(std::span<Header, 1>(&h, 1)), 0);
  const bool unchecked = std::memcmp(h.tag.magic, kFormat.magic, sizeof h.tag.magic) == 0 && h.tag.version == kUncheckedVersion;
  if (!unchecked) check_tag(kFormat, h.tag, path);
  check_crc(path, h.crc, header_crc(h), "edge list header");
  if (h.vertices > kMaxVertexId + 1)
    fail("{}: the header declares {} vertices, more than graphso's maximum of 2^32-1 (corrupt?)", path, h.vertices);
  info_.vertices = h.vertices;
  info_.edges = h.edges;
  if (h.flags & ~3u) fail("{}: unknown flags {:#x} in the edge list header (corrupt, or written by a newer graphso)", path, h.flags);
  info_.weighted = (h.flags & 1) != 0;
  info_.real_weights = (h.flags & 2) != 0;
  if (info_.real_weights && !info_.weighted) fail("{}: the header says real weights but no weights (corrupt)", path);
  const uint32_t record = edge_bytes(info_.weighted);
  if (h.edges > (size - sizeof(Header)) / record)  // and the sizes below cannot overflow
    fail("{}: the header declares {} edges, more than its {} bytes hold (truncated or corrupt)", path, h.edges, size);
  if (unchecked) {
    std::fprintf(stderr, "graphso: warning: %s: an edge list of format 1, whose records carry no checksum; "
                 "`graphso convert` writes one that does\n", path.c_str());
    check_size(path, size, sizeof(Header) + h.edges * record, fmt::format("{} edges", h.edges));
    return;
  }
  if (h.block_records == 0) fail("{}: corrupt edge list: a block of 0 records", path);
  block_records_ = h.block_records;
  const uint64_t blocks = (h.edges + block_records_ - 1) / block_records_;
  check_size(path, size, sizeof(Header) + h.edges * record + blocks * sizeof(uint32_t),
             fmt::format("{} edges and their {} block checksums", h.edges, blocks));
  block_crcs_.resize(blocks);
  file_.pread_exact(std::as_writable_bytes(std::span<uint32_t>(block_crcs_)), sizeof(Header) + h.edges * record);
}

// Version 2: reads the block holding record `first` whole into raw_ and checks it. Version 1: reads
// the `count` records from `first`, unchecked.
void EdgeListReader::load(uint64_t first, uint64_t count) {
  const uint32_t record = edge_bytes(info_.weighted);
  if (block_records_ == 0) {  // version 1: no checksums, read what is asked
    raw_.resize(count * record);
    file_.pread_exact(raw_, sizeof(Header) + first * record);
    raw_first_ = first;
    return;
  }
  const uint64_t block = first / block_records_;
  const uint64_t begin = block * block_records_;
  const uint64_t n = std::min<uint64_t>(block_records_, info_.edges - begin);
  raw_.resize(n * record);
  file_.pread_exact(raw_, sizeof(Header) + begin * record);
  if (crc32c_of(raw_) != block_crcs_[block])
    fail("{}: corrupt edge list: records {}..{} do not match their checksum", file_.path(), begin, begin + n - 1);
  raw_first_ = begin;
}

template <typename EdgeRecord>
bool EdgeListReader::read_batch(std::vector<EdgeRecord>& out, uint64_t max_edges) {
  out.clear();
  const uint64_t count = std::min(max_edges, info_.edges - next_edge_);
  if (count == 0) return false;
  const uint32_t record = edge_bytes(info_.weighted);
  out.resize(count);
  for (uint64_t i = 0; i < count;) {
    const uint64_t at = next_edge_ + i;
    if (raw_.empty() || at < raw_first_ || at >= raw_first_ + raw_.size() / record) load(at, count - i);
    const uint64_t here = std::min<uint64_t>(count - i, raw_first_ + raw_.size() / record - at);
    const std::byte* p = raw_.data() + (at - raw_first_) * record;
    for (uint64_t k = 0; k < here; ++k, p += record) {
      WeightedEdge e{0, 0, 1};
      std::memcpy(&e, p, record);
      if (e.src >= info_.vertices || e.dst >= info_.vertices)
        fail("{}: edge {} ({} -> {}) has a vertex id >= the declared {} vertices", file_.path(), at + k, e.src, e.dst,
             info_.vertices);
      if constexpr (std::is_same_v<EdgeRecord, WeightedEdge>) out[i + k] = e;
      else out[i + k] = Edge{e.src, e.dst};
    }
    i += here;
  }
  next_edge_ += count;
  return true;
}

bool EdgeListReader::next_batch(std::vector<WeightedEdge>& out, uint64_t max_edges) { return read_batch(out, max_edges); }
bool EdgeListReader::next_batch(std::vector<Edge>& out, uint64_t max_edges) { return read_batch(out, max_edges); }

void EdgeListReader::seek(uint64_t edge) {
  if (edge > info_.edges) fail("{}: cannot seek to edge {} of {}", file_.path(), edge, info_.edges);
  next_edge_ = edge;
}

}  // namespace graphso
