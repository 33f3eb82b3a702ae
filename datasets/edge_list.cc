#include "datasets/edge_list.h"

#include <type_traits>

#include <cstring>

#include "base/checked_file.h"
#include "base/error.h"

namespace graphso {
namespace {

constexpr FileFormat kFormat{"GSOEDGE1", 1, "a graphso edge list", "edge list format",
                             "re-create it with `graphso convert`", "use `graphso convert` first"};
constexpr uint64_t kWriteBatchBytes = 8ull << 20;

struct Header {
  FormatTag tag;
  uint32_t flags;  // bit 0: weighted
  uint64_t vertices;
  uint64_t edges;
  uint8_t reserved[28];
  uint32_t crc;  // crc32 of the 60 bytes before it
};
static_assert(sizeof(Header) == kEdgeListHeaderBytes);

uint32_t header_crc(const Header& h) { return crc_before(h, offsetof(Header, crc)); }

}  // namespace

EdgeListWriter::EdgeListWriter(const std::string& path, bool weighted)
    : out_(path), weighted_(weighted) {
  Header placeholder{};
  out_.append(as_bytes_of(placeholder));
}

void EdgeListWriter::append(std::span<const WeightedEdge> edges) {
  uint32_t record = edge_bytes(weighted_);
  size_t at = pending_.size();
  pending_.resize(at + edges.size() * record);
  std::byte* p = pending_.data() + at;
  for (const WeightedEdge& e : edges) {
    std::memcpy(p, &e, record);  // src, dst[, weight] are the leading fields
    p += record;
    max_id_plus_one_ = std::max<uint64_t>(max_id_plus_one_, uint64_t{std::max(e.src, e.dst)} + 1);
  }
  edges_ += edges.size();
  if (pending_.size() >= kWriteBatchBytes) flush();
}

void EdgeListWriter::flush() {
  out_.append(pending_);
  pending_.clear();
}

void EdgeListWriter::finish(uint64_t vertices) {
  flush();
  if (vertices < max_id_plus_one_)
    fail("edge list declares {} vertices but uses id {}", vertices, max_id_plus_one_ - 1);
  if (vertices > kMaxVertexId + 1) fail("{} vertices exceed the maximum of 2^32-1", vertices);
  Header h{};
  h.tag = kFormat.tag();
  h.flags = weighted_ ? 1 : 0;
  h.vertices = vertices;
  h.edges = edges_;
  h.crc = header_crc(h);
  out_.file().pwrite_all(as_bytes_of(h), 0);
  out_.commit();
}

EdgeListReader::EdgeListReader(const std::string& path) : file_(path, File::Mode::Read) {
  uint64_t size = file_.size();
  if (size < sizeof(Header)) fail("{}: too small to be a graphso edge list ({} bytes)", path, size);
  Header h{};
  file_.pread_exact(std::as_writable_bytes(std::span<Header, 1>(&h, 1)), 0);
  check_tag(kFormat, h.tag, path);
  check_crc(path, h.crc, header_crc(h), "edge list header");
  if (h.vertices > kMaxVertexId + 1)
    fail("{}: the header declares {} vertices, more than graphso's maximum of 2^32-1 (corrupt?)", path, h.vertices);
  info_.vertices = h.vertices;
  info_.edges = h.edges;
  info_.weighted = (h.flags & 1) != 0;
  if (h.edges > (size - sizeof(Header)) / edge_bytes(info_.weighted))  // and the size below cannot overflow
    fail("{}: the header declares {} edges, more than its {} bytes hold (truncated or corrupt)", path, h.edges, size);
  check_size(path, size, sizeof(Header) + h.edges * edge_bytes(info_.weighted), fmt::format("{} edges", h.edges));
}

template <typename EdgeRecord>
bool EdgeListReader::read_batch(std::vector<EdgeRecord>& out, uint64_t max_edges) {
  out.clear();
  uint64_t count = std::min(max_edges, info_.edges - next_edge_);
  if (count == 0) return false;
  uint32_t record = edge_bytes(info_.weighted);
  raw_.resize(count * record);
  file_.pread_exact(raw_, sizeof(Header) + next_edge_ * record);
  out.resize(count);
  const std::byte* p = raw_.data();
  for (uint64_t i = 0; i < count; ++i, p += record) {
    WeightedEdge e{0, 0, 1};
    std::memcpy(&e, p, record);
    if (e.src >= info_.vertices || e.dst >= info_.vertices)
      fail("{}: edge {} ({} -> {}) has a vertex id >= the declared {} vertices", file_.path(),
           next_edge_ + i, e.src, e.dst, info_.vertices);
    if constexpr (std::is_same_v<EdgeRecord, WeightedEdge>) out[i] = e;
    else out[i] = Edge{e.src, e.dst};
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
