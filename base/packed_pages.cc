#include "base/packed_pages.h"

#include <streamvbyte.h>

#include <array>
#include <cstring>

#include "base/error.h"

namespace graphso {
namespace {

constexpr uint64_t kHeaderBytes = sizeof(PackedPageHeader);
// More values than a page can hold (each takes at least a quarter byte of control): the bound of
// the decoder's scratch arrays.
constexpr uint32_t kMostValues = 4 * kPackedPageBytes;

// Data bytes of one value, Stream VByte's two codings.
uint32_t bytes_1234(uint32_t v) { return v < (1u << 8) ? 1 : v < (1u << 16) ? 2 : v < (1u << 24) ? 3 : 4; }
uint32_t bytes_0124(uint32_t v) { return v == 0 ? 0 : v < (1u << 8) ? 1 : v < (1u << 16) ? 2 : 4; }
uint64_t control_bytes(uint64_t values) { return (values + 3) / 4; }
uint32_t weight_width(uint32_t max_weight) { return bytes_1234(max_weight); }

uint32_t zigzag(VertexId src, VertexId dst) {
  const int32_t d = static_cast<int32_t>(dst - src);  // wraps: decoding wraps back
  return (static_cast<uint32_t>(d) << 1) ^ static_cast<uint32_t>(d >> 31);
}
VertexId unzigzag(VertexId src, uint32_t z) { return src + ((z >> 1) ^ (0u - (z & 1))); }

// Data bytes that `values` values with these control bytes take (the Stream VByte control says
// each value's length in two bits): what the decoder will read beyond the control bytes.
template <bool k0124>
uint64_t data_bytes(const uint8_t* control, uint64_t values) {
  static constexpr std::array<uint8_t, 4> kLength = k0124 ? std::array<uint8_t, 4>{0, 1, 2, 4} : std::array<uint8_t, 4>{1, 2, 3, 4};
  static const std::array<uint8_t, 256> kTable = [] {
    std::array<uint8_t, 256> t{};
    for (int c = 0; c < 256; ++c) t[c] = kLength[c & 3] + kLength[(c >> 2) & 3] + kLength[(c >> 4) & 3] + kLength[(c >> 6) & 3];
    return t;
  }();
  uint64_t bytes = 0;
  const uint64_t whole = values / 4;
  for (uint64_t k = 0; k < whole; ++k) bytes += kTable[control[k]];
  for (uint64_t v = 0; v < values % 4; ++v) bytes += kLength[(control[whole] >> (2 * v)) & 3];
  return bytes;
}

// The records of a page, from its decoded sources and destinations: stores of fixed size (a
// memcpy of a run-time size per edge would be a call per edge).
void write_records(Edge* out, const uint32_t* srcs, const uint32_t* dsts, uint32_t edges) {
  for (uint32_t e = 0; e < edges; ++e) out[e] = Edge{srcs[e], dsts[e]};
}

template <uint32_t kWidth>
void write_weighted_as(WeightedEdge* out, const uint32_t* srcs, const uint32_t* dsts, const uint8_t* weights,
                       uint32_t edges) {
  for (uint32_t e = 0; e < edges; ++e) {
    uint32_t w = 0;
    std::memcpy(&w, weights + uint64_t{e} * kWidth, kWidth);  // little-endian: the low bytes
    out[e] = WeightedEdge{srcs[e], dsts[e], w};
  }
}

void write_weighted(WeightedEdge* out, const uint32_t* srcs, const uint32_t* dsts, const uint8_t* weights,
                    uint32_t width, uint32_t edges) {
  switch (width) {
    case 1: return write_weighted_as<1>(out, srcs, dsts, weights, edges);
    case 2: return write_weighted_as<2>(out, srcs, dsts, weights, edges);
    case 3: return write_weighted_as<3>(out, srcs, dsts, weights, edges);
    default: return write_weighted_as<4>(out, srcs, dsts, weights, edges);
  }
}

}  // namespace

EdgeEncoding parse_encoding(const std::string& name) {
  if (name == "packed") return EdgeEncoding::Packed;
  if (name == "raw") return EdgeEncoding::Raw;
  fail("unknown edge encoding '{}' (packed or raw)", printable(name));
}

const char* encoding_name(EdgeEncoding encoding) { return encoding == EdgeEncoding::Packed ? "packed" : "raw"; }

uint64_t PackedPageWriter::size_with(const WeightedEdge& e) const {
  const bool new_group = dst_values_.empty() || e.src != last_src_;
  uint64_t groups = group_values_.size(), group_data = group_data_;
  if (new_group) {
    const uint32_t gap = dst_values_.empty() ? 0 : e.src - last_src_ - 1;
    groups += 2;
    group_data += bytes_0124(gap) + bytes_0124(0);
  } else {
    const uint32_t count = group_values_.back();  // becomes count + 1
    group_data += bytes_0124(count + 1) - bytes_0124(count);
  }
  const uint64_t edges = dst_values_.size() + 1;
  const uint32_t value = new_group ? zigzag(dst_values_.empty() ? e.src : group_first_dst_, e.dst) : e.dst - last_dst_;
  const uint64_t width = weighted_ ? weight_width(std::max(max_weight_, e.weight)) : 0;
  return kHeaderBytes + control_bytes(groups) + group_data + control_bytes(edges) + dst_data_ + bytes_1234(value) +
         edges * width;
}

void PackedPageWriter::append(const WeightedEdge& e) {
  const bool new_group = dst_values_.empty() || e.src != last_src_;
  if (new_group) {
    const uint32_t gap = dst_values_.empty() ? 0 : e.src - last_src_ - 1;
    if (dst_values_.empty()) first_src_ = e.src;
    group_values_.push_back(gap);
    group_values_.push_back(0);
    group_data_ += bytes_0124(gap);
    dst_values_.push_back(zigzag(dst_values_.empty() ? e.src : group_first_dst_, e.dst));
    group_first_dst_ = e.dst;
  } else {
    uint32_t& count = group_values_.back();  // the group's edges minus one
    group_data_ += bytes_0124(count + 1) - bytes_0124(count);
    ++count;
    dst_values_.push_back(e.dst - last_dst_);
  }
  dst_data_ += bytes_1234(dst_values_.back());
  if (weighted_) {
    weights_.push_back(e.weight);
    max_weight_ = std::max(max_weight_, e.weight);
  }
  last_src_ = e.src;
  last_dst_ = e.dst;
}

void PackedPageWriter::add(const WeightedEdge& e) {
  if (!dst_values_.empty() && (e.src < last_src_ || (e.src == last_src_ && e.dst < last_dst_)))
    fail("packed encoding: edge {} -> {} comes after {} -> {} (edges must be sorted)", e.src, e.dst, last_src_, last_dst_);
  // A page holds at most 65535 edges and groups (u16 counts); far fewer fit in 4 KiB anyway.
  if (!dst_values_.empty() && size_with(e) > kPackedPageBytes) finish();
  append(e);
}

void PackedPageWriter::finish() {
  if (dst_values_.empty()) return;
  const size_t at = out_.size();
  out_.resize(at + kPackedPageBytes);
  std::byte* page = out_.data() + at;
  auto* bytes = reinterpret_cast<uint8_t*>(page);
  PackedPageHeader h{};
  h.first_src = first_src_;
  h.last_src = last_src_;
  h.groups = static_cast<uint16_t>(group_values_.size() / 2);
  h.edges = static_cast<uint16_t>(dst_values_.size());
  h.weight_bytes = static_cast<uint8_t>(weighted_ ? weight_width(max_weight_) : 0);
  h.magic = kPackedPageMagic;
  uint8_t* at_bytes = bytes + kHeaderBytes;
  h.group_bytes = static_cast<uint16_t>(
      streamvbyte_encode_0124(group_values_.data(), static_cast<uint32_t>(group_values_.size()), at_bytes));
  at_bytes += h.group_bytes;
  h.dst_bytes = static_cast<uint16_t>(streamvbyte_encode(dst_values_.data(), static_cast<uint32_t>(dst_values_.size()), at_bytes));
  at_bytes += h.dst_bytes;
  for (uint32_t w : weights_) {
    std::memcpy(at_bytes, &w, h.weight_bytes);  // little-endian: the low bytes
    at_bytes += h.weight_bytes;
  }
  if (static_cast<uint64_t>(at_bytes - bytes) > kPackedPageBytes)
    fail("packed encoding: a page overflowed ({} bytes)", at_bytes - bytes);  // a bug in size_with
  std::memset(at_bytes, 0, kPackedPageBytes - static_cast<uint64_t>(at_bytes - bytes));
  std::memcpy(page, &h, sizeof(h));
  ++pages_;
  group_values_.clear();
  dst_values_.clear();
  weights_.clear();
  group_data_ = dst_data_ = 0;
  max_weight_ = 0;
}

uint32_t packed_page_edges(const std::byte* page) {
  PackedPageHeader h;
  std::memcpy(&h, page, sizeof(h));
  return h.edges;
}

uint64_t packed_edges_in(std::span<const std::byte> pages) {
  uint64_t edges = 0;
  for (uint64_t p = 0; p + kPackedPageBytes <= pages.size(); p += kPackedPageBytes) edges += packed_page_edges(pages.data() + p);
  return edges;
}

int64_t decode_packed_pages(std::span<const std::byte> pages, bool weighted, std::vector<std::byte>& records,
                            PackedPageProblem* problem) {
  records.resize(packed_edges_in(pages) * edge_bytes(weighted));
  return decode_packed_pages(pages, weighted, records.data(), problem);
}

std::pair<VertexId, VertexId> packed_source_range(std::span<const std::byte> pages) {
  PackedPageHeader first, last;
  std::memcpy(&first, pages.data(), sizeof(first));
  std::memcpy(&last, pages.data() + pages.size() - kPackedPageBytes, sizeof(last));
  return {first.first_src, last.last_src};
}

int64_t decode_packed_pages(std::span<const std::byte> pages, bool weighted, std::byte* out,
                            PackedPageProblem* problem) {
  uint32_t groups[kMostValues], dsts[kMostValues], srcs[kMostValues];
  const uint32_t record = edge_bytes(weighted);
  int64_t written = 0;
  const uint64_t count = pages.size() / kPackedPageBytes;
  auto bad = [&](uint64_t page, std::string what) {
    problem->page = page;
    problem->what = std::move(what);
    return -1;
  };
  if (pages.size() % kPackedPageBytes) return bad(count, "not a whole number of pages");
  for (uint64_t p = 0; p < count; ++p) {
    const auto* page = reinterpret_cast<const uint8_t*>(pages.data() + p * kPackedPageBytes);
    PackedPageHeader h;
    std::memcpy(&h, page, sizeof(h));
    if (h.magic != kPackedPageMagic || h.reserved != 0) return bad(p, "not a packed page (bad magic)");
    if (h.edges == 0 || h.groups == 0 || h.groups > h.edges)
      return bad(p, fmt::format("{} groups of {} edges", h.groups, h.edges));
    if (weighted ? (h.weight_bytes < 1 || h.weight_bytes > 4) : h.weight_bytes != 0)
      return bad(p, fmt::format("{}-byte weights in a{} graph", h.weight_bytes, weighted ? " weighted" : "n unweighted"));
    const uint64_t used = kHeaderBytes + uint64_t{h.group_bytes} + h.dst_bytes + uint64_t{h.edges} * h.weight_bytes;
    if (used > kPackedPageBytes) return bad(p, fmt::format("its streams take {} bytes", used));
    const uint8_t* group_stream = page + kHeaderBytes;
    const uint8_t* dst_stream = group_stream + h.group_bytes;
    const uint64_t group_values = 2 * uint64_t{h.groups};
    if (control_bytes(group_values) > h.group_bytes ||
        control_bytes(group_values) + data_bytes<true>(group_stream, group_values) != h.group_bytes)
      return bad(p, "its group stream's length disagrees with its control bytes");
    if (control_bytes(h.edges) > h.dst_bytes || control_bytes(h.edges) + data_bytes<false>(dst_stream, h.edges) != h.dst_bytes)
      return bad(p, "its destination stream's length disagrees with its control bytes");
    streamvbyte_decode_0124(group_stream, groups, static_cast<uint32_t>(group_values));
    streamvbyte_decode(dst_stream, dsts, h.edges);
    const uint8_t* weights = dst_stream + h.dst_bytes;

    // Destinations first (a prefix sum per group), checked against the groups; then the records.
    uint64_t edge = 0;
    VertexId src = h.first_src, group_first = 0;
    for (uint32_t g = 0; g < h.groups; ++g) {
      if (g > 0) {
        const uint64_t next = uint64_t{src} + groups[2 * g] + 1;
        if (next > h.last_src) return bad(p, "a source beyond the page's last");
        src = static_cast<VertexId>(next);
      }
      const uint64_t n = uint64_t{groups[2 * g + 1]} + 1;
      if (edge + n > h.edges) return bad(p, fmt::format("its groups hold more than its {} edges", h.edges));
      VertexId dst = unzigzag(g == 0 ? src : group_first, dsts[edge]);
      group_first = dst;
      dsts[edge] = dst;
      srcs[edge] = src;
      for (uint64_t k = 1; k < n; ++k) {
        dst += dsts[edge + k];
        dsts[edge + k] = dst;
        srcs[edge + k] = src;
      }
      edge += n;
    }
    if (edge == h.edges) {
      std::byte* at = out + written * record;
      if (!weighted) write_records(reinterpret_cast<Edge*>(at), srcs, dsts, h.edges);
      else write_weighted(reinterpret_cast<WeightedEdge*>(at), srcs, dsts, weights, h.weight_bytes, h.edges);
    }
    if (edge != h.edges) return bad(p, fmt::format("its groups hold {} of its {} edges", edge, h.edges));
    if (src != h.last_src) return bad(p, "its last source is not the header's");
    written += h.edges;
  }
  return written;
}

}  // namespace graphso
