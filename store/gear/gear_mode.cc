// gear's entry in the table of store modes (store/store_mode.h).
#include "store/gear/gear_format.h"
#include "store/gear/gear_store.h"
#include "store/gear/list_view.h"
#include "store/store_modes.h"
#include "store/vertex_buffers.h"

namespace graphso::store {

namespace {

void size_lists(StoreGeometry& g, uint64_t edges) {
  g.block_units = gear_pages(g.vertices, edges, g.weighted) * kUnitsPerPage;
}

constexpr const char* kGearCrashPoints[] = {kRelocationPoint};
constexpr ModeOption kGearOptions[] = {kMaxBufferOption, kArchiveThresholdOption, kWearLevellingOption};

}  // namespace

const StoreModeEntry kGearMode{
    .mode = StoreMode::Gear,
    .name = "gear",
    .summary = "each vertex's neighbours together in one subpage",
    .paged = true,
    .lists_called = "lists",
    .units_called = "lists",
    .table_bytes = gear_table_bytes,
    .size = size_lists,
    .open_writer = open_gear_store,
    .open_view = make_list_view,
    .options = kGearOptions,
    .crash_points = kGearCrashPoints,
};

}  // namespace graphso::store
