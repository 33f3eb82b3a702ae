// dgap's on-PMEM records (docs/store.md, "The dgap mode").
#pragma once

#include <cstdint>

#include "store/store_format.h"

namespace graphso::store {

// dgap mode: the block region is cut into 4 KiB pages (store_format.h), each one section of the
// sorted edge array, stored as one packed page (base/packed_pages.h). A table copy is the section
// table: a header, then one entry per section in key order.
struct SectionTableHeader {
  uint64_t sections;
  uint32_t merges;  // since the store was created (saturating): sections rewritten with their logs
  uint32_t splits;  // of which sections split off
};
struct SectionEntry {
  uint64_t key;   // (source << 32 | destination): the section holds edges from its key up to the next section's
  uint32_t page;  // 0: the section is empty
  uint32_t crc;   // CRC-32C of the page's 4096 bytes
};
static_assert(sizeof(SectionEntry) == 16 && sizeof(SectionTableHeader) == 16);
// A section per page at most, and the header's place.
inline constexpr uint64_t section_table_bytes(const StoreGeometry& g) { return (region_pages(g) + 1) * sizeof(SectionEntry); }

}  // namespace graphso::store
