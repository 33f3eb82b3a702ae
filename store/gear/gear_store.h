// The gear store mode (GEAR on PMEM, docs/store.md "gear"): XPGraph's ingest path (the edge log
// that acknowledges every batch, DRAM vertex buffers) with GEAR's placement instead of chained
// blocks. Each vertex's out-list and in-list is one subpage of the smallest level that holds it
// (store/gear/page_allocator.h); a full buffer, and every buffer at a checkpoint, is appended to
// the list in place when its subpage's reserved space has room, and otherwise the whole list moves
// once to a subpage of a larger level (relocation). A checkpoint persists the lines written since
// the last one, then the list and page table copy, then the slot that commits them; nothing a
// checkpoint names is overwritten (appends go after its words, relocations to free subpages), so
// a crash leaves the checkpoint's lists and the log after it, replayed exactly once.
#pragma once

#include <memory>

#include "store/store_mode.h"
#include "store/store_writer.h"

namespace graphso::store {

// Pages a gear store of `vertices` and `edges` is given: every list in a subpage at most twice
// its size, twice over (a relocated list's new subpage and the old one the checkpoint still
// names), a subpage per list at the least, and some to spare.
uint64_t gear_pages(uint64_t vertices, uint64_t edges, bool weighted);

// New subpages on the least written pages (GEAR's dual-granularity leveller), or first fit.
inline constexpr ModeOption kWearLevellingOption{
    "wear-levelling", "on (new subpages on the least written pages, GEAR's dual-granularity leveller) or off (first fit)",
    1, 0, 1, ModeOption::Kind::OnOff};

// A power-cut point of its own: a list copied to its new subpage, the old one still named.
inline constexpr const char* kRelocationPoint = "relocation";

extern const StoreModeEntry kGearMode;  // store/store_mode.h

// Opens (and recovers) a gear store; the caller holds its writer lock.
std::unique_ptr<StoreWriter> open_gear_store(WriterLock lock, PmemFile file, const StoreHeader& header,
                                             const StoreOptions& options);

}  // namespace graphso::store
