// `graphso run STORE`: a store's graph at one version, or at several in one layout, for either
// engine and every sharing mode, with no snapshot (docs/store.md, "Jobs on the live store").
//
// The store's view (store/store_view.h) fixes the version: the acknowledged position when the run
// opens it. Jobs may pin older versions the log still holds (`version=N`); each version is a graph
// of the layout (Job::view, EngineLayout::partition_views). The edges become packed pages, sorted
// by source, laid out as the engine's static partitions:
//   a mode that keeps sorted packed pages (StoreView::pages_in_place: dgap's sections): a page
//            is read in place with O_DIRECT and checked against the CRC-32C the mode's table
//            holds for it, for every version before its first deletion logged after the
//            checkpoint; for the later ones it is rewritten, merged, into a scratch file of the
//            run's own. The logged insertions into the pages read in place are laid out once in
//            the scratch file, in key order, after every page, for the versions that see them:
//            partitions of their own whose sources run again from the first, so a source's
//            edges may lie in several partitions (jobs tell a whole source from its out-degree,
//            as for a source cut by a page's end). Versions that differ by insertions share every
//            page. A checkpoint leaves no log, so a fresh store is read whole in place.
//   the others  every edge is read through a view at each version and written to the scratch
//            file (chains, lists and trees are no sorted array to read in place: they run, only
//            slower).
// A run of pages that follow each other in one file (of one layer: EngineLayout::partition_layer,
// and one set of versions) is one static partition, so the chunk middleware's chunks are the
// store's sections (or runs of them). Each page is outlined as it is decoded or written here
// (EngineLayout::page_outlines), and the TChunk table is cut from the outlines: before its rounds
// a run reads each page once, not twice. The view's lease keeps every page it names unwritten
// while the run lasts, whatever a writer ingests meanwhile.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/engine_layout.h"
#include "engine/gridgraph/grid_graph.h"
#include "integrations/batch_runner.h"
#include "integrations/result_check.h"
#include "io/chunk_reader.h"
#include "io/scratch_directory.h"
#include "jobs/job_spec.h"
#include "store/store_view.h"

namespace graphso {

class StoreGraph {
 public:
  // One run takes at most this many versions (a bit each in EngineLayout::partition_views; each
  // has its out-degrees in memory).
  static constexpr uint32_t kMostVersions = 16;
  // Opens `path` at the versions `pinned` and, when `current` (or nothing is pinned), at its
  // current version: one layout for all of them (see above). The scratch file goes under
  // scratch_parent (empty: the system's temporary directory). Registers the files' page checksums
  // with `readers`. threads: for laying out the chain and tree modes' edges (0: every core).
  static std::unique_ptr<StoreGraph> open(const std::string& path, const std::string& scratch_parent,
                                          ReaderFactory& readers, int threads = 0, std::vector<uint64_t> pinned = {},
                                          bool current = true);
  // Whether `path` is a store file (rather than a prepared graph directory).
  static bool is_store(const std::string& path);

  const GridGraph& graph() const { return *graph_; }
  const EngineLayout& layout() const { return layout_; }
  const StoreRunInfo& info() const { return info_; }
  // The run's versions, in increasing order: graph k of the layout (Job::view) is versions()[k].
  const std::vector<uint64_t>& versions() const { return versions_; }
  uint32_t view_of(uint64_t version) const;
  // The batch's graphs (BatchConfig::views) and each job's among them: its pinned version, else
  // the run's.
  void give_versions(std::span<const JobSpec> specs, BatchConfig& config) const;
  // Graph k's out-degrees and edges (graph().out_degrees(): every page's, the union's).
  const std::vector<uint32_t>& out_degrees(uint32_t view) const;
  uint64_t edges(uint32_t view) const { return version_edges_.at(view); }
  // Every edge of graph k, in memory (`run --verify`), read through the store's view at its
  // version rather than through the layout.
  ReferenceGraph reference(uint32_t view = 0) const;
  // Whether the store's path now names another file than the one this graph reads (a writer
  // rebuilt it): the run's version is still whole, read from the old file.
  bool replaced() const;

 private:
  StoreGraph() = default;

  std::unique_ptr<store::StoreView> view_;
  std::optional<ScratchDirectory> scratch_;
  std::optional<GridGraph> graph_;
  EngineLayout layout_;
  std::vector<uint64_t> versions_;
  std::vector<std::vector<uint32_t>> version_degrees_;  // per version, over several
  std::vector<uint64_t> version_edges_;
  std::vector<std::unique_ptr<std::vector<uint32_t>>> layer_degrees_;  // EngineLayout::layer_degrees
  StoreRunInfo info_;
};

}  // namespace graphso
