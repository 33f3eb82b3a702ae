#include "tests/reference.h"

#include <cmath>
#include <functional>
#include <numeric>
#include <queue>

namespace graphso::reference {

Csr build_csr(uint64_t vertices, const std::vector<WeightedEdge>& edges) {
  Csr g;
  g.vertices = vertices;
  g.offsets.assign(vertices + 1, 0);
  for (const auto& e : edges) ++g.offsets[e.src + 1];
  for (uint64_t v = 0; v < vertices; ++v) g.offsets[v + 1] += g.offsets[v];
  g.targets.resize(edges.size());
  g.weights.resize(edges.size());
  std::vector<uint64_t> cursor(g.offsets.begin(), g.offsets.end() - 1);
  for (const auto& e : edges) {
    uint64_t at = cursor[e.src]++;
    g.targets[at] = e.dst;
    g.weights[at] = e.weight;
  }
  return g;
}

std::vector<uint32_t> bfs(const Csr& g, VertexId source) {
  std::vector<uint32_t> level(g.vertices, kUnreached);
  std::queue<VertexId> queue;
  level[source] = 0;
  queue.push(source);
  while (!queue.empty()) {
    VertexId u = queue.front();
    queue.pop();
    for (uint64_t i = g.offsets[u]; i < g.offsets[u + 1]; ++i)
      if (level[g.targets[i]] == kUnreached) {
        level[g.targets[i]] = level[u] + 1;
        queue.push(g.targets[i]);
      }
  }
  return level;
}

std::vector<uint64_t> sssp(const Csr& g, VertexId source) {
  std::vector<uint64_t> dist(g.vertices, kInfinity);
  using Item = std::pair<uint64_t, VertexId>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
  dist[source] = 0;
  heap.push({0, source});
  while (!heap.empty()) {
    auto [d, u] = heap.top();
    heap.pop();
    if (d != dist[u]) continue;
    for (uint64_t i = g.offsets[u]; i < g.offsets[u + 1]; ++i) {
      uint64_t nd = d + g.weights[i];
      if (nd < dist[g.targets[i]]) {
        dist[g.targets[i]] = nd;
        heap.push({nd, g.targets[i]});
      }
    }
  }
  return dist;
}

std::vector<uint32_t> wcc(uint64_t vertices, const std::vector<WeightedEdge>& edges) {
  std::vector<uint32_t> parent(vertices);
  std::iota(parent.begin(), parent.end(), 0u);
  std::function<uint32_t(uint32_t)> find = [&](uint32_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (const auto& e : edges) {
    uint32_t a = find(e.src), b = find(e.dst);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the root is always the smallest id
  }
  std::vector<uint32_t> label(vertices);
  for (uint64_t v = 0; v < vertices; ++v) label[v] = find(static_cast<uint32_t>(v));
  return label;
}

namespace {

std::vector<double> pagerank_step(const Csr& g, const std::vector<double>& rank) {
  const double d = 0.85, n = static_cast<double>(g.vertices);
  std::vector<double> next(g.vertices, (1 - d) / n);
  for (uint64_t u = 0; u < g.vertices; ++u) {
    uint64_t deg = g.out_degree(u);
    if (deg == 0) continue;
    double share = d * rank[u] / static_cast<double>(deg);
    for (uint64_t i = g.offsets[u]; i < g.offsets[u + 1]; ++i) next[g.targets[i]] += share;
  }
  return next;
}

}  // namespace

std::vector<double> pagerank(const Csr& g, uint32_t iterations) {
  std::vector<double> rank(g.vertices, 1.0 / static_cast<double>(g.vertices));
  for (uint32_t i = 0; i < iterations; ++i) rank = pagerank_step(g, rank);
  return rank;
}

std::vector<double> pagerank_fixed_point(const Csr& g) {
  std::vector<double> rank(g.vertices, 1.0 / static_cast<double>(g.vertices));
  for (int i = 0; i < 100000; ++i) {
    std::vector<double> next = pagerank_step(g, rank);
    double change = 0;
    for (uint64_t v = 0; v < g.vertices; ++v) change += std::fabs(next[v] - rank[v]);
    rank.swap(next);
    if (change < 1e-14) break;
  }
  return rank;
}

}  // namespace graphso::reference
