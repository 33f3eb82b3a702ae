#include "middleware/scheduler.h"

#include <algorithm>

#include "base/error.h"
#include "io/read_plan.h"

namespace graphso {

PassOrder parse_pass_order(const std::string& name) {
  if (name == "priority") return PassOrder::Priority;
  if (name == "source") return PassOrder::Source;
  fail("unknown pass order '{}' (expected priority or source)", name);
}

const char* pass_order_name(PassOrder order) { return order == PassOrder::Priority ? "priority" : "source"; }

std::vector<LogicalPartition> plan_logical_partitions(const ActiveChunks& active, const TChunkTable& table,
                                                      const ChunkCache& cache, uint64_t partition_bytes, PassOrder order) {
  std::vector<uint32_t> all(active.chunks.size());
  for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  return plan_logical_partitions(active, std::move(all), table, cache, partition_bytes, order);
}

std::vector<LogicalPartition> plan_logical_partitions(const ActiveChunks& active, std::vector<uint32_t> order,
                                                      const TChunkTable& table, const ChunkCache& cache,
                                                      uint64_t partition_bytes, PassOrder pass_order) {
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const ChunkDemand &x = active.chunks[a], &y = active.chunks[b];
    if (pass_order == PassOrder::Source || x.priority == y.priority) return x.chunk < y.chunk;
    return x.priority > y.priority;
  });

  std::vector<LogicalPartition> plan;
  LogicalPartition cached{true, {}};
  LogicalPartition current;
  uint64_t used = 0;
  auto by_id = [&](LogicalPartition& lp) {
    std::sort(lp.demands.begin(), lp.demands.end(),
              [&](uint32_t a, uint32_t b) { return active.chunks[a].chunk < active.chunks[b].chunk; });
  };
  for (uint32_t d : order) {
    uint32_t id = active.chunks[d].chunk;
    if (cache.contains(id)) {
      cached.demands.push_back(d);
      continue;
    }
    const ChunkInfo& c = table.chunk(id);
    const ChunkDemand& demand = active.chunks[d];
    uint64_t span = demand.page_runs.empty() ? aligned_span({c.file, c.offset, c.bytes}) : demand.page_bytes;
    if (span > partition_bytes) fail("chunk {} ({} bytes) does not fit a logical partition of {} bytes", id, span, partition_bytes);
    if (used + span > partition_bytes) {
      by_id(current);
      plan.push_back(std::move(current));
      current = LogicalPartition{};
      used = 0;
    }
    current.demands.push_back(d);
    used += span;
  }
  if (!current.demands.empty()) {
    by_id(current);
    plan.push_back(std::move(current));
  }
  if (!cached.demands.empty()) {
    by_id(cached);
    plan.insert(plan.begin(), std::move(cached));
  }
  return plan;
}

}  // namespace graphso
