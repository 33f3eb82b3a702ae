#include "middleware/active_chunks.h"

#include "base/bitmap_rank.h"

namespace graphso {

double chunk_priority(const ChunkInfo& c, uint64_t related_jobs, uint64_t active_sources) {
  double average_degree = static_cast<double>(c.source_degree_sum) / static_cast<double>(c.distinct_sources);
  return static_cast<double>(related_jobs) * static_cast<double>(std::max<uint64_t>(active_sources, 1)) * average_degree;
}

ActiveChunks get_active_chunks(const TChunkTable& table, std::span<const JobFrontier> jobs, int threads,
                               const Bitmap* accounting, std::span<const uint64_t> partition_views) {
  const int64_t count = static_cast<int64_t>(table.chunks().size());
  std::vector<ChunkDemand> all(count);
  // Every frontier is tested in one decode of a chunk's index: the jobs', then the accounting one.
  std::vector<const Bitmap*> frontiers;
  for (const JobFrontier& job : jobs) frontiers.push_back(job.frontier);
  // The accounting frontier is often a job's own (a batch of one): then that job's counts serve.
  size_t accounted = frontiers.size();
  for (size_t j = 0; j < jobs.size(); ++j)
    if (jobs[j].frontier == accounting) accounted = j;
  if (accounting && accounted == frontiers.size()) frontiers.push_back(accounting);
  // Each frontier ranked once, so a chunk's range costs a few popcounts however wide it is.
  std::vector<BitmapRank> ranks;
  ranks.reserve(frontiers.size());
  for (const Bitmap* frontier : frontiers) ranks.emplace_back(*frontier);
#pragma omp parallel num_threads(threads)
  {
    std::vector<TChunkTable::ActiveCounts> counts(frontiers.size());
#pragma omp for schedule(dynamic, 64)
    for (int64_t m = 0; m < count; ++m) {
      const ChunkInfo& c = table.chunk(static_cast<uint32_t>(m));
      ChunkDemand& d = all[m];
      d.chunk = static_cast<uint32_t>(m);
      table.active_in(static_cast<uint32_t>(m), ranks, counts);
      for (uint32_t j = 0; j < jobs.size(); ++j) {
        if (!partition_views.empty() && (partition_views[c.partition] >> jobs[j].view & 1) == 0) continue;
        const TChunkTable::ActiveCounts& a = counts[j];
        bool by_destination = jobs[j].both_directions && ranks[j].any_in(c.min_dst, uint64_t{c.max_dst} + 1);
        if (a.sources == 0 && !by_destination) continue;
        d.jobs.push_back(j);
        // A destination-side job may touch every edge of the chunk.
        d.active_edges.push_back(by_destination ? c.edges : a.edges);
        d.active_sources += a.sources;
      }
      if (accounting) d.accounted_edges = counts[accounted].edges;
      if (!d.jobs.empty()) d.priority = chunk_priority(c, d.jobs.size(), d.active_sources);
    }
  }
  ActiveChunks active;
  for (ChunkDemand& d : all)
    if (!d.jobs.empty()) {
      for (uint64_t e : d.active_edges) active.active_edges += e;
      active.chunks.push_back(std::move(d));
    }
  return active;
}

}  // namespace graphso
