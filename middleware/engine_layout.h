// What the middleware needs to know of an engine's on-disk layout, and nothing more: the static
// partitions (one run of packed edge records, sorted by source, in one file each) and the graph's
// out-degrees. An engine's shim fills it in (integrations/); the middleware never sees the engine.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/common/types.h"

namespace graphso {

struct StaticPartition {
  uint32_t file = 0;         // index into EngineLayout::files
  uint64_t offset = 0;       // byte offset of the first edge
  uint64_t edges = 0;
  VertexId src_begin = 0, src_end = 0;  // every source lies in [src_begin, src_end)
  VertexId dst_begin = 0, dst_end = 0;
};

struct EngineLayout {
  std::string name;                  // "gridgraph", "xstream": part of the TChunk file's identity
  std::string dir;                   // where the TChunk table is kept
  std::vector<std::string> files;    // edge files, padded to 4096 bytes for O_DIRECT
  std::vector<StaticPartition> partitions;
  uint64_t vertices = 0;
  uint64_t edges = 0;
  bool weighted = false;
  uint32_t identity = 0;             // changes whenever the prepared graph does (meta checksum)
  const std::vector<uint32_t>* out_degrees = nullptr;
  uint32_t edge_size() const { return edge_bytes(weighted); }
};

}  // namespace graphso
