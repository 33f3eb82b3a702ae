// The chained-block modes' store view (store/store_view.h): each vertex's chain from the
// checkpoint's table of heads, then the log records after the checkpoint that name it.
#pragma once

#include <memory>

#include "store/store_view.h"

namespace graphso::store {

std::unique_ptr<StoreView> make_chain_view(ReaderLease lease, PmemFile file, const StoreHeader& header);

}  // namespace graphso::store
