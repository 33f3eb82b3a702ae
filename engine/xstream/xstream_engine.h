// The X-Stream-style engine: edge-centric scatter/gather over streaming partitions.
//
// A round is two phases:
//   scatter  the edges of every wanted partition stream from disk (in pieces that fit a read
//            buffer, double-buffered through the LoadStreamer) and each job's edge function turns
//            them into update records (Job::scatter_updates), binned by destination partition in
//            UpdateBins: in memory up to the update budget, spilled to disk beyond it;
//   gather   the bins are drained destination partition by destination partition and applied
//            (Job::gather_updates), spilled updates read back through the I/O layer.
// Union-find WCC applies edges as they stream and emits no updates.
//
// Which partitions a round scatters, and for which jobs, is the caller's business: that is where
// the sharing modes differ (integrations/xstream_driver.cc, integrations/xstream_shim.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/common/edge_processor.h"
#include "engine/common/load_stream.h"
#include "engine/gridgraph/grid_graph.h"
#include "engine/xstream/update_bins.h"
#include "engine/xstream/xstream_layout.h"
#include "jobs/job.h"

namespace graphso {

struct XStreamUnit {
  uint32_t partition = 0;
  uint64_t first_edge = 0;  // within the partition
  uint64_t edges = 0;
  std::vector<uint32_t> jobs;  // indexes into the engine's job list
  Activity activity;
  std::vector<uint64_t> active_edges;  // as LoadUnit::active_edges
};

struct XStreamConfig {
  uint64_t buffer_bytes = 0;   // each of the two edge read buffers
  uint64_t update_bytes = 0;   // the update budget: bins, spill staging, read-back buffers, scatter pieces
  int threads = 1;
  std::string spill_path;      // where updates spill (on a file system that takes O_DIRECT)
};

class XStreamEngine {
 public:
  // Smallest update budget accepted: room for the spill buffers and a few bins.
  static constexpr uint64_t kMinUpdateBytes = 256 << 10;

  XStreamEngine(const GridGraph& graph, const XStreamLayout& layout, ReaderFactory& readers,
                const XStreamConfig& config, std::span<Job* const> jobs);

  const GridGraph& graph() const { return graph_; }
  const XStreamLayout& layout() const { return layout_; }

  // Per partition: whether it holds an edge the job must scatter this round (a frontier vertex
  // among its sources; for Direction::Both jobs, any frontier vertex, as destinations span all).
  std::vector<bool> active_partitions(const Job& job) const;
  // Appends the units covering partition k, split to fit a read buffer.
  void add_partition_units(uint32_t k, std::vector<uint32_t> jobs, Activity activity,
                           std::vector<XStreamUnit>& units) const;

  // Scatter phase: reads the units and scatters them for their jobs.
  void scatter(std::span<const XStreamUnit> units);
  // Scatter phase for units already in memory (chunks the middleware loaded).
  void scatter_in_memory(std::span<const XStreamUnit> units, std::span<const std::byte* const> data);
  // Gather phase: applies every pending update of the jobs.
  void gather(std::span<const uint32_t> jobs);

  // Jobs whose scatter or gather threw, with the message.
  std::vector<std::pair<uint32_t, std::string>> failures() const;
  const EngineCounters& counters() const { return processor_.counters(); }
  IoStats io_stats() const { return streamer_.io_stats(); }  // edge reads only
  const char* backend() const { return streamer_.backend(); }
  UpdateCounters updates() const { return bins_.counters(); }

 private:
  void scatter_run(uint32_t job, const EdgeRun& run);
  void apply(uint32_t job, std::span<const std::byte> records);
  bool failed(uint32_t job) const;

  const GridGraph& graph_;
  const XStreamLayout& layout_;
  ReaderFactory& readers_;
  std::span<Job* const> jobs_;
  int threads_ = 1;
  LoadStreamer streamer_;
  EdgeProcessor processor_;
  UpdateBins bins_;
  uint64_t max_unit_edges_ = 0;
  std::vector<std::pair<uint32_t, std::string>> gather_failures_;
};

}  // namespace graphso
