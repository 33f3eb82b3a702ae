// The GridGraph-style engine's batch driver: the stock modes choose grid blocks, chunk mode goes
// through the shim (gridgraph_shim.h).
#include <optional>

#include "integrations/engine_driver.h"
#include "integrations/gridgraph_shim.h"

namespace graphso {
namespace {

// The grid's own order for a round: when every non-empty block is wanted the round is dense and
// streams column by column (a destination range stays in cache, GridGraph's choice); otherwise
// row by row, so a skipped source range is one skipped run of the row file.
GridOrder order_for(const GridMeta& m, const std::vector<bool>& wanted) {
  for (uint64_t b = 0; b < m.num_blocks(); ++b)
    if (m.block_edges[b] > 0 && !wanted[b]) return GridOrder::Row;
  return GridOrder::Column;
}

template <typename Visit>
void for_each_block(const GridMeta& m, GridOrder order, Visit&& visit) {
  for (uint32_t a = 0; a < m.partitions; ++a)
    for (uint32_t b = 0; b < m.partitions; ++b) {
      if (order == GridOrder::Row) visit(a, b);
      else visit(b, a);
    }
}

class GridGraphDriver final : public EngineDriver {
 public:
  GridGraphDriver(const GridGraph& graph, ReaderFactory& readers)
      : graph_(graph), readers_(readers), layout_(gridgraph_layout(graph)) {}

  const EngineLayout& layout() const override { return layout_; }
  void start(uint64_t buffer_bytes, uint64_t, int threads, std::span<Job* const> jobs) override {
    engine_.emplace(graph_, readers_, buffer_bytes, threads, jobs);
  }

  // Every running job's wanted blocks, job after job, each read for that job alone.
  void independent_round(std::span<Job* const> jobs, const std::vector<uint32_t>& running) override {
    const GridMeta& m = graph_.meta();
    std::vector<LoadUnit> units;
    for (uint32_t j : running) {
      const Job& job = *jobs[j];
      std::vector<bool> wanted = engine_->active_blocks(job);
      Activity activity{&job.frontier(), job.direction() == Direction::Both ? &job.frontier() : nullptr};
      GridOrder order = order_for(m, wanted);
      for_each_block(m, order, [&](uint32_t i, uint32_t k) {
        if (wanted[m.block_index(i, k)]) engine_->add_block_units(i, k, order, {j}, activity, units);
      });
    }
    engine_->stream(units);
  }

  // Every block some job wants, once, for all the jobs that want it (GraphM).
  void partition_round(std::span<Job* const> jobs, const std::vector<uint32_t>& running, Activity accounting) override {
    const GridMeta& m = graph_.meta();
    std::vector<std::vector<bool>> wanted;
    std::vector<bool> any_wanted(m.num_blocks(), false);
    for (uint32_t j : running) {
      wanted.push_back(engine_->active_blocks(*jobs[j]));
      for (uint64_t b = 0; b < m.num_blocks(); ++b)
        if (wanted.back()[b]) any_wanted[b] = true;
    }
    std::vector<LoadUnit> units;
    GridOrder order = order_for(m, any_wanted);
    for_each_block(m, order, [&](uint32_t i, uint32_t k) {
      uint64_t b = m.block_index(i, k);
      if (!any_wanted[b]) return;
      std::vector<uint32_t> related;
      for (size_t r = 0; r < running.size(); ++r)
        if (wanted[r][b]) related.push_back(running[r]);
      engine_->add_block_units(i, k, order, std::move(related), accounting, units);
    });
    engine_->stream(units);
  }

  ChunkRoundStats chunk_round(GraphSO& graphso, std::span<Job* const> jobs, const std::vector<uint32_t>& running,
                              Activity accounting) override {
    return gridgraph_chunk_round(graphso, *engine_, jobs, running, accounting);
  }

  std::vector<std::pair<uint32_t, std::string>> failures() const override { return engine_->failures(); }
  EngineCounters counters() const override { return engine_->counters(); }
  IoStats io_stats() const override { return engine_->io_stats(); }
  const char* backend() const override { return engine_->backend(); }

 private:
  const GridGraph& graph_;
  ReaderFactory& readers_;
  EngineLayout layout_;
  std::optional<GridEngine> engine_;
};

}  // namespace

std::unique_ptr<EngineDriver> make_gridgraph_driver(const GridGraph& graph, ReaderFactory& readers) {
  return std::make_unique<GridGraphDriver>(graph, readers);
}

}  // namespace graphso
