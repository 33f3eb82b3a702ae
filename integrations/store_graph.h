// `graphso run STORE`: a store's graph at one version, for either engine and every sharing
// mode, with no snapshot (docs/store.md, "Jobs on the live store").
//
// The store's view (store/store_view.h) fixes the version: the acknowledged position when the run
// opens it. Its edges become packed pages, sorted by source, laid out as the engine's static
// partitions:
//   a mode that keeps sorted packed pages (StoreView::pages_in_place: dgap's sections): a page
//            with no operation logged after the checkpoint is read in place with O_DIRECT and
//            checked against the CRC-32C the mode's table holds for it; a page with logged
//            operations is rewritten, merged, into a scratch file of the run's own. A checkpoint
//            leaves none, so a fresh store is read whole in place.
//   the others  every edge is read through the view and written to the scratch file (chains,
//            lists and trees are no sorted array to read in place: they run, only slower).
// A run of pages that follow each other in one file is one static partition, so the chunk
// middleware's chunks are the store's sections (or runs of them). Each page is outlined as it is
// decoded or written here (EngineLayout::page_outlines), and the TChunk table is cut from the
// outlines: before its rounds a run reads each page once, not twice. The view's lease keeps every
// page it names unwritten while the run lasts, whatever a writer ingests meanwhile.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "engine/engine_layout.h"
#include "engine/gridgraph/grid_graph.h"
#include "integrations/batch_runner.h"
#include "integrations/result_check.h"
#include "io/chunk_reader.h"
#include "io/scratch_directory.h"
#include "store/store_view.h"

namespace graphso {

class StoreGraph {
 public:
  // Opens `path` at its current version; the scratch file goes under scratch_parent (empty: the
  // system's temporary directory). Registers the files' page checksums with `readers`. threads:
  // for laying out the chain and tree modes' edges (0: every core).
  static std::unique_ptr<StoreGraph> open(const std::string& path, const std::string& scratch_parent,
                                          ReaderFactory& readers, int threads = 0);
  // Whether `path` is a store file (rather than a prepared graph directory).
  static bool is_store(const std::string& path);

  const GridGraph& graph() const { return *graph_; }
  const EngineLayout& layout() const { return layout_; }
  const StoreRunInfo& info() const { return info_; }
  // Every edge at the run's version, in memory (`run --verify`).
  ReferenceGraph reference() const;
  // Whether the store's path now names another file than the one this graph reads (a writer
  // rebuilt it): the run's version is still whole, read from the old file.
  bool replaced() const;

 private:
  StoreGraph() = default;

  std::unique_ptr<store::StoreView> view_;
  std::optional<ScratchDirectory> scratch_;
  std::optional<GridGraph> graph_;
  EngineLayout layout_;
  StoreRunInfo info_;
};

}  // namespace graphso
