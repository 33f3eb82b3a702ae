// The GridGraph-style engine: the edges of a 2-D grid of blocks applied to the jobs as they
// stream (Job::process), destination state in memory.
//
// Its layout is grid.row, block (i, j) being static partition i * P + j (sources in range i,
// destinations in range j); a round that wants every block reads them column by column from
// grid.col instead (EngineLayout::dense_order), GridGraph's own choice for dense rounds. There is
// nothing to do at a round's end.
//
// Over a layout of the caller's (a store's sections: integrations/store_graph.h) it is a grid of
// one column: each static partition a source range with every destination, applied as it streams
// with the destination state in memory (atomic updates where threads share destinations).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/edge_processor.h"
#include "engine/engine.h"
#include "engine/gridgraph/grid_graph.h"

namespace graphso {

// Blocks of grid.row in row order; partition index = i * P + j; grid.col as the dense order.
EngineLayout gridgraph_layout(const GridGraph& graph);

class GridEngine final : public Engine {
 public:
  explicit GridEngine(const GridGraph& graph) : grid_partitions_(graph.meta().partitions), layout_(gridgraph_layout(graph)) {}
  // Over a layout of the caller's, whose static partitions are source ranges.
  explicit GridEngine(EngineLayout layout) : layout_(std::move(layout)) {}

  const EngineLayout& layout() const override { return layout_; }
  void start(std::span<Job* const> jobs, uint64_t update_bytes, int threads) override;
  void process(std::span<const EdgeRun> runs) override { processor_->process(runs); }
  void finish_round(std::span<const uint32_t>) override {}

  std::vector<std::pair<uint32_t, std::string>> failures() const override { return processor_->failures(); }
  EngineCounters counters() const override { return processor_ ? processor_->counters() : EngineCounters{}; }
  std::vector<double> job_seconds() const override { return processor_ ? processor_->job_seconds() : std::vector<double>{}; }

 private:
  uint32_t grid_partitions_ = 0;  // P of a P x P grid; 0: the caller's layout
  EngineLayout layout_;
  std::optional<EdgeProcessor> processor_;
};

}  // namespace graphso
