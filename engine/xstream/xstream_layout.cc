#include "engine/xstream/xstream_layout.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <queue>

#include "base/checked_file.h"
#include "base/error.h"
#include "base/file.h"
#include "io/page_sums.h"

namespace graphso {
namespace {

// Version 2: the edge encoding, and each partition file's stored bytes.
constexpr FileFormat kFormat{"GSOXSTR", 2, "an X-Stream meta", "format", "re-run `graphso prep`"};

struct Header {
  FormatTag tag;
  uint32_t partitions;
  uint32_t grid_identity;
  uint32_t encoding;  // EdgeEncoding, the grid's
};
static_assert(sizeof(Header) == 24);

// Reads one sorted block of the row file through a small buffer (raw records, or whole packed
// pages decoded into records).
class BlockCursor {
 public:
  BlockCursor(const File& file, uint64_t offset, uint64_t bytes, const GridMeta& meta, uint64_t buffer_bytes)
      : file_(file), offset_(offset), left_(bytes), record_(meta.edge_size()), weighted_(meta.weighted),
        packed_(meta.packed()),
        stored_(align_down(std::max(buffer_bytes, packed_ ? kPackedPageBytes : record_), packed_ ? kPackedPageBytes : record_)) {}
  bool done() const { return at_ == records_.size() && left_ == 0; }
  // The current record; only when !done().
  const std::byte* current() {
    if (at_ == records_.size()) refill();
    return records_.data() + at_;
  }
  void advance() { at_ += record_; }

 private:
  void refill() {
    const uint64_t n = std::min<uint64_t>(left_, stored_);
    std::vector<std::byte>& into = packed_ ? pages_ : records_;
    into.resize(n);
    file_.pread_exact(into, offset_);
    offset_ += n;
    left_ -= n;
    at_ = 0;
    if (!packed_) return;
    PackedPageProblem problem;
    if (decode_packed_pages(pages_, weighted_, records_, &problem) < 0)
      fail("{}: the page at offset {} is malformed: {} (corrupt; re-run `graphso prep`)", file_.path(),
           offset_ - n + problem.page * kPackedPageBytes, problem.what);
  }
  const File& file_;
  uint64_t offset_, left_;
  uint32_t record_;
  bool weighted_, packed_;
  uint64_t stored_;  // bytes read at a time
  std::vector<std::byte> pages_, records_;
  uint64_t at_ = 0;
};

uint64_t key_of(const std::byte* record) {
  Edge e;
  std::memcpy(&e, record, sizeof(e));
  return (uint64_t{e.src} << 32) | e.dst;
}

}  // namespace

bool XStreamLayout::exists(const std::string& dir) { return path_exists(GraphFiles(dir).xstream_meta()); }

std::string XStreamLayout::path(uint32_t k) const { return files_.xstream_part(k); }

std::vector<std::string> XStreamLayout::paths() const {
  std::vector<std::string> out;
  for (uint32_t k = 0; k < partitions(); ++k) out.push_back(path(k));
  return out;
}

void XStreamLayout::remove(const std::string& dir) {
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().filename().string().rfind("xstream.", 0) == 0) std::filesystem::remove(entry.path());
}

void XStreamLayout::write(const GridGraph& grid) {
  const GridMeta& m = grid.meta();
  const uint32_t record = m.edge_size();
  const uint32_t P = m.partitions;
  File row(grid.files().grid_row(), File::Mode::Read);
  // About 16 MiB of read buffers in all, at least a page per block.
  const uint64_t buffer_bytes = std::max<uint64_t>(kPackedPageBytes + record, (16ull << 20) / P);
  std::vector<uint64_t> edges(P, 0), bytes(P, 0);
  std::vector<uint32_t> crc(P, 0);
  std::vector<std::byte> out;
  out.reserve(1 << 20);
  for (uint32_t k = 0; k < P; ++k) {
    std::vector<BlockCursor> cursors;
    for (uint32_t j = 0; j < P; ++j) cursors.emplace_back(row, m.row_offset(k, j), m.block_bytes(k, j), m, buffer_bytes);
    using Head = std::pair<uint64_t, uint32_t>;  // (source << 32 | destination, cursor)
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heap;
    for (uint32_t j = 0; j < P; ++j)
      if (!cursors[j].done()) heap.push({key_of(cursors[j].current()), j});
    AtomicOutputFile file(grid.files().xstream_part(k));
    PackedPageWriter pages(m.weighted, out);
    auto flush = [&] {
      crc[k] = crc32_of(out, crc[k]);
      bytes[k] += out.size();
      file.append(out);
      out.clear();
    };
    while (!heap.empty()) {
      auto [key, j] = heap.top();
      heap.pop();
      const std::byte* r = cursors[j].current();
      if (m.packed()) {
        WeightedEdge e{0, 0, 1};
        std::memcpy(&e, r, record);
        pages.add(e);
      } else {
        out.insert(out.end(), r, r + record);
      }
      ++edges[k];
      cursors[j].advance();
      if (!cursors[j].done()) heap.push({key_of(cursors[j].current()), j});
      if (out.size() >= (1u << 20)) flush();
    }
    pages.finish();
    flush();
    std::vector<std::byte> pad(align_up(file.written(), kDirectAlignment) - file.written());
    file.append(pad);
    file.commit();
    write_page_sums(grid.files().xstream_part(k));
  }
  Header h{};
  h.tag = kFormat.tag();
  h.partitions = P;
  h.grid_identity = grid.identity();
  h.encoding = static_cast<uint32_t>(m.encoding);
  std::string meta(reinterpret_cast<const char*>(&h), sizeof(h));
  meta.append(reinterpret_cast<const char*>(edges.data()), edges.size() * sizeof(uint64_t));
  meta.append(reinterpret_cast<const char*>(bytes.data()), bytes.size() * sizeof(uint64_t));
  meta.append(reinterpret_cast<const char*>(crc.data()), crc.size() * sizeof(uint32_t));
  write_sealed_file(grid.files().xstream_meta(), meta);
}

