#include "tests/store_checks.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "store/snapshot.h"

namespace graphso::testing {

Adjacency adjacency_of(std::span<const EdgeOp> ops, uint64_t vertices) {
  std::vector<std::map<VertexId, uint64_t>> out(vertices), in(vertices);
  for (const EdgeOp& op : ops) {
    if (!op.deleted) {
      ++out[op.src][op.dst];
      ++in[op.dst][op.src];
    } else if (auto it = out[op.src].find(op.dst); it != out[op.src].end() && it->second > 0) {
      --it->second;
      --in[op.dst][op.src];
    }
  }
  Adjacency a;
  a.out.resize(vertices);
  a.in.resize(vertices);
  for (uint64_t v = 0; v < vertices; ++v) {
    for (const auto& [n, k] : out[v]) a.out[v].insert(a.out[v].end(), k, n);
    for (const auto& [n, k] : in[v]) a.in[v].insert(a.in[v].end(), k, n);
    a.edges += a.out[v].size();
  }
  return a;
}

std::vector<EdgeOp> adds_of(std::span<const Edge> edges) {
  std::vector<EdgeOp> ops;
  for (const Edge& e : edges) ops.push_back({e.src, e.dst, false});
  return ops;
}

void require_store_equals(const store::GraphStore& store, const Adjacency& expected) {
  const uint64_t vertices = store.header().geometry.vertices;
  REQUIRE(vertices == expected.out.size());
  uint64_t mismatches = 0;
  VertexId first_bad = kNoVertex;
  for (uint64_t v = 0; v < vertices; ++v) {
    bool same = store.out_neighbours(static_cast<VertexId>(v)) == expected.out[v] &&
                store.in_neighbours(static_cast<VertexId>(v)) == expected.in[v];
    if (!same && mismatches++ == 0) first_bad = static_cast<VertexId>(v);
  }
  INFO("first vertex whose neighbours differ: " << first_bad);
  REQUIRE(mismatches == 0);
}

uint64_t require_store_holds_prefix(const std::string& store_path, std::span<const Edge> input, uint64_t at_least,
                                    uint32_t threads) {
  auto s = store::GraphStore::open(store_path, {.threads = threads});
  // Killed between creating the store and recording the input: nothing may be logged yet.
  std::optional<store::InputProgress> progress = s->input();
  const uint64_t start = progress ? progress->start : 0;
  const uint64_t k = s->status().head - start;
  if (!progress) REQUIRE(k == 0);
  INFO("store " << store_path << ": " << k << " edges acknowledged, at least " << at_least << " expected");
  REQUIRE(k >= at_least);
  REQUIRE(k <= input.size());
  std::vector<EdgeOp> ops = adds_of(input.first(k));
  Adjacency expected = adjacency_of(ops, s->header().geometry.vertices);
  require_store_equals(*s, expected);
  s.reset();
  // A second reader sees the same graph and walks every chain in both directions.
  store::SnapshotInfo info = store::scan_snapshot(store_path, {[] {}, [](std::span<const Edge>) {}, true});
  REQUIRE(info.edges == expected.edges);
  REQUIRE(info.position == k + start);
  return k;
}

}  // namespace graphso::testing
