// Schedule's planning half (GraphSO Algorithm 2, GenerateLogicalPartition): the round's active
// chunks by groups of destination ranges and by priority within a group (the default), by
// priority (ties by chunk id, so runs are deterministic) or by chunk id (PassOrder). Chunks in
// the cache form the first logical partition, served without I/O. The others are taken greedily
// in that order, an extent of file-adjacent chunks at a time (kExtentBytes), while they fit the
// partition size;
// each logical partition is then re-sorted by chunk id, so its reads go forward through the file
// and adjacent chunks merge into one read.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "middleware/active_chunks.h"
#include "middleware/chunk_cache.h"

namespace graphso {

struct LogicalPartition {
  bool from_cache = false;
  std::vector<uint32_t> demands;  // indexes into ActiveChunks::chunks, by chunk id
};

// The order a pass takes its device chunks in: by priority (Formula 2, the paper's); by chunk
// id, which is source order within each partition and partitions in the layout's order (so an
// asynchronous wave moving up the ids meets its chunks in the order it reaches them); or, the
// default, by groups of 2 x threads destination ranges (GridGraph: that many columns) and by
// priority within a group, so that a load's chunks fall in few destination ranges and each
// range's vertex state serves many of them while it is in the cache. Where one group holds every
// range (X-Stream, whose partitions all reach every destination; a grid of P <= 2 x threads),
// destination order is priority order (docs/middleware.md, "Destination order").
enum class PassOrder { Priority, Source, Destination };

// Chunks read whole that follow each other in their file are planned together, in extents of up
// to this many bytes by default (the readers' largest request, io/chunk_reader.h; `run
// --extent-size`) and at most an eighth of a logical partition, each placed by its highest
// priority. Small chunks taken one by one by priority are scattered reads, which this machine's
// device serves at a fraction of its sequential rate while the cores are busy
// (docs/middleware.md, "Extents").
inline constexpr uint64_t kExtentBytes = uint64_t{1} << 20;

PassOrder parse_pass_order(const std::string& name);
const char* pass_order_name(PassOrder order);

// extent_bytes: the most an extent of adjacent chunks holds (0: every chunk is placed alone).
// partitions, threads: the layout's partitions, whose destination ranges PassOrder::Destination
// orders by, and the threads that process a load (needed for that order only).
std::vector<LogicalPartition> plan_logical_partitions(const ActiveChunks& active, const TChunkTable& table,
                                                      const ChunkCache& cache, uint64_t partition_bytes,
                                                      PassOrder order = PassOrder::Priority,
                                                      uint64_t extent_bytes = kExtentBytes,
                                                      std::span<const StaticPartition> partitions = {}, int threads = 1);
// The same for some of active's demands only (the late join re-plans what a pass has not started).
std::vector<LogicalPartition> plan_logical_partitions(const ActiveChunks& active, std::vector<uint32_t> demands,
                                                      const TChunkTable& table, const ChunkCache& cache,
                                                      uint64_t partition_bytes, PassOrder order, uint64_t extent_bytes,
                                                      std::span<const StaticPartition> partitions, int threads);

}  // namespace graphso
