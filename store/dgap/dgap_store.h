// The dgap store mode (DGAP on PMEM, docs/store.md "dgap"): one sorted edge array, cut into
// 4 KiB sections (store/dgap/sections.h), that the engines can read in place. Every batch is
// logged and acknowledged as in every mode; its operations go to their sections' logs (DRAM lists
// over the durable edge log, DGAP's per-section logs) and a section is merged, rewritten to a free
// page, when its log holds --section-log operations (kSectionLogOption); a section that outgrows its page
// splits, the new ones filled to 3/4 so that later merges fit. A checkpoint merges every section
// log, persists the pages, then the section table copy, then the slot that commits them: what a
// crash leaves is the checkpoint's table and the log after it, replayed exactly once.
#pragma once

#include <memory>

#include "store/store_mode.h"
#include "store/store_writer.h"

namespace graphso::store {

// Pages a dgap store of `edges` edges is given: its sections at their fullest, twice over (a
// merged section's new page and the old one the checkpoint still names), and some to spare.
uint64_t dgap_pages(uint64_t edges, bool weighted);

// Logged operations on a section that start its merge.
inline constexpr ModeOption kSectionLogOption{
    "section-log", "logged operations on a section that start its merge (DGAP's per-section log)", 2048, 1,
    uint64_t{1} << 20};

// While a reader holds the checkpoint in force, a checkpoint comes once the operations logged
// since it reach this share of the edges in the pages (a run lays out that tail at every open);
// 0: only when the section logs fill --buffer-mem.
inline constexpr ModeOption kReaderTailOption{
    "reader-tail", "percent of the store's edges logged since the checkpoint that starts one while a reader "
    "holds it (each run lays that tail out at open; 0: off)", 50, 0, 1000};

extern const StoreModeEntry kDgapMode;  // store/store_mode.h

// Opens (and recovers) a dgap store; the caller holds its writer lock.
std::unique_ptr<StoreWriter> open_dgap_store(WriterLock lock, PmemFile file, const StoreHeader& header,
                                             const StoreOptions& options);

}  // namespace graphso::store
