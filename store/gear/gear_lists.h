// A gear store's table copy and lists as readers find them (docs/store.md, "gear"): the checks
// that the writer's recovery and every store view make before they trust a word.
#pragma once

#include <cstdint>
#include <span>

#include "base/types.h"
#include "store/pmem_file.h"
#include "store/gear/gear_format.h"
#include "store/store_meta.h"

namespace graphso::store {

// The checkpoint's table copy in the mapping, checked against its checksum; all empty for seq 0
// (no checkpoint: every list is empty).
struct GearTable {
  GearTableHeader header{};
  std::span<const GearList> lists;  // out-lists then in-lists, V each
  std::span<const GearPage> pages;  // one per page of the block region
};
GearTable checked_gear_table(const PmemFile& file, const StoreLayout& layout, const Checkpoint& c);

inline uint64_t list_index(uint64_t vertices, AdjacencyList d, VertexId v) {
  return (d == AdjacencyList::Out ? 0 : vertices) + v;
}

// The level of list (d, v)'s subpage as the page table records it, after checking that the list
// fits one: a non-empty list has a subpage and an empty one none, inside the pages in use, on a
// page (or run) of one level, at a subpage's start, holding whole entries that fit it. Else an
// error naming the list and what is wrong.
uint32_t checked_list_level(const PmemFile& file, const StoreLayout& layout, std::span<const GearPage> pages,
                            uint64_t high_water, AdjacencyList d, VertexId v, const GearList& list);
// Its words in the mapping, checked against its checksum.
std::span<const uint32_t> checked_list_words(const PmemFile& file, const StoreLayout& layout, AdjacencyList d,
                                             VertexId v, const GearList& list);

}  // namespace graphso::store
