// Checks for the evolving-graph store: the adjacency an operation sequence should leave (an
// independent in-memory model), and the comparison of a store's neighbour queries against it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/types.h"
#include "store/graph_store.h"

namespace graphso::testing {

struct EdgeOp {
  VertexId src;
  VertexId dst;
  bool deleted = false;
  Weight weight = 1;  // of an added edge
};

// Per vertex, the sorted out- and in-neighbour multisets after ops in order (a deletion removes
// the earliest live occurrence, whatever its weight, or nothing), and the same with weights.
// `sets` (ftgraph's semantics): an edge is present once; adding a present edge changes nothing
// (its weight stays), deleting it removes it.
struct AdjacencyModel {
  std::vector<std::vector<VertexId>> out, in;
  std::vector<std::vector<std::pair<VertexId, Weight>>> out_edges, in_edges;
  uint64_t edges = 0;
};
AdjacencyModel adjacency_of(std::span<const EdgeOp> ops, uint64_t vertices, bool sets = false);
std::vector<EdgeOp> adds_of(std::span<const Edge> edges);
std::vector<EdgeOp> adds_of(std::span<const WeightedEdge> edges);

// REQUIREs out_neighbours/in_neighbours and out_edges/in_edges of every vertex to equal the
// model (degree, multiset, weights).
void require_store_equals(const store::GraphStore& store, const AdjacencyModel& expected);

// Opens the store file (recovering as after a crash; an ftgraph store's interrupted batch is
// replayed from the input, as a resumed ingest does), and REQUIREs it to hold exactly the first
// K input edges (as a set in ftgraph mode), K = what the store says it acknowledged of the input (0 when it records no input
// yet: killed right after creating it), with K >= at_least; every
// chain is walked and checked by a snapshot scan too. Returns K.
// Input weights are checked too (all 1 for unweighted input or an unweighted store).
// `interrupted`, when given, counts the stores found with a batch partly applied.
uint64_t require_store_holds_prefix(const std::string& store_path, std::span<const WeightedEdge> input,
                                    uint64_t at_least, uint32_t threads = 1, uint64_t* interrupted = nullptr);

}  // namespace graphso::testing
