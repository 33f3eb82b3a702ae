// A run of edge records in memory and the jobs that want it: what a loader (a sharing mode)
// hands to an engine, and the engine, cut into pieces for its threads, to each job. One struct
// from the read buffer to the job's edge loop; nobody rewraps it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "base/bitmap.h"
#include "base/types.h"

namespace graphso {

// The frontiers an engine counts a run's active edges against (for the report only): an edge is
// active when its source is in `sources` or its destination in `destinations` (may be null).
struct ActiveSets {
  const Bitmap* sources = nullptr;
  const Bitmap* destinations = nullptr;
};

struct EdgeRun {
  const std::byte* data = nullptr;  // Edge or WeightedEdge records, sorted by source; or packed pages
  uint64_t count = 0;
  bool weighted = false;
  uint32_t partition = 0;   // the engine's static partition (EngineLayout::partitions)
  uint32_t file = 0;        // the file it was read from (EngineLayout::files)
  uint64_t first_edge = 0;  // within the partition
  std::span<const uint32_t> jobs;          // the jobs that want it (indexes into the batch)
  std::span<const uint64_t> active_edges;  // per entry of jobs, its active edges here; empty: unknown
  ActiveSets accounting;
  // Set by the engine when the thread handed this run is, for now, the only one writing the state
  // of its destinations for these jobs (one thread, or threads owning destination ranges): a job
  // may then update them without atomics.
  bool owns_destinations = false;
  // Set by a loader whose memory already went through the engine's range check (a chunk served
  // from the cache was checked when it was read): the engine does not check it again.
  bool checked = false;
  // Set for a run handed again while still loaded (middleware/reentry.h): only asynchronous jobs'
  // sources changed since they pushed, with all their out-edges in the run, push; the engine does
  // not count it as loaded.
  bool reentry = false;
  // The run's active edges against `accounting` when the loader knows them (the TChunk source
  // index gives them without reading an edge); kUncounted: the engine counts them. A piece of a
  // counted run carries the whole count when it starts at the run's first edge, else none.
  static constexpr uint64_t kUncounted = ~uint64_t{0};
  uint64_t counted_active = kUncounted;
  // Packed (base/packed_pages.h): data holds `packed_bytes` of whole pages, which the engine
  // decodes into records before any job sees them; count is the edges in those pages (a loader
  // that does not know it before reading sets it from the page headers once they are in memory).
  bool packed = false;
  uint64_t packed_bytes = 0;

  // The same run's edges [first, first + count) (records only: a packed run is cut by pages).
  EdgeRun piece(uint64_t first, uint64_t edges) const { return part(data + first * edge_bytes(weighted), first, edges); }
  // A packed run's edges [first, first + count), decoded into the records at `records`.
  EdgeRun decoded(const std::byte* records, uint64_t first, uint64_t edges) const {
    EdgeRun p = part(records, first, edges);
    p.packed = false;
    p.packed_bytes = 0;
    return p;
  }

 private:
  EdgeRun part(const std::byte* records, uint64_t first, uint64_t edges) const {
    EdgeRun p = *this;
    p.data = records;
    p.first_edge = first_edge + first;
    p.count = edges;
    p.active_edges = {};
    if (counted_active != kUncounted && first != 0) p.counted_active = 0;
    return p;
  }
};

}  // namespace graphso
