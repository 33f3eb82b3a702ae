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
//
// In memory the records are always resident (about 88 bytes a chunk); the source index (one to
// two bytes per distinct source of a chunk, so up to a quarter of the edge bytes on a graph whose
// sources scatter over blocks) is resident only up to a capacity the caller gives (keep_index):
// the entries of the first chunks that fit stay in memory, the others are read from the file
// with O_DIRECT when a frontier covers only part of a chunk's source range, and those bytes are
// counted (index_bytes_read). So the table never needs more memory than the budget gives it.
//
// A resident chunk's entries also get a skip point every kSkipEvery sources (its source and
// where its entry starts; built at load, in memory only): a frontier with few ids in a chunk's
// range finds each of them from the skip point before it instead of decoding the whole entry
// list, which on a thin wavefront (BFS on a road network) is most of the planning time.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/bitmap.h"
#include "base/bitmap_rank.h"
#include "base/file.h"
#include "base/progress.h"
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
  // What cutting the layout into chunks of chunk_bytes gives, known from the partitions alone
  // (no edge is read): how many chunks, and the largest aligned span one of them is read as.
  struct Shape {
    uint64_t chunks = 0;
    uint64_t largest_span = 0;
    uint64_t records_bytes() const { return chunks * sizeof(ChunkInfo); }
  };
  static Shape shape(const EngineLayout& layout, uint64_t chunk_bytes);

  // Reads the layout's partitions once, sequentially, and cuts them into chunks (index resident);
  // a layout with page outlines (EngineLayout::page_outlines) is cut from them, reading nothing.
  static TChunkTable build(const EngineLayout& layout, uint64_t chunk_bytes);
  // The same, written to the table's file as it is built: the index is never held whole, and
  // what stays resident afterwards is as keep_index(index_capacity, 1) leaves it.
  // step: where its progress is shown (prep's plan).
  static TChunkTable build_and_save(const EngineLayout& layout, uint64_t chunk_bytes, uint64_t index_capacity,
                                    ProgressStep step = {});
  // Loads the layout's table for chunk_bytes (GraphFiles::tchunk), or builds and saves it when missing. A table that exists
  // but is damaged or belongs to another graph is an error (rebuild with `graphso prep`).
  // index_capacity: as keep_index's.
  static constexpr uint64_t kWholeIndex = UINT64_MAX;
  static TChunkTable load_or_build(const EngineLayout& layout, uint64_t chunk_bytes, bool* built = nullptr,
                                   uint64_t index_capacity = kWholeIndex);
  // Checks the whole file (size, CRC, records) reading it in bounded pieces; keeps the records and
  // the index up to index_capacity bytes.
  static TChunkTable load(const EngineLayout& layout, uint64_t chunk_bytes, uint64_t index_capacity = kWholeIndex);
  // Writes a table built whole in memory (the index must be resident whole). prep and runs write
  // through build_and_save; this one-piece writer is what the tests check that streamed file against.
  void save(const EngineLayout& layout) const;
  static std::string path(const EngineLayout& layout, uint64_t chunk_bytes);

  // Keeps at most `capacity` bytes of the source index in memory (whole chunks' entries, in chunk
  // order; the rest is read from the file per chunk when needed, by up to `threads` threads at
  // once, each with a read buffer of its own, counted in memory_bytes()).
  void keep_index(uint64_t capacity, int threads);
  // The most keep_index's read buffers can take for `threads` threads (each holds the largest
  // entry): what a budget must leave for them when the index cannot stay whole.
  uint64_t index_read_buffer_bytes(int threads) const;

  uint64_t chunk_bytes() const { return chunk_bytes_; }
  const std::vector<ChunkInfo>& chunks() const { return chunks_; }
  const ChunkInfo& chunk(uint32_t id) const { return chunks_[id]; }
  // Bytes this table takes in memory: records, resident index (with its skip points), read buffers.
  uint64_t memory_bytes() const;
  uint64_t records_bytes() const { return chunks_.size() * sizeof(ChunkInfo); }
  uint64_t index_bytes() const { return index_total_; }            // the whole index, in the file
  // The whole index in memory: its entries and their skip points (keep_index's capacity for all of it).
  uint64_t index_memory_bytes() const;
  uint64_t resident_index_bytes() const { return index_.size() + skips_.size() * sizeof(SkipPoint); }
  // What reading index entries that are not resident has transferred from the device.
  uint64_t index_bytes_read() const;
  uint64_t index_reads() const;

  // For chunk m and a frontier: active distinct sources and their edges in m.
  struct ActiveCounts {
    uint64_t sources = 0;
    uint64_t edges = 0;
  };
  // (It ranks the frontier first, a pass over its words: for one-off questions and tests.)
  ActiveCounts active_in(uint32_t id, const Bitmap& frontier) const;
  // The same for several ranked frontiers at once (out[k] for frontiers[k]): the index is decoded
  // at most once, however many of them cover the chunk's source range only in part; frontiers
  // holding few ids of a resident chunk's range are looked up from the skip points instead, in
  // one walk over the ids any of them holds (a batch's frontiers overlap: BFS from neighbours,
  // the report's union), each found source credited to every frontier holding it.
  void active_in(uint32_t id, std::span<const BitmapRank> frontiers, std::span<ActiveCounts> out) const;
  // Decodes chunk m's source index: calls visit(source, edges_in_chunk) in source order. Safe
  // from several OpenMP threads at once (each reads into its own buffer).
  template <typename Visit>
  void for_each_source(uint32_t id, Visit&& visit) const;

  // One skip point per this many sources of a resident chunk: 8 bytes each, an eighth of the
  // entries they point into (two to three bytes a source).
  static constexpr uint32_t kSkipEvery = 32;
  // A frontier is looked up from the skip points when it holds fewer than one in this many of
  // a resident chunk's sources (among the ids of its range). A lookup costs about what decoding
  // a few entries does; on osm-rome's BFS batches any factor from 2 to 32 took the same time.
  static constexpr uint64_t kLookupBelowOneIn = 8;

 private:
  struct Header;
  struct SkipPoint {
    VertexId source;  // of entry k * kSkipEvery of its chunk
    uint32_t offset;  // where that entry starts in the chunk's entries
  };
  static uint64_t skip_points_of(const ChunkInfo& c) { return (uint64_t{c.distinct_sources} + kSkipEvery - 1) / kSkipEvery; }
  // Thin frontiers' sources in resident chunk id (out[t] for frontier words[t]), found one id of
  // the union of their ranges' bits at a time.
  void sparse_active_in(uint32_t id, std::span<const uint64_t* const> words, std::span<ActiveCounts* const> out) const;
  bool resident(uint32_t id) const { return id + 1 < skip_begin_.size(); }
  // Cuts the layout into chunks, handing each chunk's index entries to sink in chunk order.
  template <typename IndexSink>
  static TChunkTable cut(const EngineLayout& layout, uint64_t chunk_bytes, IndexSink&& sink, ProgressStep step = {});
  Header header(const EngineLayout& layout) const;
  // Chunk m's index entries: in memory, or read into the calling thread's buffer.
  const uint8_t* index_of(uint32_t id) const;

  uint64_t chunk_bytes_ = 0;
  std::vector<ChunkInfo> chunks_;
  std::vector<uint8_t> index_;     // the resident prefix of the index
  std::vector<SkipPoint> skips_;   // of the resident chunks, in chunk order
  std::vector<uint64_t> skip_begin_;  // resident chunk m's skip points start at skip_begin_[m] (one more at the end)
  uint64_t index_total_ = 0;
  std::string path_;               // the table's file, for index entries read on demand
  uint64_t index_file_offset_ = 0; // where the index starts in it
  struct Reader {                  // one per thread; mutable: reading does not change the table
    AlignedBuffer buffer;
    uint64_t bytes_read = 0, reads = 0;
  };
  File file_;                      // O_DIRECT, open while some index is not resident
  mutable std::vector<Reader> readers_;
};

