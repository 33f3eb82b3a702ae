#include "tests/store_checks.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <map>

#include "store/snapshot.h"
#include "store/store_check.h"

namespace graphso::testing {

AdjacencyModel adjacency_of(std::span<const EdgeOp> ops, uint64_t vertices, bool sets) {
  // Per vertex and neighbour, the live occurrences' weights, oldest first.
  std::vector<std::map<VertexId, std::deque<Weight>>> out(vertices), in(vertices);
  for (const EdgeOp& op : ops) {
    if (!op.deleted) {
      if (sets && !out[op.src][op.dst].empty()) continue;
      out[op.src][op.dst].push_back(op.weight);
      in[op.dst][op.src].push_back(op.weight);
    } else if (auto it = out[op.src].find(op.dst); it != out[op.src].end() && !it->second.empty()) {
      it->second.pop_front();
      in[op.dst][op.src].pop_front();
    }
  }
  AdjacencyModel a;
  a.out.resize(vertices);
  a.in.resize(vertices);
  a.out_edges.resize(vertices);
  a.in_edges.resize(vertices);
  auto lists = [](const std::map<VertexId, std::deque<Weight>>& from, std::vector<VertexId>& ids,
                  std::vector<std::pair<VertexId, Weight>>& edges) {
    for (const auto& [n, weights] : from)
      for (Weight w : weights) {
        ids.push_back(n);
        edges.emplace_back(n, w);
      }
    std::sort(edges.begin(), edges.end());
  };
  for (uint64_t v = 0; v < vertices; ++v) {
    lists(out[v], a.out[v], a.out_edges[v]);
    lists(in[v], a.in[v], a.in_edges[v]);
    a.edges += a.out[v].size();
  }
  return a;
}

std::vector<EdgeOp> adds_of(std::span<const Edge> edges) {
  std::vector<EdgeOp> ops;
  for (const Edge& e : edges) ops.push_back({e.src, e.dst, false});
  return ops;
}

std::vector<EdgeOp> adds_of(std::span<const WeightedEdge> edges) {
  std::vector<EdgeOp> ops;
  for (const WeightedEdge& e : edges) ops.push_back({e.src, e.dst, false, e.weight});
  return ops;
}

void require_store_equals(const store::GraphStore& store, const AdjacencyModel& expected) {
  const uint64_t vertices = store.header().geometry.vertices;
  REQUIRE(vertices == expected.out.size());
  uint64_t mismatches = 0;
  VertexId first_bad = kNoVertex;
  for (uint64_t v = 0; v < vertices; ++v) {
    bool same = store.out_neighbours(static_cast<VertexId>(v)) == expected.out[v] &&
                store.in_neighbours(static_cast<VertexId>(v)) == expected.in[v] &&
                store.out_edges(static_cast<VertexId>(v)) == expected.out_edges[v] &&
                store.in_edges(static_cast<VertexId>(v)) == expected.in_edges[v];
    if (!same && mismatches++ == 0) first_bad = static_cast<VertexId>(v);
  }
  INFO("first vertex whose neighbours differ: " << first_bad);
  REQUIRE(mismatches == 0);
}

uint64_t require_store_holds_prefix(const std::string& store_path, std::span<const WeightedEdge> input,
                                    uint64_t at_least, uint32_t threads, uint64_t* interrupted) {
  auto s = store::GraphStore::open(store_path, {.threads = threads});
  // Killed between creating the store and recording the input: nothing may be logged yet.
  std::optional<store::InputProgress> progress = s->input().current;
  const uint64_t start = progress ? progress->start : 0;
  const bool sets = s->header().mode == store::StoreMode::Ftgraph;
  if (sets && s->status().applying > s->status().head) {
    // Killed in a batch: part of it is in the trees; the batch replayed lands on the same set.
    REQUIRE(progress);
    if (interrupted) ++*interrupted;
    const uint64_t from = s->status().head - start;
    REQUIRE(s->status().applying - start <= input.size());
    s->add_edges(input.subspan(from, s->status().applying - s->status().head));
  }
  const uint64_t k = s->status().head - start;
  if (!progress) REQUIRE(k == 0);
  INFO("store " << store_path << ": " << k << " edges acknowledged, at least " << at_least << " expected");
  REQUIRE(k >= at_least);
  REQUIRE(k <= input.size());
  std::vector<EdgeOp> ops = adds_of(input.first(k));
  AdjacencyModel expected = adjacency_of(ops, s->header().geometry.vertices, sets);
  require_store_equals(*s, expected);
  s.reset();
  // A second reader sees the same graph and walks every chain in both directions.
  store::SnapshotInfo info = store::check_store(store_path).read;
  REQUIRE(info.edges == expected.edges);
  REQUIRE(info.position == k + start);
  return k;
}

}  // namespace graphso::testing
