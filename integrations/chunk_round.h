// One round through the GraphSO hooks, the part every engine's shim shares:
//
//   active = graphso.GetActiveChunks(frontiers of the running jobs)
//   while (lp = graphso.Schedule(active))   // logical partitions, cached chunks first
//     process(the runs of lp in memory)     // the engine's own per-unit processing
//
// A run is a whole chunk, or one page run of a chunk read by pages. The shim turns runs into
// the engine's units; the engine processes them chunk-synchronously.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "integrations/engine_driver.h"
#include "jobs/job.h"
#include "middleware/graphso.h"

namespace graphso {

struct ChunkRun {
  uint32_t partition = 0;      // the engine's static partition (EngineLayout::partitions)
  uint64_t first_edge = 0;     // within the partition
  uint64_t edges = 0;
  const std::byte* data = nullptr;
  std::vector<uint32_t> jobs;  // indexes into the run's job list
  // Per entry of jobs, its active edges in the run, when the run is the whole chunk; else empty.
  std::vector<uint64_t> active_edges;
};

ChunkRoundStats run_chunk_round(GraphSO& graphso, std::span<Job* const> jobs, const std::vector<uint32_t>& running,
                                const std::function<void(std::span<const ChunkRun>)>& process);

}  // namespace graphso
