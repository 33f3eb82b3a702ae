// The X-Stream layout of a graph directory, derived from its grid by `graphso prep --engine
// xstream|both`:
//   xstream.part.<k>  the edges whose source lies in streaming partition k, sorted by (source,
//                     destination), in the grid's edge encoding (raw records or packed pages,
//                     base/packed_pages.h), padded to 4096 bytes for O_DIRECT. X-Stream itself leaves a
//                     partition unsorted; sorted, a chunk of it covers a narrow source range,
//                     which is what lets GraphSO skip chunks.
//   xstream.meta      edges and crc32 of every partition file, and the identity of the grid it
//                     was derived from (a re-prepared grid makes it stale, which open() reports).
// The streaming partitions are the grid's vertex ranges: both engines size a range so its vertex
// state stays within 1 MiB of cache (X-Stream's rule for streaming partitions). Vertex count,
// weights, degrees and the vertex order are the grid's (engine/gridgraph/grid_graph.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/gridgraph/grid_graph.h"

namespace graphso {

class XStreamLayout {
 public:
  // Writes the partition files and then the meta from the grid's row file, one partition at a
  // time, merging the partition's P row blocks (each sorted by source) through small buffers.
  static void write(const GridGraph& grid);
  // Opens and validates the layout of a grid's directory; errors name the file and what to run.
  static XStreamLayout open(const GridGraph& grid);
  static bool exists(const std::string& dir);
  // Removes the layout's files (prep for GridGraph alone, so no stale layout is left behind).
  static void remove(const std::string& dir);

  uint32_t partitions() const { return static_cast<uint32_t>(edges_.size()); }
  uint64_t edges(uint32_t k) const { return edges_[k]; }
  uint64_t bytes(uint32_t k) const { return bytes_[k]; }  // as stored (the padding aside)
  std::string path(uint32_t k) const;
  std::vector<std::string> paths() const;
  uint32_t identity() const { return identity_; }  // crc32 of xstream.meta

  // Reads every partition and checks its crc32, source range and order (inspect --verify).
  void verify(const GridGraph& grid) const;

 private:
  GraphFiles files_{""};
  std::vector<uint64_t> edges_;
  std::vector<uint64_t> bytes_;
  std::vector<uint32_t> crc_;
  uint32_t identity_ = 0;
};

}  // namespace graphso
