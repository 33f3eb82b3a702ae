// ftgraph's store view (store/store_view.h). The trees change in place under a live writer, so the
// view reads its version whole when it opens: it fixes S (the head), walks every out-tree (each
// node read whole, retried while a writer changes it), then sets every edge that an operation at
// S or after touched back to what it was before the first of them, as the writer published it
// (store/ftgraph/op_ring.h). The out-edges are then kept in DRAM (12 bytes per edge); the in-edges
// are read the same way when asked for.
#pragma once

#include <memory>

#include "store/store_view.h"

namespace graphso::store {

std::unique_ptr<StoreView> make_tree_view(ReaderLease lease, PmemFile file, const StoreHeader& header);

}  // namespace graphso::store
