#include "middleware/scheduler.h"

#include <algorithm>

#include "base/enum_names.h"
#include "base/error.h"
#include "io/read_plan.h"

namespace graphso {

namespace {
constexpr EnumName<PassOrder> kPassOrderNames[] = {
    {PassOrder::Priority, "priority"}, {PassOrder::Source, "source"}, {PassOrder::Destination, "destination"}};
}  // namespace

PassOrder parse_pass_order(const std::string& name) { return parse_enum<PassOrder>(kPassOrderNames, name, "pass order"); }

const char* pass_order_name(PassOrder order) { return enum_name<PassOrder>(kPassOrderNames, order); }

std::vector<LogicalPartition> plan_logical_partitions(const ActiveChunks& active, const TChunkTable& table,
                                                      const ChunkCache& cache, uint64_t partition_bytes, PassOrder order,
                                                      uint64_t extent_bytes, std::span<const StaticPartition> partitions,
                                                      int threads) {
  std::vector<uint32_t> all(active.chunks.size());
  for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  return plan_logical_partitions(active, std::move(all), table, cache, partition_bytes, order, extent_bytes, partitions,
                                 threads);
}

std::vector<LogicalPartition> plan_logical_partitions(const ActiveChunks& active, std::vector<uint32_t> demands,
                                                      const TChunkTable& table, const ChunkCache& cache,
                                                      uint64_t partition_bytes, PassOrder pass_order, uint64_t extent_bytes,
                                                      std::span<const StaticPartition> partitions, int threads) {
  auto by_id = [&](std::vector<uint32_t>& ds) {
    std::sort(ds.begin(), ds.end(), [&](uint32_t a, uint32_t b) { return active.chunks[a].chunk < active.chunks[b].chunk; });
  };
  LogicalPartition cached{true, {}};
  std::vector<uint32_t> device;
  for (uint32_t d : demands) (cache.contains(active.chunks[d].chunk) ? cached.demands : device).push_back(d);
  by_id(cached.demands);
  by_id(device);
  // Destination order: the chunks of `threads` x 2 destination ranges together, then the next
  // ranges': a load holds blocks of as few ranges as still give every thread ranges of its own
  // (engine/edge_processor.h), so each range's state serves as many of them as a load can hold.
  // (A load of one range would have the threads updating the same vertices at once.) Within a
  // group, extents go by priority, as in priority order: in chunk id order (row by row) a group
  // holding every range is source order, 1.3-1.45x priority order's time on ego-twitter
  // relabelled by BFS (docs/middleware.md, "Destination order").
  const bool by_destination = pass_order == PassOrder::Destination;
  if (by_destination && partitions.empty()) fail("destination order needs the layout's partitions");
  std::vector<uint64_t> partition_group;  // per static partition: its range's group
  if (by_destination) {
    std::vector<VertexId> firsts;  // every destination range's first vertex, in order
    for (const StaticPartition& p : partitions) firsts.push_back(p.dst_begin);
    std::sort(firsts.begin(), firsts.end());
    firsts.erase(std::unique(firsts.begin(), firsts.end()), firsts.end());
    const uint64_t together = 2 * static_cast<uint64_t>(std::max(threads, 1));
    for (const StaticPartition& p : partitions)
      partition_group.push_back(static_cast<uint64_t>(std::lower_bound(firsts.begin(), firsts.end(), p.dst_begin) - firsts.begin()) /
                                together);
  }
  auto group_of = [&](uint32_t d) { return partition_group[table.chunk(active.chunks[d].chunk).partition]; };
  if (by_destination)
    std::stable_sort(device.begin(), device.end(), [&](uint32_t a, uint32_t b) { return group_of(a) < group_of(b); });

  // What a demand takes of a logical partition's buffer.
  auto span_of = [&](uint32_t d) {
    const ChunkDemand& demand = active.chunks[d];
    const ChunkInfo& c = table.chunk(demand.chunk);
    return demand.page_runs.empty() ? aligned_span({c.file, c.offset, c.bytes}) : demand.page_bytes;
  };
  // Extents: device chunks read whole that follow each other in their file, up to extent_bytes
  // together and never over an eighth of a partition (so that loads still follow priority),
  // each taking the highest priority of its chunks; in destination order, within one group.
  const uint64_t extent_limit = std::min(extent_bytes, partition_bytes / 8);
  struct Extent {
    size_t first, end;  // into device
    double priority;
  };
  std::vector<Extent> extents;
  uint64_t in_extent = 0;  // bytes of the last extent
  for (size_t k = 0; k < device.size(); ++k) {
    const ChunkDemand& demand = active.chunks[device[k]];
    const uint64_t span = span_of(device[k]);
    bool joins = false;
    if (k > 0 && demand.page_runs.empty()) {
      const ChunkDemand& before = active.chunks[device[k - 1]];
      const ChunkInfo &a = table.chunk(before.chunk), &b = table.chunk(demand.chunk);
      joins = before.page_runs.empty() && a.file == b.file && a.offset + a.bytes == b.offset &&
              in_extent + span <= extent_limit && (!by_destination || group_of(device[k - 1]) == group_of(device[k]));
    }
    if (joins) {
      extents.back().end = k + 1;
      extents.back().priority = std::max(extents.back().priority, demand.priority);
      in_extent += span;
    } else {
      extents.push_back({k, k + 1, demand.priority});
      in_extent = span;
    }
  }
  if (pass_order == PassOrder::Priority)
    std::stable_sort(extents.begin(), extents.end(), [](const Extent& a, const Extent& b) { return a.priority > b.priority; });
  if (by_destination)  // group by group; by priority within one
    std::stable_sort(extents.begin(), extents.end(), [&](const Extent& a, const Extent& b) {
      const uint64_t ga = group_of(device[a.first]), gb = group_of(device[b.first]);
      return ga != gb ? ga < gb : a.priority > b.priority;
    });

  std::vector<LogicalPartition> plan;
  if (!cached.demands.empty()) plan.push_back(std::move(cached));
  LogicalPartition current;
  uint64_t used = 0;
  auto close = [&]() {
    by_id(current.demands);
    plan.push_back(std::move(current));
    current = LogicalPartition{};
    used = 0;
  };
  for (const Extent& extent : extents)
    for (size_t k = extent.first; k < extent.end; ++k) {
      const uint32_t d = device[k];
      const uint64_t span = span_of(d);
      if (span > partition_bytes)
        fail("chunk {} ({} bytes) does not fit a logical partition of {} bytes", active.chunks[d].chunk, span, partition_bytes);
      if (used + span > partition_bytes) close();
      current.demands.push_back(d);
      used += span;
    }
  if (!current.demands.empty()) close();
  return plan;
}

}  // namespace graphso
