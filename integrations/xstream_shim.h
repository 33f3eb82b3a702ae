// The X-Stream-style engine plugged into the GraphSO middleware: the worked example of how an
// engine integrates (README, "Integrating another engine"). Two pieces:
//
//   xstream_layout()       describes the engine's files to the middleware: each streaming
//                          partition's edge file is one static partition (sources in its
//                          vertex range, destinations anywhere), so Init cuts it into chunks.
//   xstream_chunk_round()  where the engine would stream its partitions in the scatter phase,
//                          runs a chunk round instead (integrations/chunk_round.h): each run of
//                          a logical partition becomes an XStreamUnit and is scattered for its
//                          jobs; then the engine's own gather phase applies the updates.
//
// The engine itself is unchanged: its update bins, spilling and gather phase work the same
// whichever way the edges arrived.
#pragma once

#include <span>
#include <vector>

#include "engine/xstream/xstream_engine.h"
#include "integrations/engine_driver.h"
#include "jobs/job.h"
#include "middleware/engine_layout.h"
#include "middleware/graphso.h"

namespace graphso {

EngineLayout xstream_layout(const GridGraph& graph, const XStreamLayout& layout);

ChunkRoundStats xstream_chunk_round(GraphSO& graphso, XStreamEngine& engine, std::span<Job* const> jobs,
                                    const std::vector<uint32_t>& running, Activity accounting);

}  // namespace graphso
