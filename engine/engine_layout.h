// An engine's on-disk layout as every loader sees it: the static partitions (one run of edges,
// sorted by source, in one file each: raw records, or packed pages, base/packed_pages.h) and the
// graph's out-degrees. The sharing
// modes (middleware/sharing_mode.h) and the GraphSO middleware load from this alone; neither
// sees the engine's own types.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/packed_pages.h"
#include "base/types.h"
#include "io/page_sums.h"

namespace graphso {

struct StaticPartition {
  uint32_t file = 0;         // index into EngineLayout::files
  uint64_t offset = 0;       // byte offset of the first edge
  uint64_t edges = 0;
  VertexId src_begin = 0, src_end = 0;  // every source lies in [src_begin, src_end)
  VertexId dst_begin = 0, dst_end = 0;  // every destination lies in [dst_begin, dst_end)
  uint64_t packed_bytes = 0;  // packed layouts: the partition's pages (raw: edges x record)
};

// A second copy of a partition's edges, elsewhere.
struct PartitionCopy {
  uint32_t partition = 0;
  uint32_t file = 0;
  uint64_t offset = 0;
};

struct EngineLayout {
  std::string name;                  // "gridgraph", "xstream": part of the TChunk file's identity
  std::string dir;                   // where the TChunk table is kept
  std::vector<std::string> files;    // edge files, padded to 4096 bytes for O_DIRECT
  // Per file, its page checksums when they are not in a sidecar (FILE.sums) beside it: a store's
  // section pages, whose CRCs its section table holds. Empty: every file has its sidecar.
  std::vector<std::shared_ptr<const PageSums>> page_sums;
  std::vector<StaticPartition> partitions;
  // Optional: every partition again, in the order a round that wants them all reads best
  // (GridGraph: column by column from grid.col, so a destination range stays in cache while its
  // blocks stream). Empty: such a round reads the partitions in index order too.
  std::vector<PartitionCopy> dense_order;
  // Optional, packed layouts: every partition's pages' outlines, partition after partition, from
  // whoever decoded them already (a store run's open), so the TChunk table is cut from them and
  // reads no page. Empty: the table's build reads the pages.
  std::vector<PackedPageOutline> page_outlines;
  // Optional, with page_outlines: a layout in which a source's edges may lie in several runs of
  // partitions, its layers (a store run: its pages, the insertions logged since its checkpoint
  // laid out apart, pages as other versions have them: integrations/store_graph.h). Partition k is
  // in layer partition_layer[k], whose partitions hold (*layer_degrees[layer])[v] of v's edges;
  // the outlines are cut against those. Empty: one layer, out_degrees.
  std::vector<uint32_t> partition_layer;
  std::vector<const std::vector<uint32_t>*> layer_degrees;
  // Optional: the graphs a partition is part of, one bit each (a store run whose jobs pin several
  // versions: each version is a graph, and a partition is loaded for the jobs of the graphs it is
  // part of; Job::view). Empty: one graph, every partition in it.
  std::vector<uint64_t> partition_views;
  bool in_view(uint32_t partition, uint32_t view) const {
    return partition_views.empty() || (partition_views[partition] >> view & 1) != 0;
  }
  uint64_t vertices = 0;
  uint64_t edges = 0;
  bool weighted = false;
  uint32_t identity = 0;             // changes whenever the prepared graph does (meta checksum)
  const std::vector<uint32_t>* out_degrees = nullptr;
  EdgeEncoding encoding = EdgeEncoding::Raw;
  uint32_t edge_size() const { return edge_bytes(weighted); }
  bool packed() const { return encoding == EdgeEncoding::Packed; }
  // Bytes partition k takes in its file.
  uint64_t partition_bytes(uint32_t k) const {
    return packed() ? partitions[k].packed_bytes : partitions[k].edges * edge_size();
  }
  // Every partition's bytes: what one pass over the whole graph reads.
  uint64_t stored_bytes() const {
    uint64_t bytes = 0;
    for (uint32_t k = 0; k < partitions.size(); ++k) bytes += partition_bytes(k);
    return bytes;
  }
};

}  // namespace graphso
