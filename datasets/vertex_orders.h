// Computing a locality-aware vertex order from an edge list, for `prep --order`:
//
//   natural  ids as given
//   degree   by total degree (in + out), highest first, ties by id: hubs share few chunks
//   bfs      Cuthill-McKee over the undirected graph: breadth-first from a root, neighbours
//            taken by increasing degree, so a BFS level is a run of ids and a vertex's
//            neighbours sit near it (meshes, roads). The root's component starts from `root`
//            when given (where traversals start: a depot, a landmark; a wave from there then
//            activates one run of ids per round); every other component from a
//            pseudo-peripheral vertex (George-Liu). Isolated vertices last.
//
// Both non-natural orders hold per-vertex arrays in memory; bfs also holds the undirected
// adjacency (8 bytes per edge), which is the price of its locality. The cost is reported.
#pragma once

#include <cstdint>

#include "datasets/edge_list.h"
#include "base/progress.h"
#include "base/vertex_order.h"

namespace graphso {

struct OrderCost {
  double seconds = 0;
  uint64_t memory_bytes = 0;  // the largest the computation's arrays took at once
};

// root: an original id for bfs, or kNoVertex for a pseudo-peripheral start.
// step: where the bfs order reports its progress.
VertexOrder compute_vertex_order(OrderKind kind, EdgeListReader& reader, VertexId root = kNoVertex,
                                 OrderCost* cost = nullptr, ProgressStep step = {});

}  // namespace graphso
