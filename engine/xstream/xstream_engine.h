// The X-Stream-style engine: edge-centric scatter/gather over streaming partitions.
//
// Its layout is one file per streaming partition k (xstream.part.<k>: the edges whose source is
// in vertex range k, destinations anywhere), each a static partition. A round is two phases:
//   scatter  process(runs): each job's edge function turns the runs' edges into update records
//            (Job::scatter_updates), binned by destination partition in UpdateBins: in memory up
//            to the update budget; beyond it a thread applies its own full bins at once
//            (UpdateOverflow::Apply, the default: the jobs' vertex state is in memory), or
//            spills them to disk (UpdateOverflow::Spill, X-Stream's own way);
//   gather   finish_round(jobs): the bins are drained destination partition by destination
//            partition and applied (Job::gather_updates), spilled updates read back through the
//            I/O layer.
// An asynchronous job (Job::async) is gathered after every load instead, so what a load changes
// is in its state before the next load scatters: a change travels on within the pass.
// Union-find WCC applies edges as they stream and emits no updates.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/edge_processor.h"
#include "engine/engine.h"
#include "engine/gridgraph/grid_graph.h"
#include "engine/xstream/update_bins.h"
#include "engine/xstream/xstream_layout.h"
#include "io/scratch_directory.h"
#include "jobs/job.h"

namespace graphso {

// The streaming partitions' files; partition k's edges are static partition k.
EngineLayout xstream_layout(const GridGraph& graph, const XStreamLayout& layout);

class XStreamEngine final : public Engine {
 public:
  XStreamEngine(const GridGraph& graph, ReaderFactory& readers);
  // Over a layout of the caller's whose static partitions are source ranges (a store's sections,
  // integrations/store_graph.h); the graph gives the vertex ranges updates are binned by.
  XStreamEngine(const GridGraph& graph, EngineLayout layout, ReaderFactory& readers);

  const EngineLayout& layout() const override { return layout_; }
  // Spilled updates go to a scratch directory of the engine's own (set_scratch_parent; a file
  // system that takes O_DIRECT), removed when the engine goes, or by the next run if it was killed.
  void start(std::span<Job* const> jobs, uint64_t update_bytes, int threads) override;
  void process(std::span<const EdgeRun> runs) override;
  void finish_round(std::span<const uint32_t> jobs) override;

  std::vector<std::pair<uint32_t, std::string>> failures() const override;
  EngineCounters counters() const override { return processor_ ? processor_->counters() : EngineCounters{}; }
  std::vector<double> job_seconds() const override { return processor_ ? processor_->job_seconds() : std::vector<double>{}; }
  UpdateCounters updates() const override { return bins_ ? bins_->counters() : UpdateCounters{}; }
  // Derived from what the engine needs, not a constant: the spill staging and two read-back
  // buffers of one page-sized piece each, every thread's scatter staging, and bins that hold one
  // scatter piece per thread (what add() may pass the budget by) or one record per thread per bin.
  uint64_t min_update_bytes(int threads, std::span<Job* const> jobs) const override;
  static uint64_t min_update_bytes(int threads, std::span<const uint32_t> record_bytes, uint32_t partitions);

 private:
  void scatter_run(uint32_t job, const EdgeRun& run);
  void apply(uint32_t job, std::span<const std::byte> records);
  bool failed(uint32_t job) const;

  const GridGraph& graph_;
  EngineLayout layout_;
  ReaderFactory& readers_;
  std::span<Job* const> jobs_;
  int threads_ = 1;
  std::optional<EdgeProcessor> processor_;
  std::optional<ScratchDirectory> scratch_;  // before bins_: their spill file goes first
  std::optional<UpdateBins> bins_;
  mutable std::mutex failures_mutex_;  // gather_failures_: full bins are applied from scatter threads
  std::vector<std::pair<uint32_t, std::string>> gather_failures_;
};

}  // namespace graphso
