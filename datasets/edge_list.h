// graphso's binary edge list (".bin"): a 64-byte checksummed header, then fixed-size records
// (u32 src, u32 dst[, u32 weight]). This is what `convert` and `generate` write and `prep` reads.
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
};

inline constexpr uint64_t kEdgeListHeaderBytes = 64;

// Streams records into a new file; the header is written by finish(), then the file is renamed
// into place. An unfinished writer leaves nothing behind.
class EdgeListWriter {
 public:
  EdgeListWriter(const std::string& path, bool weighted);
  void append(std::span<const WeightedEdge> edges);  // weights ignored when unweighted
  // vertices must exceed every id written; checked.
  void finish(uint64_t vertices);
  uint64_t edges() const { return edges_; }

 private:
  void flush();
  AtomicOutputFile out_;
  bool weighted_;
  uint64_t edges_ = 0;
  uint64_t max_id_plus_one_ = 0;
  std::vector<std::byte> pending_;
};

// Reads a graphso edge list in batches; validates header, checksum and file size on open.
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
  File file_;
  EdgeListInfo info_;
  uint64_t next_edge_ = 0;
  std::vector<std::byte> raw_;
};

}  // namespace graphso
