// A run of edges in memory and the jobs that want it: what a loader (a sharing mode)
// hands to an engine, and the engine, cut into pieces for its threads, to each job. One struct
// from the read buffer to the job's edge loop; nobody rewraps it.
#pragma once

#include <algorithm>
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

// Edges decoded from packed pages (EdgeProcessor), source by source: group g is source sources[g]
// with the edges [offsets[g], offsets[g + 1]), of which the run holds those in [begin, end) (a
// piece may start or stop inside a group). Destinations stay deltas, added up by the loop that
// reads them (base/run_edges.h): edge k's destination is firsts[g] plus deltas[offsets[g] .. k]
// (deltas[offsets[g]] is 0). Sources increase from group to group: a source split between two
// pages decoded together is one group.
struct SourceGroups {
  const VertexId* sources = nullptr;
  const uint32_t* offsets = nullptr;  // groups + 1 entries
  const VertexId* firsts = nullptr;   // per group: its first destination
  // Per group: its highest destination, found without wrapping (2^32 - 1 if the deltas pass 32
  // bits): every destination of the group lies in [firsts[g], highest[g]].
  const VertexId* highest = nullptr;
  uint64_t groups = 0;
  const uint32_t* deltas = nullptr;
  const Weight* weights = nullptr;  // null when unweighted
  uint64_t begin = 0, end = 0;
};

struct EdgeRun {
  // Edge or WeightedEdge records, sorted by source; or packed pages; null for source groups.
  const std::byte* data = nullptr;
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
  // Set by the engine when its threads split a load of packed runs by destination rather than by
  // edges (one column of sources with every destination: EdgeProcessor's destination windows):
  // only the edges whose destination lies in [window_begin, window_begin + window_span) are this
  // run's, every other edge another thread's, and the thread owns those destinations. The edge
  // loops (base/run_edges.h, GroupEdges) pass over the others; a source's edges are then never
  // all in the run.
  VertexId window_begin = 0;
  uint64_t window_span = kWholeWindow;
  static constexpr uint64_t kWholeWindow = uint64_t{1} << 32;  // every destination: no window
  bool windowed() const { return window_span != kWholeWindow; }
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
  // decodes into source groups before any job sees them; count is the edges in those pages (a loader
  // that does not know it before reading sets it from the page headers once they are in memory).
  bool packed = false;
  uint64_t packed_bytes = 0;
  // Set (grouped()) for a packed run's edges once decoded: what the jobs' loops read instead of
  // records (base/run_edges.h).
  SourceGroups groups{};
  bool grouped() const { return groups.offsets != nullptr; }

  // The same run's edges [first, first + count), records or source groups (a packed run is cut
  // by pages).
  EdgeRun piece(uint64_t first, uint64_t edges) const {
    if (!grouped()) return part(data + first * edge_bytes(weighted), first, edges);
    EdgeRun p = part(nullptr, first, edges);
    p.groups = groups_of(groups.begin + first, groups.begin + first + edges);
    return p;
  }
  // A packed run's edges [first, first + count), decoded into `into` (whose begin and end span
  // those edges).
  EdgeRun decoded(const SourceGroups& into, uint64_t first, uint64_t edges) const {
    EdgeRun p = part(nullptr, first, edges);
    p.packed = false;
    p.packed_bytes = 0;
    p.groups = into;
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
  // This run's groups narrowed to the edges [begin, end): from the group holding begin
  // to the one holding end - 1.
  SourceGroups groups_of(uint64_t begin, uint64_t end) const {
    SourceGroups g = groups;
    const uint32_t* const offsets_end = groups.offsets + groups.groups + 1;
    const uint32_t* first = std::upper_bound(groups.offsets, offsets_end, begin) - 1;
    const uint32_t* last = end > begin ? std::lower_bound(first, offsets_end, end) : first;
    g.sources = groups.sources + (first - groups.offsets);
    g.firsts = groups.firsts + (first - groups.offsets);
    g.highest = groups.highest + (first - groups.offsets);
    g.offsets = first;
    g.groups = static_cast<uint64_t>(last - first);
    g.begin = begin;
    g.end = end;
    return g;
  }
};

}  // namespace graphso
