// The GridGraph-style engine plugged into the GraphSO middleware. The shim describes the grid to
// the middleware (each block of grid.row is a static partition) and, where the engine would load
// its next block, runs a chunk round instead (integrations/chunk_round.h): every run of a
// logical partition becomes one LoadUnit of its block, and the engine processes them.
//
// That is the whole integration: the engine's own loading (stream) is bypassed, nothing else in
// the engine changes, and without the shim it runs as stock GridGraph.
#pragma once

#include <span>
#include <vector>

#include "engine/gridgraph/grid_engine.h"
#include "engine/gridgraph/grid_graph.h"
#include "integrations/engine_driver.h"
#include "jobs/job.h"
#include "middleware/engine_layout.h"
#include "middleware/graphso.h"

namespace graphso {

// Blocks of grid.row in row order; partition index = i * P + j.
EngineLayout gridgraph_layout(const GridGraph& graph);

// One round of the running jobs (indexes into jobs) through the middleware. accounting: the
// frontiers' unions, for the engine's active-edge count.
ChunkRoundStats gridgraph_chunk_round(GraphSO& graphso, GridEngine& engine, std::span<Job* const> jobs,
                                      const std::vector<uint32_t>& running, Activity accounting);

}  // namespace graphso
