#include "middleware/late_join.h"

#include <algorithm>

#include "base/bitmap_rank.h"
#include "base/error.h"

namespace graphso {

LateJoin::LateJoin(const TChunkTable& table, const EngineLayout& layout)
    : table_(table), degrees_(layout.out_degrees), partitions_(layout.partitions), views_(layout.partition_views),
      first_chunk_(layout.partitions.size() + 1, 0), demand_of_(table.chunks().size(), kNone), fresh_(layout.vertices) {
  // The table cuts the partitions in order, so each one's chunks are consecutive ids.
  for (const ChunkInfo& c : table.chunks()) {
    if (c.partition >= partitions_.size()) fail("internal: chunk of partition {} beyond the layout's {}", c.partition, partitions_.size());
    ++first_chunk_[c.partition + 1];
  }
  for (size_t p = 0; p < partitions_.size(); ++p) first_chunk_[p + 1] += first_chunk_[p];
}

void LateJoin::begin_pass(const ActiveChunks& active) {
  std::fill(demand_of_.begin(), demand_of_.end(), kNone);
  for (uint32_t d = 0; d < active.chunks.size(); ++d) demand_of_[active.chunks[d].chunk] = d;
  planned_ = active.chunks.size();
  for (Bitmap& seen : seen_) seen.clear();
}

LateJoin::Joined LateJoin::follow(ActiveChunks& active, std::span<const JobChanges> jobs,
                                  const std::function<bool(uint32_t)>& open, bool counted) {
  Joined joined;
  for (const JobChanges& job : jobs) {
    if (job.job >= seen_.size()) seen_.resize(job.job + 1);
    Bitmap& seen = seen_[job.job];
    if (seen.size() != job.changed->size()) seen = Bitmap(job.changed->size());
    // What changed since the last look: only chunks holding one of those can have gained work.
    fresh_ = *job.changed;
    fresh_.and_not(seen);
    seen.or_with(*job.changed);
    const BitmapRank fresh(fresh_);
    if (fresh.count_in(0, fresh_.size()) == 0) continue;

    for (uint32_t p = 0; p < partitions_.size(); ++p) {
      if (!views_.empty() && (views_[p] >> job.view & 1) == 0) continue;
      if (!fresh.any_in(partitions_[p].src_begin, partitions_[p].src_end)) continue;
      for (uint32_t id = first_chunk_[p]; id < first_chunk_[p + 1]; ++id) {
        const ChunkInfo& c = table_.chunk(id);
        if (c.edges == 0 || !fresh.any_in(c.first_src, uint64_t{c.last_src} + 1)) continue;
        const uint32_t d = demand_of_[id];
        if (d != kNone) {
          const std::vector<uint32_t>& has = active.chunks[d].jobs;
          if (!open(d) || std::find(has.begin(), has.end(), job.job) != has.end()) continue;
        }
        // Every changed source (not only the fresh ones) pushes when the chunk goes by.
        uint64_t sources = 0, edges = 0;
        table_.for_each_source(id, [&](VertexId src, uint64_t n) {
          if (!job.changed->test(src)) return;
          if (job.whole_sources_only && (!degrees_ || (*degrees_)[src] != n)) return;
          ++sources;
          edges += n;
        });
        if (sources == 0) continue;
        if (d == kNone) {
          ChunkDemand demand;
          demand.chunk = id;
          demand.accounted_edges = counted ? 0 : EdgeRun::kUncounted;
          demand_of_[id] = static_cast<uint32_t>(active.chunks.size());
          active.chunks.push_back(std::move(demand));
          ++joined.new_chunks;
        }
        const uint32_t at = demand_of_[id];
        ChunkDemand& demand = active.chunks[at];
        demand.jobs.push_back(job.job);
        demand.active_edges.push_back(edges);
        demand.active_sources += sources;
        demand.priority = chunk_priority(c, demand.jobs.size(), demand.active_sources);
        // A chunk loaded only for changed sources counts their edges as the report's active ones
        // (the most over its jobs: their union is not known without another decode).
        if (at >= planned_ && counted) demand.accounted_edges = std::max(demand.accounted_edges, edges);
        active.active_edges += edges;
        joined.grown.push_back(at);
      }
    }
  }
  std::sort(joined.grown.begin(), joined.grown.end());
  joined.grown.erase(std::unique(joined.grown.begin(), joined.grown.end()), joined.grown.end());
  return joined;
}

}  // namespace graphso
