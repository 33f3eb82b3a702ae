#include "base/packed_pages.h"

#include <smmintrin.h>
#include <streamvbyte.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "base/error.h"
#include "base/stream_vbyte_decoder.h"

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

// A page's records, from its validated groups: per group its source, its first destination
// (zigzag against the previous group's, the first group's against its source) and its deltas;
// stores of fixed size (a memcpy of a run-time size per edge would be a call per edge). A flat
// loop over the edges with the group's source and first destination picked by conditional moves
// was measured slower here (3.5 against 2.6 ns an edge on R-MAT 22).
template <uint32_t kWidth>
void write_page_records(std::byte* out, uint32_t groups, const uint32_t* sources, const uint32_t* counts,
                        const uint32_t* deltas, const uint8_t* weights) {
  VertexId group_first = 0;
  uint64_t edge = 0;
  for (uint32_t g = 0; g < groups; ++g) {
    const VertexId src = sources[g];
    const uint64_t n = counts[g];
    VertexId dst = unzigzag(g == 0 ? src : group_first, deltas[edge]);
    group_first = dst;
    for (uint64_t k = 0; k < n; ++k, ++edge) {
      if (k > 0) dst += deltas[edge];
      if constexpr (kWidth == 0) {
        reinterpret_cast<Edge*>(out)[edge] = Edge{src, dst};
      } else {
        uint32_t w = 0;
        std::memcpy(&w, weights + edge * kWidth, kWidth);  // little-endian: the low bytes
        reinterpret_cast<WeightedEdge*>(out)[edge] = WeightedEdge{src, dst, w};
      }
    }
  }
}

