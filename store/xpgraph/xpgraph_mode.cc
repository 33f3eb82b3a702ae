// The chained-block modes' entries in the table of store modes (store/store_mode.h).
#include <algorithm>

#include "store/store_modes.h"
#include "store/vertex_buffers.h"
#include "store/xpgraph/block_format.h"
#include "store/xpgraph/chain_store.h"
#include "store/xpgraph/chain_view.h"

namespace graphso::store {

namespace {

// In 64-byte units: full 256-byte blocks for both directions, twice over (compaction writes the
// live ones again), plus at every checkpoint the log forces a partly filled block per vertex
// and direction (mostly 64 bytes; 2 units on average allowed) and the unused part of each
// thread's reservations.
void size_chains(StoreGeometry& g, uint64_t edges) {
  const uint64_t full = 2 * 4 * (2 * edges * entry_words(g) / kBlockEntries + 1);
  const uint64_t checkpoints = edges / std::max(g.log_slots, kMinLogSlots) + 2;
  g.block_units = std::min<uint64_t>(full + checkpoints * (2 * 2 * g.vertices + 64 * 3 * 256) + 4096, uint64_t{1} << 32);
}

constexpr ModeOption kXPGraphOptions[] = {kMaxBufferOption, kArchiveThresholdOption};

}  // namespace

const StoreModeEntry kXPGraphMode{
    .mode = StoreMode::XPGraph,
    .name = "xpgraph",
    .summary = "edges logged, buffered per vertex in DRAM and flushed as chained 256-byte blocks",
    .lists_called = "chains",
    .table_bytes = chain_table_bytes,
    .size = size_chains,
    .open_writer = open_chain_store,
    .open_view = make_chain_view,
    .options = kXPGraphOptions,
    .crash_points = {},
};

const StoreModeEntry kNaiveMode{
    .mode = StoreMode::Naive,
    .name = "naive",
    .summary = "GraphOne on PMEM, the baseline: every edge written into its block in place",
    .lists_called = "chains",
    .clean_close_only = true,
    .table_bytes = chain_table_bytes,
    .size = size_chains,
    .open_writer = open_chain_store,
    .open_view = make_chain_view,
    .options = {},
    .crash_points = {},
};

}  // namespace graphso::store
