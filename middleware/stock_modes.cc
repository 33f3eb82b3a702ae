// The two sharing modes without the middleware, the same for every engine: they choose whole
// static partitions (middleware/partition_stream.h) and differ only in who shares a load.
#include "middleware/partition_stream.h"
#include "middleware/sharing_mode.h"

namespace graphso {
namespace {

// Each running job alone: the partitions it wants, then the engine's end of its round.
class IndependentMode final : public SharingMode {
 public:
  IndependentMode(const EngineLayout& layout, ReaderFactory& readers, uint64_t buffer_bytes, bool dense_order,
                  ReentryPolicy reentry)
      : SharingMode(reentry), stream_(layout, readers, buffer_bytes, dense_order) {}

  // The jobs' loads are read back to back (job k's first load while job j's last is processed),
  // but no load holds two jobs' partitions, and the engine finishes each job's round after its
  // last load, before the next job's first is processed.
  RoundStats round(Engine& engine, std::span<Job* const> jobs, std::span<const uint32_t> running, ActiveSets) override {
    for (const uint32_t& j : running) {
      const Job& job = *jobs[j];
      // Each job's loads are counted against its own frontier.
      ActiveSets own{&job.frontier(), job.edge_use() == EdgeUse::BothWays ? &job.frontier() : nullptr};
      std::vector<bool> wanted = stream_.wanted(job);
      std::vector<std::span<const uint32_t>> jobs_of(wanted.size());
      for (size_t k = 0; k < wanted.size(); ++k)
        if (wanted[k]) jobs_of[k] = std::span<const uint32_t>(&j, 1);
      stream_.add(jobs_of, own);
    }
    stream_.stream(
        engine, [&](std::span<const EdgeRun> load) { reentry_.after_load(engine, jobs, load); },
        [&](size_t group) { engine.finish_round(running.subspan(group, 1)); });
    return {};
  }
  IoStats io_stats() const override { return stream_.io_stats(); }
  const char* backend() const override { return stream_.backend(); }

 private:
  PartitionStream stream_;
};

// Every partition some job wants, once, for all the jobs that want it (GraphM).
class PartitionMode final : public SharingMode {
 public:
  PartitionMode(const EngineLayout& layout, ReaderFactory& readers, uint64_t buffer_bytes, bool dense_order,
                ReentryPolicy reentry)
      : SharingMode(reentry), stream_(layout, readers, buffer_bytes, dense_order),
        partitions_(layout.partitions.size()) {}

  RoundStats round(Engine& engine, std::span<Job* const> jobs, std::span<const uint32_t> running,
                   ActiveSets accounting) override {
    std::vector<std::vector<uint32_t>> related(partitions_);
    for (uint32_t j : running) {
      std::vector<bool> wanted = stream_.wanted(*jobs[j]);
      for (size_t k = 0; k < partitions_; ++k)
        if (wanted[k]) related[k].push_back(j);
    }
    std::vector<std::span<const uint32_t>> jobs_of(related.begin(), related.end());
    stream_.add(jobs_of, accounting);
    stream_.stream(
        engine, [&](std::span<const EdgeRun> load) { reentry_.after_load(engine, jobs, load); },
        [&](size_t) { engine.finish_round(running); });
    return {};
  }
  IoStats io_stats() const override { return stream_.io_stats(); }
  const char* backend() const override { return stream_.backend(); }

 private:
  PartitionStream stream_;
  size_t partitions_ = 0;
};

}  // namespace

std::unique_ptr<SharingMode> make_stock_mode(Sharing sharing, const EngineLayout& layout, ReaderFactory& readers,
                                             uint64_t buffer_bytes, int threads, ReentryPolicy reentry) {
  // The layout's dense order (GridGraph's column order) keeps one destination range in the cache
  // while its blocks go by, which pays on one thread; on several, a load in row order spans
  // destination ranges the threads can own without atomics, and that pays more (docs/formats.md, "Why two files").
  const bool dense_order = threads == 1;
  if (sharing == Sharing::Independent) return std::make_unique<IndependentMode>(layout, readers, buffer_bytes, dense_order, reentry);
  return std::make_unique<PartitionMode>(layout, readers, buffer_bytes, dense_order, reentry);
}

}  // namespace graphso
