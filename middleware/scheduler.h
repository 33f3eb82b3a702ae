// Schedule's planning half (GraphSO Algorithm 2, GenerateLogicalPartition): the round's active
// chunks by priority (ties by chunk id, so runs are deterministic), or by chunk id (PassOrder). Chunks in the cache form the
// first logical partition, served without I/O. The others are taken greedily in priority order
// while they fit the partition size; each logical partition is then re-sorted by chunk id, so
// its reads go forward through the file and adjacent chunks merge into one read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "middleware/active_chunks.h"
#include "middleware/chunk_cache.h"

namespace graphso {

struct LogicalPartition {
  bool from_cache = false;
  std::vector<uint32_t> demands;  // indexes into ActiveChunks::chunks, by chunk id
};

// The order a pass takes its device chunks in: by priority (Formula 2, the paper's), or by chunk
// id, which is source order within each partition and partitions in the layout's order (so an
// asynchronous wave moving up the ids meets its chunks in the order it reaches them).
enum class PassOrder { Priority, Source };
PassOrder parse_pass_order(const std::string& name);
const char* pass_order_name(PassOrder order);

std::vector<LogicalPartition> plan_logical_partitions(const ActiveChunks& active, const TChunkTable& table,
                                                      const ChunkCache& cache, uint64_t partition_bytes,
                                                      PassOrder order = PassOrder::Priority);
// The same for some of active's demands only (the late join re-plans what a pass has not started).
std::vector<LogicalPartition> plan_logical_partitions(const ActiveChunks& active, std::vector<uint32_t> demands,
                                                      const TChunkTable& table, const ChunkCache& cache,
                                                      uint64_t partition_bytes, PassOrder order);

}  // namespace graphso
