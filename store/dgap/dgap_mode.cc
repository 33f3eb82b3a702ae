// dgap's entry in the table of store modes (store/store_mode.h).
#include "store/dgap/dgap_store.h"
#include "store/dgap/section_format.h"
#include "store/dgap/section_view.h"
#include "store/store_modes.h"

namespace graphso::store {

namespace {

void size_sections(StoreGeometry& g, uint64_t edges) { g.block_units = dgap_pages(edges, g.weighted) * kUnitsPerPage; }

constexpr ModeOption kDgapOptions[] = {kSectionLogOption, kReaderTailOption};

}  // namespace

const StoreModeEntry kDgapMode{
    .mode = StoreMode::Dgap,
    .name = "dgap",
    .summary = "a sorted edge array in 4 KiB sections the engines read in place",
    .paged = true,
    .in_lists = false,
    .lists_called = "sections",
    .units_called = "pages",
    .checked_too = ", every page and key range checked",
    .table_bytes = section_table_bytes,
    .size = size_sections,
    .open_writer = open_dgap_store,
    .open_view = make_section_view,
    .options = kDgapOptions,
    .crash_points = {},
};

}  // namespace graphso::store
