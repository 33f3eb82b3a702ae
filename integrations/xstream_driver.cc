// The X-Stream-style engine's batch driver: the stock modes choose streaming partitions, chunk
// mode goes through the shim (xstream_shim.h). Every mode ends its round with the gather phase.
#include <fmt/format.h>
#include <unistd.h>

#include <optional>

#include "integrations/engine_driver.h"
#include "integrations/xstream_shim.h"

namespace graphso {
namespace {

class XStreamDriver final : public EngineDriver {
 public:
  XStreamDriver(const GridGraph& graph, ReaderFactory& readers)
      : graph_(graph), readers_(readers), xstream_(XStreamLayout::open(graph)), layout_(xstream_layout(graph, xstream_)) {}

  const EngineLayout& layout() const override { return layout_; }
  uint64_t min_update_bytes() const override { return XStreamEngine::kMinUpdateBytes; }
  void start(uint64_t buffer_bytes, uint64_t update_bytes, int threads, std::span<Job* const> jobs) override {
    // Spilled updates live beside the graph (a file system that takes O_DIRECT), one file per
    // engine: named by process and by this driver, so two runs never share one.
    std::string spill = fmt::format("{}/xstream.updates.{}.{}", graph_.dir(), ::getpid(), static_cast<const void*>(this));
    engine_.emplace(graph_, xstream_, readers_, XStreamConfig{buffer_bytes, update_bytes, threads, spill}, jobs);
  }

  // Each job alone: it streams the partitions it wants, then gathers its own updates.
  void independent_round(std::span<Job* const> jobs, const std::vector<uint32_t>& running) override {
    for (uint32_t j : running) {
      const Job& job = *jobs[j];
      std::vector<bool> wanted = engine_->active_partitions(job);
      Activity activity{&job.frontier(), job.direction() == Direction::Both ? &job.frontier() : nullptr};
      std::vector<XStreamUnit> units;
      for (uint32_t k = 0; k < wanted.size(); ++k)
        if (wanted[k]) engine_->add_partition_units(k, {j}, activity, units);
      engine_->scatter(units);
      engine_->gather(std::vector<uint32_t>{j});
    }
  }

  // Every partition some job wants streams once, scattered for each job that wants it.
  void partition_round(std::span<Job* const> jobs, const std::vector<uint32_t>& running, Activity accounting) override {
    std::vector<std::vector<bool>> wanted;
    for (uint32_t j : running) wanted.push_back(engine_->active_partitions(*jobs[j]));
    std::vector<XStreamUnit> units;
    for (uint32_t k = 0; k < xstream_.partitions(); ++k) {
      std::vector<uint32_t> related;
      for (size_t r = 0; r < running.size(); ++r)
        if (wanted[r][k]) related.push_back(running[r]);
      if (!related.empty()) engine_->add_partition_units(k, std::move(related), accounting, units);
    }
    engine_->scatter(units);
    engine_->gather(running);
  }

  ChunkRoundStats chunk_round(GraphSO& graphso, std::span<Job* const> jobs, const std::vector<uint32_t>& running,
                              Activity accounting) override {
    return xstream_chunk_round(graphso, *engine_, jobs, running, accounting);
  }

  std::vector<std::pair<uint32_t, std::string>> failures() const override { return engine_->failures(); }
  EngineCounters counters() const override { return engine_->counters(); }
  IoStats io_stats() const override { return engine_->io_stats(); }
  const char* backend() const override { return engine_->backend(); }
  UpdateCounters updates() const override { return engine_->updates(); }

 private:
  const GridGraph& graph_;
  ReaderFactory& readers_;
  XStreamLayout xstream_;
  EngineLayout layout_;
  std::optional<XStreamEngine> engine_;
};

}  // namespace

std::unique_ptr<EngineDriver> make_xstream_driver(const GridGraph& graph, ReaderFactory& readers) {
  return std::make_unique<XStreamDriver>(graph, readers);
}

}  // namespace graphso
