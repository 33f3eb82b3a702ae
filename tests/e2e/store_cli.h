// What the store's CLI tests share (test_store_cli.cc, test_store_stream.cc): an input on disk,
// store-stat's keys, the acknowledgement log, and what a store of a mode holds after its edges.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/types.h"
#include "tests/test_graphs.h"

namespace graphso::testing {

struct Input {
  TempDir dir;
  EdgeSet set;
  std::vector<Edge> edges;
  std::string path;  // the edge list file
};

// An R-MAT graph written as a graphso edge list.
std::unique_ptr<Input> rmat_input(uint32_t scale, uint32_t edge_factor, uint64_t seed, bool weighted = false);

// `graphso store-stat STORE`'s lines as keys and values; REQUIREs that it succeeds.
std::map<std::string, std::string> store_stat(const std::string& store);

// The largest acknowledged count in the ack log (complete lines only).
uint64_t last_ack(const std::string& path);

// What a store of `mode` holds after `edges`: all of them, or (ftgraph, set semantics) the first
// occurrence of each.
std::vector<WeightedEdge> stored_edges(std::span<const WeightedEdge> edges, const std::string& mode);

}  // namespace graphso::testing
