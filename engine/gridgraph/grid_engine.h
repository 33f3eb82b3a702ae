// The GridGraph-style engine: streams the edges of grid blocks from disk to jobs.
//
// A round's work is a list of LoadUnits: a run of edges of one block (a whole block, a piece of
// one larger than a buffer, or a chunk) and the jobs that want it. stream() reads them through
// the double-buffered LoadStreamer (engine/common/load_stream.h) and hands each load to the
// EdgeProcessor (engine/common/edge_processor.h), which applies the edges with Job::process.
//
// How units are chosen (per job, per block, per chunk) is the caller's business: that is where
// the sharing modes differ (integrations/).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/common/edge_processor.h"
#include "engine/common/load_stream.h"
#include "engine/gridgraph/grid_graph.h"
#include "jobs/job.h"
#include "middleware/io/chunk_reader.h"

namespace graphso {

enum class GridOrder { Row, Column };  // which of the two edge files a unit is read from

struct LoadUnit {
  uint32_t row = 0, col = 0;  // the block
  uint64_t first_edge = 0;    // within the block
  uint64_t edges = 0;
  GridOrder order = GridOrder::Row;
  std::vector<uint32_t> jobs;  // indexes into the job list given to stream()
  Activity activity;
  // Per entry of `jobs`, the edges of this unit that job will find active (from the chunk
  // index); empty when unknown, then every job's load is taken as the unit's size.
  std::vector<uint64_t> active_edges;
};

class GridEngine {
 public:
  // buffer_bytes: size of each of the two read buffers stream() uses (the engine's graph-data
  // memory); allocated on the first stream(). threads: shared by the jobs of each unit.
  // jobs: the run's jobs, indexed by LoadUnit::jobs; they must outlive the engine.
  GridEngine(const GridGraph& graph, ReaderFactory& readers, uint64_t buffer_bytes, int threads,
             std::span<Job* const> jobs);

  const GridGraph& graph() const { return graph_; }

  // Per block (index i*P+j): whether it holds an edge the job must process this round. A block
  // is active when its source range has a frontier vertex, or, for Direction::Both jobs, its
  // destination range has one.
  std::vector<bool> active_blocks(const Job& job) const;
  // Appends the units covering block (i, j) (split to fit a buffer); empty blocks add none.
  void add_block_units(uint32_t i, uint32_t j, GridOrder order, std::vector<uint32_t> jobs,
                       Activity activity, std::vector<LoadUnit>& units) const;

  // Reads and processes the units in order.
  void stream(std::span<const LoadUnit> units);

  // Processes units whose edges are in memory (a load, or a logical partition of chunks).
  void process_units(std::span<const LoadUnit> units, std::span<const std::byte* const> data);

  // Jobs whose process() threw, with the message; they are no longer handed edges.
  const std::vector<std::pair<uint32_t, std::string>>& failures() const { return processor_.failures(); }
  const EngineCounters& counters() const { return processor_.counters(); }
  IoStats io_stats() const { return streamer_.io_stats(); }
  const char* backend() const { return streamer_.backend(); }

 private:
  FileRange file_range(const LoadUnit& unit) const;

  const GridGraph& graph_;
  LoadStreamer streamer_;
  EdgeProcessor processor_;
  uint64_t max_unit_edges_ = 0;
};

}  // namespace graphso
