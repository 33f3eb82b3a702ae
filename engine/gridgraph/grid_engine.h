// The GridGraph-style engine: the edges of a 2-D grid of blocks applied to the jobs as they
// stream (Job::process), destination state in memory.
//
// Its layout is grid.row, block (i, j) being static partition i * P + j (sources in range i,
// destinations in range j); a round that wants every block reads them column by column from
// grid.col instead (EngineLayout::dense_order), GridGraph's own choice for dense rounds. There is
// nothing to do at a round's end.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/edge_processor.h"
#include "engine/engine.h"
#include "engine/gridgraph/grid_graph.h"

namespace graphso {

// Blocks of grid.row in row order; partition index = i * P + j; grid.col as the dense order.
EngineLayout gridgraph_layout(const GridGraph& graph);

class GridEngine final : public Engine {
 public:
  explicit GridEngine(const GridGraph& graph) : graph_(graph), layout_(gridgraph_layout(graph)) {}

  const EngineLayout& layout() const override { return layout_; }
  void start(std::span<Job* const> jobs, uint64_t update_bytes, int threads) override;
  void process(std::span<const EdgeRun> runs) override { processor_->process(runs); }
  void finish_round(std::span<const uint32_t>) override {}

  std::vector<std::pair<uint32_t, std::string>> failures() const override { return processor_->failures(); }
  EngineCounters counters() const override { return processor_ ? processor_->counters() : EngineCounters{}; }
  std::vector<double> job_seconds() const override { return processor_ ? processor_->job_seconds() : std::vector<double>{}; }

 private:
  const GridGraph& graph_;
  EngineLayout layout_;
  std::optional<EdgeProcessor> processor_;
};

}  // namespace graphso
