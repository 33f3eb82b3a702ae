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

constexpr FileFormat kFormat{"GSOXSTR", 1, "an X-Stream meta", "format", "re-run `graphso prep`"};

struct Header {
  FormatTag tag;
  uint32_t partitions;
  uint32_t grid_identity;
  uint32_t pad;
};
static_assert(sizeof(Header) == 24);

// Reads one sorted block of the row file through a small buffer.
class BlockCursor {
 public:
  BlockCursor(const File& file, uint64_t offset, uint64_t edges, uint32_t record, uint64_t buffer_edges)
      : file_(file), offset_(offset), left_(edges), record_(record), buffer_(buffer_edges * record) {}
  bool done() const { return at_ == filled_ && left_ == 0; }
  // The current record; only when !done().
  const std::byte* current() {
    if (at_ == filled_) refill();
    return buffer_.data() + at_;
  }
  void advance() { at_ += record_; }

 private:
  void refill() {
    uint64_t n = std::min<uint64_t>(left_, buffer_.size() / record_);
    file_.pread_exact(std::span<std::byte>(buffer_.data(), n * record_), offset_);
    offset_ += n * record_;
    left_ -= n;
    at_ = 0;
    filled_ = n * record_;
  }
  const File& file_;
  uint64_t offset_, left_;
  uint32_t record_;
  std::vector<std::byte> buffer_;
  uint64_t at_ = 0, filled_ = 0;
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
  // About 16 MiB of read buffers in all, at least 4 KiB per block.
  const uint64_t buffer_edges = std::max<uint64_t>(4096 / record + 1, (16ull << 20) / record / P);
  std::vector<uint64_t> edges(P, 0);
  std::vector<uint32_t> crc(P, 0);
  std::vector<std::byte> out;
  out.reserve(1 << 20);
  for (uint32_t k = 0; k < P; ++k) {
    std::vector<BlockCursor> cursors;
    for (uint32_t j = 0; j < P; ++j)
      cursors.emplace_back(row, m.row_offset(k, j), m.block_edges[m.block_index(k, j)], record, buffer_edges);
    using Head = std::pair<uint64_t, uint32_t>;  // (source << 32 | destination, cursor)
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heap;
    for (uint32_t j = 0; j < P; ++j)
      if (!cursors[j].done()) heap.push({key_of(cursors[j].current()), j});
    AtomicOutputFile file(grid.files().xstream_part(k));
    auto flush = [&] {
      crc[k] = crc32_of(out, crc[k]);
      file.append(out);
      out.clear();
    };
    while (!heap.empty()) {
      auto [key, j] = heap.top();
      heap.pop();
      const std::byte* r = cursors[j].current();
      out.insert(out.end(), r, r + record);
      ++edges[k];
      cursors[j].advance();
      if (!cursors[j].done()) heap.push({key_of(cursors[j].current()), j});
      if (out.size() >= (1u << 20)) flush();
    }
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
  std::string meta(reinterpret_cast<const char*>(&h), sizeof(h));
  meta.append(reinterpret_cast<const char*>(edges.data()), edges.size() * sizeof(uint64_t));
  meta.append(reinterpret_cast<const char*>(crc.data()), crc.size() * sizeof(uint32_t));
  write_sealed_file(grid.files().xstream_meta(), meta);
}

XStreamLayout XStreamLayout::open(const GridGraph& grid) {
  const std::string path = grid.files().xstream_meta();
  if (!path_exists(path))
    fail("{}: the graph has no X-Stream layout (run `graphso prep --engine xstream` or `--engine both`)", path);
  SealedFile file(kFormat, path, sizeof(Header));
  const Header h = file.header<Header>();
  file.check_size_and_crc(sizeof(h) + uint64_t{h.partitions} * (sizeof(uint64_t) + sizeof(uint32_t)) + sizeof(uint32_t));
  const GridMeta& m = grid.meta();
  if (h.grid_identity != grid.identity() || h.partitions != m.partitions)
    fail("{}: derived from another preparation of this graph (re-run `graphso prep --engine xstream`)", path);
  XStreamLayout layout;
  layout.files_ = grid.files();
  layout.identity_ = file.crc();
  layout.edges_.resize(h.partitions);
  layout.crc_.resize(h.partitions);
  std::memcpy(layout.edges_.data(), file.body(), h.partitions * sizeof(uint64_t));
  std::memcpy(layout.crc_.data(), file.body() + h.partitions * sizeof(uint64_t), h.partitions * sizeof(uint32_t));
  uint64_t total = 0;
  for (uint32_t k = 0; k < h.partitions; ++k) {
    total += layout.edges_[k];
    const std::string part = layout.path(k);
    if (!path_exists(part)) fail("{}: missing", part);
    check_size(part, File(part, File::Mode::Read).size(), align_up(layout.edges_[k] * m.edge_size(), kDirectAlignment),
               fmt::format("{} edges", layout.edges_[k]));
  }
  if (total != m.edges) fail("{}: partitions hold {} edges, the graph {} (corrupt)", path, total, m.edges);
  return layout;
}

void XStreamLayout::verify(const GridGraph& grid) const {
  const GridMeta& m = grid.meta();
  const uint32_t record = m.edge_size();
  std::vector<std::byte> bytes;
  for (uint32_t k = 0; k < partitions(); ++k) {
    File file(path(k), File::Mode::Read);
    bytes.resize(edges_[k] * record);
    file.pread_exact(bytes, 0);
    check_crc(path(k), crc_[k], crc32_of(bytes));
    uint64_t last = 0;
    for (uint64_t e = 0; e < edges_[k]; ++e) {
      uint64_t key = key_of(bytes.data() + e * record);
      Edge edge;
      std::memcpy(&edge, bytes.data() + e * record, sizeof(edge));
      if (m.range_of(edge.src) != k || edge.dst >= m.vertices)
        fail("{}: edge {} -> {} lies outside the partition's ranges", path(k), edge.src, edge.dst);
      if (e > 0 && key < last) fail("{}: not sorted by source at edge {} (corrupt)", path(k), e);
      last = key;
    }
  }
}

}  // namespace graphso