void write_page_records(uint32_t width, std::byte* out, uint32_t groups, const uint32_t* sources,
                        const uint32_t* counts, const uint32_t* deltas, const uint8_t* weights) {
  switch (width) {
    case 0: return write_page_records<0>(out, groups, sources, counts, deltas, weights);
    case 1: return write_page_records<1>(out, groups, sources, counts, deltas, weights);
    case 2: return write_page_records<2>(out, groups, sources, counts, deltas, weights);
    case 3: return write_page_records<3>(out, groups, sources, counts, deltas, weights);
    default: return write_page_records<4>(out, groups, sources, counts, deltas, weights);
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
  if (!dst_values_.empty() && size_with(e) > fill_bytes_) finish();
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

PackedPageHeader packed_page_header(const std::byte* page) {
  PackedPageHeader h;
  std::memcpy(&h, page, sizeof(h));
  return h;
}

uint32_t packed_page_edges(const std::byte* page) { return packed_page_header(page).edges; }

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
  return {packed_page_header(pages.data()).first_src,
          packed_page_header(pages.data() + pages.size() - kPackedPageBytes).last_src};
}

namespace {

// Decodes the pages in turn: checks each (its header, its streams against their control bytes,
// its groups against its header, its sources against the previous page's), decodes its group
// stream and its destination stream (into deltas_at(edges before the page)), and hands it to
// on_page(header, before, sources, counts, deltas, weights) with the edges of the pages before
// it, sources and counts per group, the destinations as stored (zigzag or delta) and the weights'
// bytes; on_page returns what is wrong with the page, or null. Returns the edges, or -1 with
// `problem` set.
template <typename DeltasAt, typename OnPage>
int64_t decode_pages(std::span<const std::byte> pages, bool weighted, PackedPageProblem* problem, DeltasAt deltas_at,
                     OnPage on_page) {
  uint32_t groups[kMostValues], sources[kMostValues / 2], counts[kMostValues / 2];
  int64_t written = 0;
  const uint64_t count = pages.size() / kPackedPageBytes;
  auto bad = [&](uint64_t page, std::string what) {
    problem->page = page;
    problem->what = std::move(what);
    return -1;
  };
  if (pages.size() % kPackedPageBytes) return bad(count, "not a whole number of pages");
  uint64_t previous_last = 0;
  for (uint64_t p = 0; p < count; ++p) {
    const auto* page = reinterpret_cast<const uint8_t*>(pages.data() + p * kPackedPageBytes);
    const PackedPageHeader h = packed_page_header(pages.data() + p * kPackedPageBytes);
    if (h.magic != kPackedPageMagic || h.reserved != 0) return bad(p, "not a packed page (bad magic)");
    if (h.edges == 0 || h.groups == 0 || h.groups > h.edges)
      return bad(p, fmt::format("{} groups of {} edges", h.groups, h.edges));
    if (weighted ? (h.weight_bytes < 1 || h.weight_bytes > 4) : h.weight_bytes != 0)
      return bad(p, fmt::format("{}-byte weights in a{} graph", h.weight_bytes, weighted ? " weighted" : "n unweighted"));
    const uint64_t used = kHeaderBytes + uint64_t{h.group_bytes} + h.dst_bytes + uint64_t{h.edges} * h.weight_bytes;
    if (used > kPackedPageBytes) return bad(p, fmt::format("its streams take {} bytes", used));
    // A source split between pages repeats; any other step back is damage.
    if (p > 0 && h.first_src < previous_last) return bad(p, "its first source comes before the previous page's last");
    const uint8_t* group_stream = page + kHeaderBytes;
    const uint8_t* dst_stream = group_stream + h.group_bytes;
    const uint8_t* page_end = page + kPackedPageBytes;
    uint32_t* deltas = deltas_at(static_cast<uint64_t>(written));
    if (!decode_stream_vbyte(VByteCoding::k0124, group_stream, h.group_bytes, page_end - group_stream, 2u * h.groups,
                             groups))
      return bad(p, "its group stream's length disagrees with its control bytes");
    if (!decode_stream_vbyte(VByteCoding::k1234, dst_stream, h.dst_bytes, page_end - dst_stream, h.edges, deltas))
      return bad(p, "its destination stream's length disagrees with its control bytes");

    // The groups' sources and edge counts, checked against the header before anything is
    // written (the group stream's control bytes bound the groups to the arrays' sizes).
    uint64_t edges = 0, src = h.first_src;
    for (uint32_t g = 0; g < h.groups; ++g) {
      if (g > 0) src += uint64_t{groups[2 * g]} + 1;
      sources[g] = static_cast<VertexId>(src);
      counts[g] = groups[2 * g + 1] + 1;  // wraps only for a count the check below refuses
      edges += uint64_t{groups[2 * g + 1]} + 1;
    }
    if (src > h.last_src) return bad(p, "a source beyond the page's last");
    if (edges != h.edges) return bad(p, fmt::format("its groups hold {} edges, its header {}", edges, h.edges));
    if (src != h.last_src) return bad(p, "its last source is not the header's");
    previous_last = h.last_src;
    if (const char* what = on_page(h, static_cast<uint64_t>(written), sources, counts, deltas, dst_stream + h.dst_bytes))
      return bad(p, what);
    written += h.edges;
  }
  return written;
}

template <uint32_t kWidth>
void widen_weights(const uint8_t* in, uint64_t count, Weight* out) {
  // 1- and 2-byte weights (the common widths) 16 bytes at a time, zero-extended into 32-bit
  // lanes (SSE4.1): GCC does not vectorise the byte loop at -O2, and it was 40% of a page's
  // decode. Loads stay inside the weights.
  const auto load = [&](uint64_t at) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + at)); };
  const auto store = [&](uint64_t at, __m128i v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(out + at), v); };
  uint64_t k = 0;
  if constexpr (kWidth == 1) {
    for (; k + 16 <= count; k += 16) {
      const __m128i b = load(k);
      store(k, _mm_cvtepu8_epi32(b));
      store(k + 4, _mm_cvtepu8_epi32(_mm_srli_si128(b, 4)));
      store(k + 8, _mm_cvtepu8_epi32(_mm_srli_si128(b, 8)));
      store(k + 12, _mm_cvtepu8_epi32(_mm_srli_si128(b, 12)));
    }
  } else if constexpr (kWidth == 2) {
    for (; k + 8 <= count; k += 8) {
      const __m128i b = load(2 * k);
      store(k, _mm_cvtepu16_epi32(b));
      store(k + 4, _mm_cvtepu16_epi32(_mm_srli_si128(b, 8)));
    }
  }
  for (; k < count; ++k) {
    uint32_t w = 0;
    std::memcpy(&w, in + k * kWidth, kWidth);  // little-endian: the low bytes
    out[k] = w;
  }
}

void widen_weights(uint32_t width, const uint8_t* in, uint64_t count, Weight* out) {
  switch (width) {
    case 1: return widen_weights<1>(in, count, out);
    case 2: return widen_weights<2>(in, count, out);
    case 3: return widen_weights<3>(in, count, out);
    default: return widen_weights<4>(in, count, out);
  }
}

}  // namespace

int64_t decode_packed_pages(std::span<const std::byte> pages, bool weighted, std::byte* out,
                            PackedPageProblem* problem) {
  uint32_t deltas[kMostValues];
  const uint32_t record = edge_bytes(weighted);
  return decode_pages(
      pages, weighted, problem, [&](uint64_t) { return deltas; },
      [&](const PackedPageHeader& h, uint64_t before, const uint32_t* sources, const uint32_t* counts,
          const uint32_t* values, const uint8_t* weights) {
        write_page_records(h.weight_bytes, out + before * record, h.groups, sources, counts, values, weights);
        return static_cast<const char*>(nullptr);
      });
}

