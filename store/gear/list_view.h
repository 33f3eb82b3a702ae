// gear's store view (store/store_view.h): each vertex's list read in one place, from the
// checkpoint's list table, then the log records after the checkpoint that name it.
#pragma once

#include <memory>

#include "store/store_view.h"

namespace graphso::store {

std::unique_ptr<StoreView> make_list_view(ReaderLease lease, PmemFile file, const StoreHeader& header);

}  // namespace graphso::store
