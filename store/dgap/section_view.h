// dgap's store view (store/store_view.h): the checkpoint's section table, each section's page
// read in place, and the log records after the checkpoint applied to the sections they fall in.
#pragma once

#include <memory>

#include "store/store_view.h"

namespace graphso::store {

std::unique_ptr<StoreView> make_section_view(ReaderLease lease, PmemFile file, const StoreHeader& header);

}  // namespace graphso::store
