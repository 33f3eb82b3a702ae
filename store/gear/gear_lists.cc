#include "store/gear/gear_lists.h"

#include "base/checksum.h"
#include "base/error.h"

namespace graphso::store {

namespace {

const char* direction_name(AdjacencyList d) { return d == AdjacencyList::Out ? "out" : "in"; }

}  // namespace

GearTable checked_gear_table(const PmemFile& file, const StoreLayout& layout, const Checkpoint& c) {
  GearTable t;
  if (c.seq == 0) return t;
  if (table_copy_crc(file, layout, c.slot) != c.table_crc)
    fail("{}: corrupt store: {}the list and page table copy {} of checkpoint {} does not match its checksum",
         file.path(), damage_note(c), c.slot, c.seq);
  const uint64_t base = layout.tables[c.slot];
  const uint64_t vertices = layout.geometry.vertices;
  t.header = *file.at<const GearTableHeader>(base);
  t.lists = {file.at<const GearList>(base + sizeof(GearTableHeader)), 2 * vertices};
  t.pages = {file.at<const GearPage>(base + gear_page_offset(vertices)), region_pages(layout.geometry)};
  return t;
}

uint32_t checked_list_level(const PmemFile& file, const StoreLayout& layout, std::span<const GearPage> pages,
                            uint64_t high_water, AdjacencyList d, VertexId v, const GearList& list) {
  auto bad = [&](const std::string& what) {
    fail("{}: corrupt store: the {}-list of vertex {} {}", file.path(), direction_name(d), v, what);
  };
  if (list.unit == 0) {
    if (list.words != 0 || list.crc != 0) bad(fmt::format("has {} words but no subpage", list.words));
    return 0;
  }
  if (list.words == 0) bad(fmt::format("is empty but names unit {}", list.unit));
  const uint64_t page = list.unit / kUnitsPerPage;
  if (page >= high_water || page >= pages.size())
    bad(fmt::format("names unit {}, outside the {} pages in use", list.unit, high_water));
  const uint32_t level = pages[page].level;
  if (level > kGearMaxLevel) bad(fmt::format("names unit {} in page {}, which the page table has as not in use", list.unit, page));
  const uint64_t subpage_units = std::min<uint64_t>(gear_level_bytes(level) / kBlockUnitBytes, kUnitsPerPage);
  if (list.unit % subpage_units != 0) bad(fmt::format("names unit {}, not the start of a level-{} subpage", list.unit, level));
  const uint64_t run = gear_run_pages(level);
  if (page + run > high_water) bad(fmt::format("names a run of {} pages at page {}, past the {} in use", run, page, high_water));
  for (uint64_t p = page + 1; p < page + run; ++p)
    if (pages[p].level != kGearPageInRun) bad(fmt::format("names a run at page {} whose page {} is not in it", page, p));
  if (uint64_t{list.words} * sizeof(uint32_t) > gear_level_bytes(level) || list.words % entry_words(layout.geometry) != 0)
    bad(fmt::format("holds {} words, which do not fit its level-{} subpage in whole entries", list.words, level));
  return level;
}

std::span<const uint32_t> checked_list_words(const PmemFile& file, const StoreLayout& layout, AdjacencyList d,
                                             VertexId v, const GearList& list) {
  if (list.words == 0) return {};
  const std::span<const uint32_t> words(file.at<const uint32_t>(layout.block_offset(list.unit)), list.words);
  if (crc32c_of(std::as_bytes(words)) != list.crc)
    fail("{}: corrupt store: the {}-list of vertex {} (unit {}, {} words) fails its checksum", file.path(),
         direction_name(d), v, list.unit, list.words);
  return words;
}

}  // namespace graphso::store
