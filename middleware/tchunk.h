// The TChunk table (GraphSO Algorithm 1): every static partition cut into chunks of a fixed
// byte size on edge boundaries, aligned to the file's chunk-size grid (a partition's first and
// last chunks may be shorter). Because edges are sorted by source inside a partition, a chunk
// covers a narrow source range. Per chunk: its partition, file and offset, bytes, edges, source
// range, destination range, distinct sources, the sum of their out-degrees, and a source index:
// the chunk's distinct sources with their edge counts, varint delta-coded, so "how many of this
// job's active sources are in chunk m, with how many edges" is answered without reading m.
//
// Persisted as <dir>/tchunk.<chunk_bytes> (versioned, checksummed, tied to the graph by the
// layout's identity), so several chunk sizes can coexist.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/bitmap.h"
#include "engine/engine_layout.h"

namespace graphso {

struct ChunkInfo {
  uint32_t partition = 0;
  uint32_t file = 0;
  uint64_t offset = 0;       // byte offset in the file
  uint64_t first_edge = 0;   // within the partition
  uint64_t bytes = 0;
  uint32_t edges = 0;
  VertexId first_src = 0, last_src = 0;  // inclusive
  VertexId min_dst = 0, max_dst = 0;     // inclusive
  uint32_t distinct_sources = 0;
  uint64_t source_degree_sum = 0;        // sum of out-degrees of the distinct sources
  uint64_t index_offset = 0;             // into TChunkTable's index bytes
  uint32_t index_bytes = 0;
};

class TChunkTable {
 public:
  // Reads the layout's partitions once, sequentially, and cuts them into chunks.
  static TChunkTable build(const EngineLayout& layout, uint64_t chunk_bytes);
  // Loads the layout's table for chunk_bytes (GraphFiles::tchunk), or builds and saves it when missing. A table that exists
  // but is damaged or belongs to another graph is an error (rebuild with `graphso prep`).
  static TChunkTable load_or_build(const EngineLayout& layout, uint64_t chunk_bytes, bool* built = nullptr);
  static TChunkTable load(const EngineLayout& layout, uint64_t chunk_bytes);
  void save(const EngineLayout& layout) const;
  static std::string path(const EngineLayout& layout, uint64_t chunk_bytes);

  uint64_t chunk_bytes() const { return chunk_bytes_; }
  const std::vector<ChunkInfo>& chunks() const { return chunks_; }
  const ChunkInfo& chunk(uint32_t id) const { return chunks_[id]; }
  // Bytes this table takes in memory (records + index).
  uint64_t memory_bytes() const;

  // For chunk m and a frontier: active distinct sources and their edges in m.
  struct ActiveCounts {
    uint64_t sources = 0;
    uint64_t edges = 0;
  };
  ActiveCounts active_in(uint32_t id, const Bitmap& frontier) const;
  // Decodes chunk m's source index: calls visit(source, edges_in_chunk) in source order.
  template <typename Visit>
  void for_each_source(uint32_t id, Visit&& visit) const;

 private:
  uint64_t chunk_bytes_ = 0;
  std::vector<ChunkInfo> chunks_;
  std::vector<uint8_t> index_;
};

// Formula (1) of the paper: the largest |C| with |C|N + (|C|N/|G|) N_v |V| + s <= |LLC|, for N
// cores, |G| edge bytes, N_v vertices of |V| = 8 bytes of state and s = |LLC|/4 reserved; clamped
// to [64 KiB, 8 MiB] and rounded down to a power of two. llc_bytes 0: read from sysfs.
uint64_t default_chunk_bytes(uint64_t edge_bytes, uint64_t vertices, int cores, uint64_t llc_bytes = 0);
// The last-level cache size from /sys/devices/system/cpu/cpu0/cache (0 when unknown).
uint64_t read_llc_bytes();

template <typename Visit>
void TChunkTable::for_each_source(uint32_t id, Visit&& visit) const {
  const ChunkInfo& c = chunks_[id];
  const uint8_t* p = index_.data() + c.index_offset;
  auto varint = [&p]() {
    uint64_t value = 0;
    for (int shift = 0;; shift += 7) {
      uint8_t byte = *p++;
      value |= uint64_t{byte & 0x7Fu} << shift;
      if (!(byte & 0x80)) return value;
    }
  };
  VertexId source = c.first_src;
  for (uint32_t s = 0; s < c.distinct_sources; ++s) {
    source += static_cast<VertexId>(varint());
    uint64_t edges = varint() + 1;
    visit(source, edges);
  }
}

}  // namespace graphso
