// The GAP benchmark suite's serialized graphs (.sg, and .wsg with weights), as its reader.h reads
// them: a bool `directed` (one byte), int64 arcs, int64 vertices, the out-CSR (vertices + 1 int64
// offsets from 0, then the arcs' int32 neighbours, or {int32 neighbour, int32 weight} pairs in a
// .wsg), and for a directed graph the in-CSR after it in the same form. An undirected graph's CSR
// already lists each edge at both ends. Read as arcs; the in-CSR must be the out-CSR's transpose.
#include <cstring>

#include "base/error.h"
#include "base/file.h"
#include "datasets/format_readers.h"

namespace graphso {
namespace {

constexpr uint64_t kHeaderBytes = 1 + 8 + 8;
constexpr uint64_t kMaxNodeId = 0x7FFFFFFF;  // GAPBS's NodeID is int32_t

struct Csr {
  std::vector<int64_t> offsets;
  std::vector<int32_t> words;  // neighbours, or neighbour and weight pairs
};

// One CSR at `at`, its offsets and neighbour ids checked; `what` names it in errors.
Csr read_csr(const File& file, uint64_t at, uint64_t vertices, uint64_t arcs, bool weighted, const char* what) {
  Csr csr;
  csr.offsets.resize(vertices + 1);
  csr.words.resize(arcs * (weighted ? 2 : 1));
  file.pread_exact(std::as_writable_bytes(std::span(csr.offsets)), at);
  file.pread_exact(std::as_writable_bytes(std::span(csr.words)), at + (vertices + 1) * 8);
  const std::string& path = file.path();
  if (csr.offsets[0] != 0) fail("{}: the {} CSR's first offset is {}, not 0", path, what, csr.offsets[0]);
  for (uint64_t v = 0; v < vertices; ++v)
    if (csr.offsets[v + 1] < csr.offsets[v])
      fail("{}: the {} CSR's offset of vertex {} ({}) is below vertex {}'s ({})", path, what, v + 1, csr.offsets[v + 1], v,
           csr.offsets[v]);
  if (static_cast<uint64_t>(csr.offsets[vertices]) != arcs)
    fail("{}: the {} CSR's offsets end at {}, the header says {} arcs", path, what, csr.offsets[vertices], arcs);
  const uint64_t stride = weighted ? 2 : 1;
  for (uint64_t i = 0; i < arcs; ++i) {
    const int32_t v = csr.words[i * stride];
    if (v < 0 || static_cast<uint64_t>(v) >= vertices)
      fail("{}: {} CSR: neighbour {} of arc {} is outside 0..{}", path, what, v, i, vertices - 1);
    if (weighted && csr.words[i * stride + 1] < 0)
      fail("{}: {} CSR: arc {} has the negative weight {} (graphso stores weights from 0 to 2^32-1)", path, what, i,
           csr.words[i * stride + 1]);
  }
  return csr;
}

// The CSR's arcs; `reverse`: its lists are in-neighbours (the arc runs from the neighbour).
std::vector<WeightedEdge> arcs_of(const Csr& csr, bool weighted, bool reverse) {
  std::vector<WeightedEdge> arcs;
  arcs.reserve(csr.offsets.back());
  const uint64_t stride = weighted ? 2 : 1;
  for (uint64_t v = 0; v + 1 < csr.offsets.size(); ++v)
    for (int64_t i = csr.offsets[v]; i < csr.offsets[v + 1]; ++i) {
      const VertexId other = static_cast<VertexId>(csr.words[i * stride]);
      const Weight w = weighted ? static_cast<Weight>(csr.words[i * stride + 1]) : 1;
      arcs.push_back(reverse ? WeightedEdge{other, static_cast<VertexId>(v), w} : WeightedEdge{static_cast<VertexId>(v), other, w});
    }
  return arcs;
}

}  // namespace

EdgeSet read_gapbs(const std::string& path, bool weighted) {
  File file(path, File::Mode::Read);
  const uint64_t size = file.size();
  if (size < kHeaderBytes) fail("{}: {} bytes, shorter than a GAPBS serialized graph's {}-byte header", path, size, kHeaderBytes);
  unsigned char header[kHeaderBytes];
  file.pread_exact(std::as_writable_bytes(std::span(header)), 0);
  if (header[0] > 1) fail("{}: the directed flag is {}, not 0 or 1 (not a GAPBS .sg/.wsg file?)", path, header[0]);
  const bool directed = header[0] == 1;
  int64_t arcs = 0, vertices = 0;
  std::memcpy(&arcs, header + 1, 8);
  std::memcpy(&vertices, header + 9, 8);
  if (vertices < 0 || static_cast<uint64_t>(vertices) > kMaxNodeId + 1)
    fail("{}: {} vertices, outside 0..2^31 (GAPBS's ids are int32)", path, vertices);
  const uint64_t arc_bytes = weighted ? 8 : 4;
  const uint64_t csr_bytes_without_arcs = (static_cast<uint64_t>(vertices) + 1) * 8;
  const uint64_t copies = directed ? 2 : 1;
  // Checked against the size before multiplying, so a huge count cannot overflow the product.
  const bool too_many = arcs < 0 || static_cast<uint64_t>(arcs) > size / arc_bytes;
  const uint64_t expected = too_many ? 0 : kHeaderBytes + copies * (csr_bytes_without_arcs + static_cast<uint64_t>(arcs) * arc_bytes);
  if (too_many || size != expected)
    fail("{}: {} bytes do not hold the {} graph of {} vertices and {} arcs its header declares{} (truncated, or {}?)", path,
         size, directed ? "directed" : "undirected", vertices, arcs, too_many ? "" : fmt::format(", {} bytes", expected),
         weighted ? "an unweighted .sg named .wsg" : "a weighted .wsg named .sg");
  const uint64_t n = static_cast<uint64_t>(vertices), m = static_cast<uint64_t>(arcs);
  EdgeSet set;
  set.vertices = n;
  set.weighted = weighted;
  set.edges = arcs_of(read_csr(file, kHeaderBytes, n, m, weighted, "out"), weighted, false);
  if (directed) {
    std::vector<WeightedEdge> in = arcs_of(read_csr(file, kHeaderBytes + csr_bytes_without_arcs + m * arc_bytes, n, m, weighted, "in"),
                                           weighted, true);
    if (const auto d = first_difference(set.edges, std::move(in)))
      fail("{}: the in-CSR is not the out-CSR's transpose: arc {} -> {}{} is in the {} CSR only", path, d->arc.src, d->arc.dst,
           weighted ? fmt::format(" (weight {})", d->arc.weight) : "", d->in_a ? "out" : "in");
  }
  return set;
}

}  // namespace graphso
