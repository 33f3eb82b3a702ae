// gear's on-PMEM records (docs/store.md, "The gear mode").
#pragma once

#include <cstdint>

#include "store/store_format.h"

namespace graphso::store {

// gear mode: the block region is cut into 4 KiB pages (page 0 unused). A page in use
// holds subpages of one level: level L is 64 << L bytes, so levels 0-6 cut a page into 64 to 1
// equal subpages, and a level L > 6 list takes a run of 2^(L-6) pages. Each vertex's out-list and
// in-list is one subpage (or run): its entries from the start, the rest reserved for what comes.
// A table copy is a header, a GearList per vertex and direction (out-lists then in-lists), then a
// GearPage per page of the region.
inline constexpr uint32_t kGearPageLevel = 6;    // a whole page; above it, runs of pages
inline constexpr uint32_t kGearMaxLevel = 26;    // a run of 2^20 pages (4 GiB)
inline constexpr uint8_t kGearPageFree = 0xFF;   // GearPage::level of a page not in use
inline constexpr uint8_t kGearPageInRun = 0xFE;  // of a run's pages after its first
inline constexpr uint64_t gear_level_bytes(uint32_t level) { return uint64_t{64} << level; }
inline constexpr uint32_t gear_subpages(uint32_t level) { return level >= kGearPageLevel ? 1 : 64u >> level; }
inline constexpr uint64_t gear_run_pages(uint32_t level) { return level <= kGearPageLevel ? 1 : uint64_t{1} << (level - kGearPageLevel); }
struct GearTableHeader {
  uint64_t relocations;      // since the store was created: lists moved to a larger subpage
  uint64_t relocated_bytes;  // the entries those moves copied again
  uint64_t wear_moves;       // lists moved off a worn page by the wear leveller
  uint64_t wear_moved_bytes;
};
struct GearList {
  uint32_t unit;   // 64-byte unit of its subpage's start; 0: the list is empty
  uint32_t words;  // entry words it holds (the rest of the subpage is reserved)
  uint32_t crc;    // CRC-32C of those words
};
struct GearPage {
  uint64_t written;  // wear levelling inside the page: subpage s was written this round
  uint32_t writes;   // subpage writes into the page since the store was created
  uint8_t level;     // of its subpages; kGearPageFree, or kGearPageInRun
  uint8_t reserved[3];
};
static_assert(sizeof(GearTableHeader) == 32 && sizeof(GearList) == 12 && sizeof(GearPage) == 16);
// The page table's offset in a table copy (the lists start right after the header).
inline constexpr uint64_t gear_page_offset(uint64_t vertices) {
  return (sizeof(GearTableHeader) + 2 * vertices * sizeof(GearList) + 15) / 16 * 16;
}
// A table copy: the header, the lists, the page table.
inline constexpr uint64_t gear_table_bytes(const StoreGeometry& g) {
  return gear_page_offset(g.vertices) + region_pages(g) * sizeof(GearPage);
}

}  // namespace graphso::store