// The chunk size of a graph whose directory records none (middleware/chunk_size.h), and of one too
// small to measure the device on: the size the chunk-size sweeps on these machines chose
// (docs/middleware.md, "Chunk size").
inline constexpr uint64_t kDefaultChunkBytes = 64 << 10;
// A chunk size asked for as `--chunk-size formula`: Formula (1).
inline constexpr uint64_t kFormulaChunkBytes = ~uint64_t{0};

// Formula (1) of the paper: the largest |C| with |C|N + (|C|N/|G|) N_v |V| + s <= |LLC|, for N
// cores, |G| edge bytes, N_v vertices of |V| = 8 bytes of state and s = |LLC|/4 reserved; clamped
// to [64 KiB, 8 MiB] and rounded down to a power of two. llc_bytes 0: read from sysfs.
uint64_t formula_chunk_bytes(uint64_t edge_bytes, uint64_t vertices, int cores, uint64_t llc_bytes = 0);
// The last-level cache size from /sys/devices/system/cpu/cpu0/cache (0 when unknown).
uint64_t read_llc_bytes();

// An index entry's number (LEB128), advancing p past it.
inline uint64_t read_index_varint(const uint8_t*& p) {
  uint64_t value = 0;
  for (int shift = 0;; shift += 7) {
    uint8_t byte = *p++;
    value |= uint64_t{byte & 0x7Fu} << shift;
    if (!(byte & 0x80)) return value;
  }
}

template <typename Visit>
void TChunkTable::for_each_source(uint32_t id, Visit&& visit) const {
  const ChunkInfo& c = chunks_[id];
  const uint8_t* p = index_of(id);
  VertexId source = c.first_src;
  for (uint32_t s = 0; s < c.distinct_sources; ++s) {
    source += static_cast<VertexId>(read_index_varint(p));
    uint64_t edges = read_index_varint(p) + 1;
    visit(source, edges);
  }
}

}  // namespace graphso