int64_t decode_packed_groups(std::span<const std::byte> pages, bool weighted, DecodedGroups& out,
                             PackedPageProblem* problem) {
  // Room for what the headers count (the decoder writes exactly that many destinations a page).
  uint64_t edges = 0, groups = 0;
  for (uint64_t p = 0; p + kPackedPageBytes <= pages.size(); p += kPackedPageBytes) {
    const PackedPageHeader h = packed_page_header(pages.data() + p);
    edges += h.edges;
    groups += h.groups;
  }
  if (edges > std::numeric_limits<uint32_t>::max()) {  // offsets are 32-bit: decode fewer pages at once
    problem->page = 0;
    problem->what = fmt::format("{} edges are more than one decode holds", edges);
    return -1;
  }
  auto grow = [](auto& v, uint64_t n) {
    if (v.size() < n) v.resize(n);
  };
  grow(out.deltas, edges);
  grow(out.sources, groups);
  grow(out.firsts, groups);
  grow(out.highest, groups);
  grow(out.offsets, groups + 1);
  if (weighted) grow(out.weights, edges);
  out.groups = 0;
  out.offsets[0] = 0;
  const int64_t decoded = decode_pages(
      pages, weighted, problem, [&](uint64_t before) { return out.deltas.data() + before; },
      [&](const PackedPageHeader& h, uint64_t before, const uint32_t* sources, const uint32_t* counts, uint32_t* values,
          const uint8_t* weights) -> const char* {
        if (weighted) widen_weights(h.weight_bytes, weights, h.edges, out.weights.data() + before);
        // Per group its first destination (zigzag against the page's previous group's first, the
        // page's first group's against its source); the delta at a group's start becomes 0.
        const uint64_t page_group = out.groups;  // where this page's groups go
        grow(out.delta_sums, h.edges);
        VertexId previous_first = 0;
        uint64_t at = 0;  // the group's first edge in the page
        for (uint32_t g = 0; g < h.groups; at += counts[g], ++g) {
          const VertexId first = unzigzag(g == 0 ? sources[0] : previous_first, values[at]);
          previous_first = first;
          out.firsts[page_group + g] = first;
          values[at] = 0;
        }
        // The page's deltas summed without wrapping, in one pass without a branch per group, so
        // each group's highest destination is its first plus a difference of two sums: with
        // the deltas unsigned, every destination of the group lies between the two (one range
        // check a source, EdgeProcessor). A highest past 32 bits is kept as 2^32 - 1, outside
        // every range.
        uint64_t sum = 0;
        for (uint64_t k = 0; k < h.edges; ++k) out.delta_sums[k] = sum += values[k];
        // Groups are appended from page_group on, one slot behind when the first continues the
        // last page's: firsts[page_group + g] is read before anything is written there.
        at = 0;
        for (uint32_t g = 0; g < h.groups; at += counts[g], ++g) {
          const VertexId first = out.firsts[page_group + g];
          const uint64_t highest = std::min<uint64_t>(
              first + out.delta_sums[at + counts[g] - 1] - out.delta_sums[at], std::numeric_limits<uint32_t>::max());
          if (g == 0 && out.groups > 0 && out.sources[out.groups - 1] == sources[0]) {
            // The source continues from the last page: one group, whose delta here is from the
            // destination it ended on.
            const uint64_t last_group = out.groups - 1;
            const VertexId last = out.highest[last_group];
            if (first < last) return "its first destination comes before the previous page's last for the same source";
            values[at] = first - last;
            out.highest[last_group] = static_cast<VertexId>(highest);
            out.offsets[out.groups] += counts[0];
            continue;
          }
          out.sources[out.groups] = sources[g];
          out.firsts[out.groups] = first;
          out.highest[out.groups] = static_cast<VertexId>(highest);
          out.offsets[out.groups + 1] = out.offsets[out.groups] + counts[g];
          ++out.groups;
        }
        return nullptr;
      });
  if (decoded < 0) out.groups = 0;
  out.edges = decoded < 0 ? 0 : static_cast<uint64_t>(decoded);
  return decoded;
}

PackedPageOutline outline_of(const DecodedGroups& groups) {
  PackedPageOutline o;
  if (groups.groups == 0) return o;
  const uint64_t last = groups.groups - 1;
  o.first_src = groups.sources[0];
  o.last_src = groups.sources[last];
  o.edges = static_cast<uint32_t>(groups.edges);
  o.first_src_edges = groups.offsets[1] - groups.offsets[0];
  o.last_src_edges = groups.offsets[last + 1] - groups.offsets[last];
  o.min_dst = *std::min_element(groups.firsts.begin(), groups.firsts.begin() + static_cast<int64_t>(groups.groups));
  o.max_dst = *std::max_element(groups.highest.begin(), groups.highest.begin() + static_cast<int64_t>(groups.groups));
  return o;
}

PackedPageOutline outline_of(std::span<const WeightedEdge> edges) {
  PackedPageOutline o;
  o.first_src = edges.front().src;
  o.last_src = edges.back().src;
  o.edges = static_cast<uint32_t>(edges.size());
  o.min_dst = UINT32_MAX;
  for (const WeightedEdge& e : edges) {
    o.first_src_edges += e.src == o.first_src;
    o.last_src_edges += e.src == o.last_src;
    o.min_dst = std::min(o.min_dst, e.dst);
    o.max_dst = std::max(o.max_dst, e.dst);
  }
  return o;
}

}  // namespace graphso
