// The GridGraph-style engine: streams the edges of grid blocks from disk to jobs.
//
// A round's work is a list of LoadUnits: a run of edges of one block (a whole block, a piece of
// one larger than a buffer, or a chunk) and the jobs that want it. stream() packs consecutive
// units into loads that fill one of two aligned buffers; units that follow each other in the
// file are placed back to back, so each run of them is a single read, and a whole load is
// submitted as one batch (many requests in flight). Load k+1 is read while load k is processed.
// For each unit: every edge is checked to lie in its block's ranges (a corrupt file is an error,
// not a wild write), loaded and active edges are counted, and the run goes to each of its jobs.
//
// How units are chosen (per job, per block, per chunk) is the caller's business: that is where
// the sharing modes differ (integrations/).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "engine/common/bitmap.h"
#include "engine/common/file.h"
#include "engine/gridgraph/grid_graph.h"
#include "jobs/job.h"
#include "middleware/io/chunk_reader.h"

namespace graphso {

enum class GridOrder { Row, Column };  // which of the two edge files a unit is read from

// Which sources (and, for Direction::Both jobs, destinations) count as active for a unit's
// jobs; used only for the active-edge accounting.
struct Activity {
  const Bitmap* sources = nullptr;
  const Bitmap* destinations = nullptr;  // may be null
};

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

struct EngineCounters {
  uint64_t units = 0;
  uint64_t edges_loaded = 0;
  uint64_t active_edges_loaded = 0;
  uint64_t edges_processed = 0;  // edges handed to jobs, counted once per job
};

class GridEngine {
 public:
  // buffer_bytes: size of each of the two read buffers stream() uses (the engine's graph-data
  // memory); allocated on the first stream(). threads: shared by the jobs of each unit.
  GridEngine(const GridGraph& graph, ReaderFactory& readers, uint64_t buffer_bytes, int threads);

  const GridGraph& graph() const { return graph_; }

  // Per block (index i*P+j): whether it holds an edge the job must process this round. A block
  // is active when its source range has a frontier vertex, or, for Direction::Both jobs, its
  // destination range has one.
  std::vector<bool> active_blocks(const Job& job) const;
  // Appends the units covering block (i, j) (split to fit a buffer); empty blocks add none.
  void add_block_units(uint32_t i, uint32_t j, GridOrder order, std::vector<uint32_t> jobs,
                       Activity activity, std::vector<LoadUnit>& units) const;

  // Reads and processes the units in order. jobs: the run's jobs, indexed by LoadUnit::jobs.
  void stream(std::span<const LoadUnit> units, std::span<Job* const> jobs);

  // Processes units whose edges are in memory (a load, or a logical partition of chunks). Each
  // unit is checked (every edge inside its block), counted, and run through all of its jobs
  // before its memory is left: chunk-synchronous processing.
  //   small units (chunks): one thread takes a unit and runs every related job on it while it is
  //     in that core's cache, threads taking units dynamically (the paper's Formula (1) budgets
  //     one chunk per core in the LLC);
  //   large units (blocks): all threads work on one unit, shared among its jobs in proportion to
  //     the estimated load theta_j x active edges, theta_j the job's measured seconds per edge.
  void process_units(std::span<const LoadUnit> units, std::span<const std::byte* const> data,
                     std::span<Job* const> jobs);
  void process_unit(const LoadUnit& unit, const std::byte* data, std::span<Job* const> jobs) {
    process_units(std::span<const LoadUnit>(&unit, 1), std::span<const std::byte* const>(&data, 1), jobs);
  }

  // Jobs whose process() threw, with the message; they are no longer handed edges.
  const std::vector<std::pair<uint32_t, std::string>>& failures() const { return failures_; }

  const EngineCounters& counters() const { return counters_; }
  IoStats io_stats() const;
  // The backend of the readers in use ("uring", "pread" after a fallback, "pmem"); "none" before any read.
  const char* backend() const;

 private:
  // Units [first, last) of the stream, where each one's first edge sits in the buffer, and the
  // reads that fill it.
  struct Load {
    size_t first = 0, last = 0;
    GridOrder order = GridOrder::Row;
    std::vector<uint64_t> placement;  // buffer offset of each unit's first edge
    std::vector<ReadRequest> reads;
  };
  uint64_t file_offset(const LoadUnit& unit) const;
  // Packs units from `first` on into one buffer; returns the load (at least one unit).
  Load pack(std::span<const LoadUnit> units, size_t first, std::byte* buffer) const;
  ChunkReader& reader(GridOrder order);
  // Counts the unit's edges and checks each lies in the unit's block; returns the active ones.
  uint64_t check_unit(const LoadUnit& unit, const std::byte* data, bool parallel) const;
  void process_large(const LoadUnit& unit, const std::byte* data, std::span<Job* const> jobs);
  void process_small(std::span<const LoadUnit> units, std::span<const std::byte* const> data, std::span<Job* const> jobs);
  double theta(uint32_t job) const;
  bool failed(uint32_t job) const;

  const GridGraph& graph_;
  ReaderFactory& factory_;
  std::unique_ptr<ChunkReader> row_reader_;
  std::unique_ptr<ChunkReader> col_reader_;
  AlignedBuffer buffers_[2];
  uint64_t buffer_bytes_ = 0;
  int threads_ = 1;
  std::vector<double> job_seconds_;  // per job index: time in process(), for theta_j
  std::vector<uint64_t> job_edges_;  // per job index: edges handed to process()
  std::vector<std::pair<uint32_t, std::string>> failures_;
  uint64_t max_unit_edges_ = 0;
  EngineCounters counters_;
};

}  // namespace graphso
