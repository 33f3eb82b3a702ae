// Adaptive read granularity: when few of a chunk's edges are active, read only the 4 KiB pages
// that hold them instead of the whole chunk.
//
// The TChunk source index says where each source's edges sit in the chunk, so the active
// sources (of every related job) give byte runs; runs whose pages are close are merged into one
// read when reading the gap costs less than another request; each remaining run is one read of
// whole pages, and all of them go to the device in the logical partition's batch.
//
//   chunk  every chunk is read whole (the paper's GraphSO)
//   page   every chunk some job needs through its sources is read by pages
//   auto   per chunk, the cheaper of the two under the device's cost model (DeviceProfile),
//          measured at start-up: whole = one request + the chunk's pages; by pages = one
//          request per run + the runs' pages
//
// A chunk needed by a job that uses in-edges too (EdgeUse::BothWays) is always read whole: its
// active edges are not grouped by source. Cached chunks are served whole from the cache, and a
// chunk read by pages never enters the cache (it is incomplete).
#pragma once

#include <span>
#include <string>

#include "middleware/active_chunks.h"
#include "io/device_profile.h"
#include "middleware/tchunk.h"

namespace graphso {

enum class Granularity { Chunk, Page, Auto };
Granularity parse_granularity(const std::string& name);
const char* granularity_name(Granularity granularity);

// Fills ChunkDemand::page_runs / page_bytes for the demands that should be read by pages.
// device: the cost model (page mode uses it only to merge runs; null merges touching pages only).
void choose_granularity(const TChunkTable& table, std::span<const JobFrontier> jobs, uint32_t edge_size,
                        Granularity granularity, const DeviceProfile* device, ActiveChunks& active, int threads);

}  // namespace graphso
