// The packed edge encoding (`prep --encoding packed`, the default): a static partition's edges,
// sorted by (source, destination, weight), stored as self-contained 4 KiB pages. A partition
// starts on a page boundary and fills whole pages, so any run of its pages is decodable alone:
// a chunk, a stock mode's piece, a page run read for a few sources.
//
// A page holds consecutive edges of one partition: a 20-byte header, then
//   groups        per source run in the page (a "group"), two values: the gap to the previous
//                 group's source minus one (0 for the first group, whose source is the header's
//                 first_src) and the run's edge count minus one; Stream VByte, 0/1/2/4 bytes a
//                 value (the gaps and counts are mostly 0 on dense ids)
//   destinations  per edge: the first of a group as zigzag(dst - src), the rest as the difference
//                 to the previous destination (edges are sorted); Stream VByte, 1-4 bytes a value
//   weights       (weighted graphs) per edge, little-endian, in the narrowest width that holds the
//                 page's largest weight (1-4 bytes)
// and zeros to the end of the page. A source whose edges do not fit continues as the first group
// of the next page: the split is explicit (first_src repeats the source).
//
// The page sums (io/page_sums.h) verify a page's bytes before it is decoded; the decoder checks the
// structure as well (every length against the page and against the Stream VByte control bytes,
// counts against the header, sources increasing), so a page that is wrong but intact is a one-line
// error and never a read outside the page.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/edge_run.h"
#include "base/types.h"

namespace graphso {

enum class EdgeEncoding : uint32_t { Raw = 0, Packed = 1 };
EdgeEncoding parse_encoding(const std::string& name);
const char* encoding_name(EdgeEncoding encoding);

inline constexpr uint64_t kPackedPageBytes = 4096;

struct PackedPageHeader {
  uint32_t first_src;
  uint32_t last_src;
  uint16_t groups;
  uint16_t edges;
  uint16_t group_bytes;  // the group stream, control bytes included
  uint16_t dst_bytes;    // the destination stream, control bytes included
  uint8_t weight_bytes;  // 0: unweighted
  uint8_t magic;         // kPackedPageMagic
  uint16_t reserved;     // 0
};
static_assert(sizeof(PackedPageHeader) == 20);
inline constexpr uint8_t kPackedPageMagic = 0xE7;

// Writes one partition's sorted edges as packed pages, appended to `out` (whole pages).
class PackedPageWriter {
 public:
  // fill_bytes: a page is finished once the next edge would take it past this many bytes (the
  // store's sections leave room for the edges that come later); pages are still 4 KiB.
  PackedPageWriter(bool weighted, std::vector<std::byte>& out, uint64_t fill_bytes = kPackedPageBytes)
      : weighted_(weighted), out_(out), fill_bytes_(std::min(fill_bytes, kPackedPageBytes)) {}
  // Edges must come sorted by (source, destination); an edge out of order is an Error.
  void add(const WeightedEdge& edge);
  // Writes the last page, if any edge is pending. The writer may be used again for the next
  // partition (which then starts on a new page).
  void finish();
  uint64_t pages() const { return pages_; }

 private:
  uint64_t size_with(const WeightedEdge& edge) const;
  void append(const WeightedEdge& edge);

  bool weighted_;
  std::vector<std::byte>& out_;
  uint64_t fill_bytes_;
  uint64_t pages_ = 0;
  // The page being filled.
  std::vector<uint32_t> group_values_, dst_values_, weights_;
  VertexId first_src_ = 0, last_src_ = 0, last_dst_ = 0, group_first_dst_ = 0;
  uint64_t group_data_ = 0, dst_data_ = 0;  // Stream VByte data bytes, control bytes aside
  uint32_t max_weight_ = 0;
};

// Where a page failed to decode and why.
struct PackedPageProblem {
  uint64_t page = 0;  // within the span decoded
  std::string what;
};

// A page's header as stored (no check: the decoder checks it).
PackedPageHeader packed_page_header(const std::byte* page);
// The edge count in a page's header (no other check): for sizing a decode.
uint32_t packed_page_edges(const std::byte* page);
// The edges the headers of a run of whole pages count.
uint64_t packed_edges_in(std::span<const std::byte> pages);
// Whether `bytes` can hold `edges` packed: whole pages, none for no edge, and no page holding more
// than 16384 edges (a destination takes at least two bits of control and a byte).
inline bool packed_size_fits(uint64_t edges, uint64_t bytes) {
  return bytes % kPackedPageBytes == 0 && (edges == 0) == (bytes == 0) && edges <= bytes * 4;
}
// The first and last source of a run of pages (from the headers of its first and last page).
std::pair<VertexId, VertexId> packed_source_range(std::span<const std::byte> pages);

// Decodes whole pages into packed Edge or WeightedEdge records at `out` (room for every edge the
// headers count). Returns the edges written, or -1 with `problem` set when a page is malformed.
int64_t decode_packed_pages(std::span<const std::byte> pages, bool weighted, std::byte* out,
                            PackedPageProblem* problem);
// The same into `records`, sized to the edges the headers count.
int64_t decode_packed_pages(std::span<const std::byte> pages, bool weighted, std::vector<std::byte>& records,
                            PackedPageProblem* problem);

// Pages decoded source by source (decode_packed_groups), what EdgeRun::groups points into. The
// arrays only grow, so a thread's buffer decodes batch after batch without allocating.
struct DecodedGroups {
  std::vector<VertexId> sources;  // per group
  std::vector<VertexId> firsts;   // per group
  std::vector<VertexId> highest;  // per group
  std::vector<uint32_t> offsets;  // per group, and one more
  std::vector<uint32_t> deltas;   // per edge
  std::vector<Weight> weights;    // per edge; weighted graphs only
  std::vector<uint64_t> delta_sums;  // scratch: one page's deltas summed, without wrapping
  uint64_t groups = 0, edges = 0;   // of the last decode

  SourceGroups view() const {
    return {sources.data(), offsets.data(), firsts.data(), highest.data(), groups, deltas.data(),
            weights.empty() ? nullptr : weights.data(), 0, edges};
  }
  uint64_t bytes() const {
    return (sources.size() + firsts.size() + highest.size() + offsets.size() + deltas.size() + weights.size()) *
               sizeof(uint32_t) +
           delta_sums.size() * sizeof(uint64_t);
  }
};
// Decodes whole pages into `out` (the form SourceGroups describes): per group its source, its
// first and highest destination and where its edges end, per edge the delta to its destination and
// its weight; a source split between two of the pages is one group. The same checks
// as decode_packed_pages, and the same result, or -1 with `problem` set (out then holds nothing).
int64_t decode_packed_groups(std::span<const std::byte> pages, bool weighted, DecodedGroups& out,
                             PackedPageProblem* problem);

// What the TChunk table needs of a page (middleware/tchunk.h), kept by whoever decoded it once so
// the table is cut without reading it again (a store run's open: EngineLayout::page_outlines): its
// sources' range with the edges of the first and the last of them in the page (every source
// between has all its out-edges in the page), its edges, and its destinations' range.
struct PackedPageOutline {
  VertexId first_src = 0, last_src = 0;
  uint32_t edges = 0;
  uint32_t first_src_edges = 0, last_src_edges = 0;
  VertexId min_dst = 0, max_dst = 0;
};
// The outline of the one page decoded into `groups` (decode_packed_groups of a single page).
PackedPageOutline outline_of(const DecodedGroups& groups);
// The outline of the page holding `edges` (sorted by source, then destination; not empty).
PackedPageOutline outline_of(std::span<const WeightedEdge> edges);

}  // namespace graphso
