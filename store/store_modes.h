// The store modes (docs/store.md): their numbers in the superblock. What each is, and everything
// the shared code asks of one, is its entry (store/store_mode.h) in the table of
// store/store_modes.cc.
#pragma once

#include <cstdint>

#include "store/store_mode.h"

namespace graphso::store {

enum class StoreMode : uint32_t {
  XPGraph = 0,  // store/xpgraph: edges logged, buffered per vertex in DRAM, flushed as chained blocks
  Naive = 1,    // store/xpgraph: GraphOne on PMEM, every edge written into its block in place (the baseline)
  Dgap = 2,     // store/dgap: one sorted edge array in 4 KiB sections, read in place
  Gear = 3,     // store/gear: each vertex's list in one subpage
  Ftgraph = 4,  // store/ftgraph: a suffix-bit tree per vertex, changed in place, no log
};
// What `ingest` creates when no mode is named.
inline constexpr StoreMode kDefaultStoreMode = StoreMode::XPGraph;

}  // namespace graphso::store
