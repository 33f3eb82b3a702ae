// GetActiveChunks: which chunks some job still needs this round, for which jobs, how much work,
// and at what priority (Formula 2).
//
// A chunk is related to job j when one of its sources is in j's frontier, counted exactly from
// the TChunk source index. For a job that uses edges in both directions (WCC), a chunk is also
// related when a frontier vertex lies in the chunk's destination range [min_dst, max_dst]: a
// conservative test (the chunk may be loaded without an active destination) that can never miss
// one, so labels always cross every edge both ways.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/bitmap.h"
#include "base/edge_run.h"
#include "middleware/tchunk.h"

namespace graphso {

// What GetActiveChunks needs of one job: its frontier, and whether it uses edges both ways (then
// a chunk is active when an active vertex is a source or a destination in it).
struct JobFrontier {
  const Bitmap* frontier = nullptr;
  bool both_directions = false;
  uint32_t view = 0;  // the graph it runs on (Job::view)
};

// A run of a chunk's edges: [first, first + count), counted from the chunk's first edge.
struct EdgeSpan {
  uint64_t first = 0;
  uint64_t count = 0;
};

struct ChunkDemand {
  uint32_t chunk = 0;
  std::vector<uint32_t> jobs;           // indexes into the JobFrontier span
  std::vector<uint64_t> active_edges;   // per entry of jobs: its active out-edges in the chunk
  // Edges whose source is in the accounting frontier given to get_active_chunks (the report's
  // active edges), EdgeRun::kUncounted when none was given.
  uint64_t accounted_edges = EdgeRun::kUncounted;
  uint64_t active_sources = 0;          // N(A_m): summed over related jobs
  double priority = 0;                  // Formula 2
  // Set by choose_granularity (read_granularity.h) when only some pages are read: the runs of
  // edges to read, each its own read of whole pages, and those reads' bytes. Empty: whole chunk.
  std::vector<EdgeSpan> page_runs;
  uint64_t page_bytes = 0;
};

struct ActiveChunks {
  std::vector<ChunkDemand> chunks;  // active chunks only, by chunk id
  uint64_t active_edges = 0;        // summed over chunks and jobs
};

// Pri(C_m) = N(J_m) x N(A_m) x (sum of the sources' out-degrees / N(V_m)). A chunk wanted only
// through its destinations counts one active source, so its priority is not zero.
double chunk_priority(const ChunkInfo& chunk, uint64_t related_jobs, uint64_t active_sources);

// accounting: when not null, the union of the jobs' frontiers that the report counts active edges
// against (ChunkDemand::accounted_edges), counted in the same decode of each chunk's index.
// partition_views: EngineLayout::partition_views; a chunk is no job's outside its graph.
ActiveChunks get_active_chunks(const TChunkTable& table, std::span<const JobFrontier> jobs, int threads,
                               const Bitmap* accounting = nullptr, std::span<const uint64_t> partition_views = {});

}  // namespace graphso
