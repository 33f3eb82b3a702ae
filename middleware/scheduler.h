// Schedule's planning half (GraphSO Algorithm 2, GenerateLogicalPartition): the round's active
// chunks by priority (ties by chunk id, so runs are deterministic). Chunks in the cache form the
// first logical partition, served without I/O. The others are taken greedily in priority order
// while they fit the partition size; each logical partition is then re-sorted by chunk id, so
// its reads go forward through the file and adjacent chunks merge into one read.
#pragma once

#include <cstdint>
#include <vector>

#include "middleware/active_chunks.h"
#include "middleware/chunk_cache.h"

namespace graphso {

struct LogicalPartition {
  bool from_cache = false;
  std::vector<uint32_t> demands;  // indexes into ActiveChunks::chunks, by chunk id
};

std::vector<LogicalPartition> plan_logical_partitions(const ActiveChunks& active, const TChunkTable& table,
                                                      const ChunkCache& cache, uint64_t partition_bytes);

}  // namespace graphso
