// The chained-block store modes (docs/store.md): XPGraph (edges logged, buffered per vertex in
// DRAM, flushed to PMEM as whole 256-byte blocks chained newest first, recoverable by
// checkpoints) and the naive baseline (GraphOne on PMEM: every edge written into its PMEM
// adjacency block in place and persisted with its batch).
#pragma once

#include <memory>

#include "store/store_mode.h"
#include "store/store_writer.h"

namespace graphso::store {

extern const StoreModeEntry kXPGraphMode, kNaiveMode;  // store/store_mode.h

// Opens (and recovers) a store of either mode; the caller holds its writer lock.
std::unique_ptr<StoreWriter> open_chain_store(WriterLock lock, PmemFile file, const StoreHeader& header,
                                              const StoreOptions& options);

}  // namespace graphso::store