XStreamLayout XStreamLayout::open(const GridGraph& grid) {
  const std::string path = grid.files().xstream_meta();
  if (!path_exists(path))
    fail("{}: the graph has no X-Stream layout (run `graphso prep --engine xstream` or `--engine both`)", path);
  SealedFile file(kFormat, path, sizeof(Header));
  const Header h = file.header<Header>();
  file.check_size_and_crc(sizeof(h) + uint64_t{h.partitions} * (2 * sizeof(uint64_t) + sizeof(uint32_t)) + sizeof(uint32_t));
  const GridMeta& m = grid.meta();
  if (h.grid_identity != grid.identity() || h.partitions != m.partitions || h.encoding != static_cast<uint32_t>(m.encoding))
    fail("{}: derived from another preparation of this graph (re-run `graphso prep --engine xstream`)", path);
  XStreamLayout layout;
  layout.files_ = grid.files();
  layout.identity_ = file.crc();
  layout.edges_.resize(h.partitions);
  layout.bytes_.resize(h.partitions);
  layout.crc_.resize(h.partitions);
  std::memcpy(layout.edges_.data(), file.body(), h.partitions * sizeof(uint64_t));
  std::memcpy(layout.bytes_.data(), file.body() + h.partitions * sizeof(uint64_t), h.partitions * sizeof(uint64_t));
  std::memcpy(layout.crc_.data(), file.body() + 2 * h.partitions * sizeof(uint64_t), h.partitions * sizeof(uint32_t));
  uint64_t total = 0;
  for (uint32_t k = 0; k < h.partitions; ++k) {
    total += layout.edges_[k];
    const std::string part = layout.path(k);
    if (!path_exists(part)) fail("{}: missing", part);
    const uint64_t n = layout.edges_[k], size = layout.bytes_[k];
    const bool fits = m.packed() ? packed_size_fits(n, size) : size == n * m.edge_size();
    if (!fits) fail("{}: corrupt: partition {} holds {} edges in {} bytes", path, k, n, size);
    check_size(part, File(part, File::Mode::Read).size(), align_up(size, kDirectAlignment), fmt::format("{} edges", n));
  }
  if (total != m.edges) fail("{}: partitions hold {} edges, the graph {} (corrupt)", path, total, m.edges);
  return layout;
}

void XStreamLayout::verify(const GridGraph& grid) const {
  const GridMeta& m = grid.meta();
  const uint32_t record = m.edge_size();
  std::vector<std::byte> bytes, decoded;
  for (uint32_t k = 0; k < partitions(); ++k) {
    File file(path(k), File::Mode::Read);
    bytes.resize(bytes_[k]);
    file.pread_exact(bytes, 0);
    check_crc(path(k), crc_[k], crc32_of(bytes));
    std::span<const std::byte> records = bytes;
    if (m.packed()) {
      PackedPageProblem problem;
      if (decode_packed_pages(bytes, m.weighted, decoded, &problem) < 0)
        fail("{}: the page at offset {} is malformed: {}", path(k), problem.page * kPackedPageBytes, problem.what);
      records = decoded;
    }
    if (records.size() != edges_[k] * record)
      fail("{}: holds {} edges, xstream.meta says {} (corrupt)", path(k), records.size() / record, edges_[k]);
    uint64_t last = 0;
    for (uint64_t e = 0; e < edges_[k]; ++e) {
      uint64_t key = key_of(records.data() + e * record);
      Edge edge;
      std::memcpy(&edge, records.data() + e * record, sizeof(edge));
      if (m.range_of(edge.src) != k || edge.dst >= m.vertices)
        fail("{}: edge {} -> {} lies outside the partition's ranges", path(k), edge.src, edge.dst);
      if (e > 0 && key < last) fail("{}: not sorted by source at edge {} (corrupt)", path(k), e);
      last = key;
    }
  }
}

}  // namespace graphso
