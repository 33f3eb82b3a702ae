// ftgraph's entry in the table of store modes (store/store_mode.h).
#include "store/edge_log.h"
#include "store/ftgraph/ftgraph_store.h"
#include "store/ftgraph/tree_format.h"
#include "store/ftgraph/tree_view.h"
#include "store/store_modes.h"

namespace graphso::store {

namespace {

void size_trees(StoreGeometry& g, uint64_t edges) {
  g.log_slots = kMinLogSlots;  // it logs nothing: the head word counts operations applied
  g.block_units = ftgraph_units(g.vertices, edges, g.weighted);
}

// No batch under way, no node allocated (unit 0 is unused), no trees.
uint32_t initial_tree_words(const PmemFile& file, const StoreLayout& layout) {
  *file.at<uint64_t>(applying_word(layout)) = encode_log_head(0);
  *file.at<uint64_t>(allocated_word(layout)) = encode_log_head(1);
  *file.at<uint64_t>(tree_count_word(layout, AdjacencyList::Out)) = encode_log_head(0);
  *file.at<uint64_t>(tree_count_word(layout, AdjacencyList::In)) = encode_log_head(0);
  return 4;
}

constexpr const char* kTreeCrashPoints[] = {kTreeEntriesPoint, kTreeBitmapsPoint, kTreeBitmapsTornPoint};
constexpr ModeOption kFtgraphOptions[] = {kApplyBatchOption};

}  // namespace

const StoreModeEntry kFtgraphMode{
    .mode = StoreMode::Ftgraph,
    .name = "ftgraph",
    .summary = "a suffix-bit tree per vertex changed in place, no log; set semantics: duplicates are not stored",
    .logs = false,
    .lists_called = "trees",
    .units_called = "nodes",
    .checked_too = ", every node and slot checked",
    .set_semantics = true,
    .table_copies = 1,
    .table_bytes = tree_table_bytes,
    .size = size_trees,
    .initial_head_words = initial_tree_words,
    .open_writer = open_ftgraph_store,
    .open_view = make_tree_view,
    .options = kFtgraphOptions,
    .crash_points = kTreeCrashPoints,
};

}  // namespace graphso::store
