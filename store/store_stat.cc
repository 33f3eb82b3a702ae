#include "store/store_stat.h"

#include <algorithm>

#include "store/edge_log.h"
#include "store/pmem_file.h"
#include "store/store_mode.h"

namespace graphso::store {

StoreStat read_store_stat(const std::string& store_path) {
  StoreStat stat;
  // The same reads as a snapshot (out-lists and the log): what is damaged for one is for the
  // other. `store-check` reads everything, in both directions.
  const std::unique_ptr<StoreView> view = StoreView::open(store_path);
  stat.snapshot = scan_snapshot(*view, {[] {}, [](std::span<const WeightedEdge>) {}, {}});
  stat.mode_lines = view->stat_lines();
  // The records beside the graph, read now from the view's mapping.
  const PmemFile& file = view->file();
  stat.header = view->header();
  const StoreLayout layout(stat.header.geometry);
  stat.checkpoint = read_checkpoint(file, layout);
  stat.input = read_inputs(file, layout).current;
  stat.log_head = read_log_head(file, layout);
  stat.file_bytes = file.size();
  // A paged store's high-water mark counts pages, the others' 64-byte block units; unit or page 0 is unused.
  const uint64_t unit = store_mode(stat.header.mode).unit_bytes();
  stat.block_bytes_used = (view->high_water(stat.checkpoint) - 1) * unit;
  stat.block_bytes_capacity = stat.header.geometry.block_units * kBlockUnitBytes - unit;
  stat.bytes_used = layout.blocks + stat.block_bytes_used;
  if (stat.input)
    stat.input_acknowledged = std::min(stat.log_head - std::min(stat.log_head, stat.input->start), stat.input->edges);
  return stat;
}

}  // namespace graphso::store
