#include "base/decoded_chunk.h"

#include <cstring>

static_assert(sizeof(graphso::VertexId) == 4 && sizeof(graphso::Weight) == 4, "a decoded chunk's arrays are 4-byte fields");

namespace graphso {
namespace {

constexpr uint64_t kHeaderBytes = 2 * sizeof(uint64_t);

template <typename T>
std::byte* put(std::byte* to, const T* from, uint64_t count) {
  if (count) std::memcpy(to, from, count * sizeof(T));
  return to + count * sizeof(T);
}

}  // namespace

uint64_t decoded_chunk_bytes(uint64_t groups, uint64_t edges, bool weighted) {
  return kHeaderBytes + (4 * groups + 1) * sizeof(uint32_t) + edges * (sizeof(uint32_t) + (weighted ? sizeof(Weight) : 0));
}

void write_decoded_chunk(const DecodedGroups& decoded, bool weighted, std::byte* to) {
  const uint64_t header[2] = {decoded.groups, decoded.edges};
  to = put(to, header, 2);
  to = put(to, decoded.sources.data(), decoded.groups);
  to = put(to, decoded.firsts.data(), decoded.groups);
  to = put(to, decoded.highest.data(), decoded.groups);
  to = put(to, decoded.offsets.data(), decoded.groups + 1);
  to = put(to, decoded.deltas.data(), decoded.edges);
  if (weighted) put(to, decoded.weights.data(), decoded.edges);
}

SourceGroups decoded_chunk_groups(const std::byte* block, bool weighted) {
  uint64_t header[2];
  std::memcpy(header, block, sizeof header);
  const uint64_t groups = header[0], edges = header[1];
  auto array = [&](uint64_t index) { return reinterpret_cast<const uint32_t*>(block + kHeaderBytes) + index; };
  SourceGroups g;
  g.groups = groups;
  g.sources = array(0);
  g.firsts = array(groups);
  g.highest = array(2 * groups);
  g.offsets = array(3 * groups);
  g.deltas = array(4 * groups + 1);
  g.weights = weighted ? array(4 * groups + 1 + edges) : nullptr;
  g.begin = 0;
  g.end = edges;
  return g;
}

}  // namespace graphso
