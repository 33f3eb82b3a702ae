// graphso's binary edge list (".bin"): a 64-byte checksummed header, fixed-size records (u32 src,
// u32 dst[, u32 weight: an integer, or a real as binary32 when the header says so]), then a CRC-32C per block of records, checked as each block is read
// (docs/formats.md). This is what `convert` and `generate` write and `prep` reads.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/file.h"
#include "base/types.h"

namespace graphso {

struct EdgeListInfo {
  uint64_t vertices = 0;
  uint64_t edges = 0;
  bool weighted = false;
  bool real_weights = false;  // weights are binary32 (base/types.h)
};

inline constexpr uint64_t kEdgeListHeaderBytes = 64;

// Streams records into a new file; the header is written by finish(), then the file is renamed
// into place. An unfinished writer leaves nothing behind.
class EdgeListWriter {
 public:
  EdgeListWriter(const std::string& path, bool weighted, bool real_weights = false);
  void append(std::span<const WeightedEdge> edges);  // weights ignored when unweighted
  // vertices must exceed every id written; checked.
  void finish(uint64_t vertices);
  uint64_t edges() const { return edges_; }

 private:
  void flush();
  AtomicOutputFile out_;
  bool weighted_;
  bool real_weights_;
  uint64_t edges_ = 0;
  uint64_t max_id_plus_one_ = 0;
  std::vector<std::byte> pending_;
  uint32_t block_crc_ = 0;              // of the records of the block being written
  std::vector<uint32_t> block_crcs_;    // of every block written whole
};

// Reads a graphso edge list in batches; validates header, checksum and file size on open, and
// each block of records against its checksum before any of its records is handed out.
class EdgeListReader {
 public:
  explicit EdgeListReader(const std::string& path);
  const EdgeListInfo& info() const { return info_; }
  // Fills out with up to max_edges records (weight 1 when unweighted); returns false at the end.
  bool next_batch(std::vector<WeightedEdge>& out, uint64_t max_edges);
  // The same without weights.
  bool next_batch(std::vector<Edge>& out, uint64_t max_edges);
  void rewind() { next_edge_ = 0; }
  // Continue from edge `edge` (at most the edge count).
  void seek(uint64_t edge);

 private:
  template <typename EdgeRecord>
  bool read_batch(std::vector<EdgeRecord>& out, uint64_t max_edges);
  void load(uint64_t first, uint64_t count);
  File file_;
  EdgeListInfo info_;
  uint64_t next_edge_ = 0;
  uint32_t block_records_ = 0;      // 0: a version 1 file, unchecked
  std::vector<uint32_t> block_crcs_;
  std::vector<std::byte> raw_;      // records from raw_first_ on (a whole checked block)
  uint64_t raw_first_ = 0;
};

}  // namespace graphso
