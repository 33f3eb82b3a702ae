#include "reference/reference.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <queue>
#include <set>

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

namespace {

// Dijkstra with a binary heap; Distance and `along` (a distance plus an edge's weight) are the
// integer or the real form's.
template <typename Distance, typename Along>
std::vector<Distance> dijkstra(const Csr& g, VertexId source, Distance unreached, Along along) {
  std::vector<Distance> dist(g.vertices, unreached);
  using Item = std::pair<Distance, VertexId>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
  dist[source] = 0;
  heap.push({0, source});
  while (!heap.empty()) {
    auto [d, u] = heap.top();
    heap.pop();
    if (d != dist[u]) continue;
    for (uint64_t i = g.offsets[u]; i < g.offsets[u + 1]; ++i) {
      const Distance nd = along(d, g.weights[i]);
      if (nd < dist[g.targets[i]]) {
        dist[g.targets[i]] = nd;
        heap.push({nd, g.targets[i]});
      }
    }
  }
  return dist;
}

}  // namespace

std::vector<uint64_t> sssp(const Csr& g, VertexId source) {
  return dijkstra<uint64_t>(g, source, kInfinity, [](uint64_t d, Weight w) { return d + w; });
}

std::vector<double> sssp_real(const Csr& g, VertexId source) {
  return dijkstra<double>(g, source, std::numeric_limits<double>::infinity(),
                          [](double d, Weight w) { return d + static_cast<double>(std::bit_cast<float>(w)); });
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

std::vector<double> pagerank_step(const Csr& g, const std::vector<double>& rank, double d) {
  const double n = static_cast<double>(g.vertices);
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

std::vector<double> pagerank(const Csr& g, uint32_t iterations, bool spread_dangling, double d) {
  const double n = static_cast<double>(g.vertices);
  std::vector<double> rank(g.vertices, 1.0 / n);
  for (uint32_t i = 0; i < iterations; ++i) {
    std::vector<double> next = pagerank_step(g, rank, d);
    if (spread_dangling) {
      double lost = 0;
      for (uint64_t u = 0; u < g.vertices; ++u)
        if (g.out_degree(u) == 0) lost += rank[u];
      for (double& r : next) r += d * lost / n;
    }
    rank.swap(next);
  }
  return rank;
}

std::vector<double> pagerank_fixed_point(const Csr& g, double d) {
  std::vector<double> rank(g.vertices, 1.0 / static_cast<double>(g.vertices));
  for (int i = 0; i < 100000; ++i) {
    std::vector<double> next = pagerank_step(g, rank, d);
    double change = 0;
    for (uint64_t v = 0; v < g.vertices; ++v) change += std::fabs(next[v] - rank[v]);
    rank.swap(next);
    if (change < 1e-14) break;
  }
  return rank;
}

std::vector<double> personalized_pagerank_fixed_point(const Csr& g, const std::vector<VertexId>& sources, double d) {
  std::vector<double> teleport(g.vertices, 0.0);
  for (VertexId s : sources) teleport[s] = (1 - d) / static_cast<double>(sources.size());
  std::vector<double> rank = teleport;
  for (int i = 0; i < 100000; ++i) {
    std::vector<double> next = teleport;
    for (uint64_t u = 0; u < g.vertices; ++u) {
      uint64_t deg = g.out_degree(u);
      if (deg == 0) continue;
      double share = d * rank[u] / static_cast<double>(deg);
      for (uint64_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) next[g.targets[k]] += share;
    }
    double change = 0;
    for (uint64_t v = 0; v < g.vertices; ++v) change += std::fabs(next[v] - rank[v]);
    rank.swap(next);
    if (change < 1e-15) break;
  }
  return rank;
}

bool symmetric(const std::vector<WeightedEdge>& edges) {
  std::set<std::pair<VertexId, VertexId>> pairs;
  for (const WeightedEdge& e : edges) pairs.insert({e.src, e.dst});
  for (const auto& [u, v] : pairs)
    if (!pairs.count({v, u})) return false;
  return true;
}

std::vector<uint32_t> core_numbers(uint64_t vertices, const std::vector<WeightedEdge>& edges) {
  const bool both_ways = !symmetric(edges);
  // Who loses an incident edge when u goes: u's out-neighbours, and, both ways, its in-neighbours.
  std::vector<std::vector<VertexId>> reaches(vertices);
  for (const WeightedEdge& e : edges) {
    if (e.src == e.dst) continue;
    reaches[e.src].push_back(e.dst);
    if (both_ways) reaches[e.dst].push_back(e.src);
  }
  std::vector<uint64_t> degree(vertices, 0);
  for (uint64_t u = 0; u < vertices; ++u)
    for (VertexId v : reaches[u]) ++degree[v];
  // Vertices sorted by degree in buckets; position and bucket starts let a vertex move down one
  // bucket in O(1).
  uint64_t max_degree = 0;
  for (uint64_t d : degree) max_degree = std::max(max_degree, d);
  std::vector<uint64_t> start(max_degree + 2, 0);
  for (uint64_t d : degree) ++start[d + 1];
  for (uint64_t d = 1; d < start.size(); ++d) start[d] += start[d - 1];
  std::vector<VertexId> sorted(vertices);
  std::vector<uint64_t> position(vertices);
  {
    std::vector<uint64_t> next(start.begin(), start.end() - 1);
    for (uint64_t v = 0; v < vertices; ++v) {
      position[v] = next[degree[v]]++;
      sorted[position[v]] = static_cast<VertexId>(v);
    }
  }
  std::vector<bool> done(vertices, false);
  for (uint64_t i = 0; i < vertices; ++i) {
    VertexId u = sorted[i];
    done[u] = true;
    for (VertexId w : reaches[u]) {
      if (done[w] || degree[w] <= degree[u]) continue;
      // Swap w with the first vertex of its bucket, then shrink the bucket from the front.
      uint64_t first = start[degree[w]];
      VertexId other = sorted[first];
      std::swap(sorted[first], sorted[position[w]]);
      std::swap(position[other], position[w]);
      ++start[degree[w]];
      --degree[w];
    }
  }
  return std::vector<uint32_t>(degree.begin(), degree.end());
}

std::vector<uint32_t> cdlp(uint64_t vertices, const std::vector<WeightedEdge>& edges, uint32_t iterations) {
  const bool both_ends = !symmetric(edges);
  std::vector<std::vector<VertexId>> neighbours(vertices);  // one entry per counted edge
  for (const WeightedEdge& e : edges) {
    if (e.src == e.dst) continue;
    neighbours[e.src].push_back(e.dst);
    if (both_ends) neighbours[e.dst].push_back(e.src);
  }
  std::vector<uint32_t> label(vertices);
  std::iota(label.begin(), label.end(), 0u);
  for (uint32_t i = 0; i < iterations; ++i) {
    std::vector<uint32_t> next(label);
    for (uint64_t v = 0; v < vertices; ++v) {
      std::map<uint32_t, uint64_t> count;
      for (VertexId u : neighbours[v]) ++count[label[u]];
      uint64_t best = 0;
      for (const auto& [l, c] : count)  // increasing labels: a tie keeps the smaller
        if (c > best) best = c, next[v] = l;
    }
    label.swap(next);
  }
  return label;
}

std::vector<double> lcc(uint64_t vertices, const std::vector<WeightedEdge>& edges) {
  // Sorted, distinct lists: each vertex's neighbours either way, and its out-neighbours.
  std::vector<std::pair<VertexId, VertexId>> around_pairs, out_pairs;
  for (const WeightedEdge& e : edges) {
    if (e.src == e.dst) continue;
    around_pairs.push_back({e.src, e.dst});
    around_pairs.push_back({e.dst, e.src});
    out_pairs.push_back({e.src, e.dst});
  }
  auto lists = [vertices](std::vector<std::pair<VertexId, VertexId>>& pairs) {
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    std::vector<uint64_t> begin(vertices + 1, 0);
    for (const auto& [v, u] : pairs) ++begin[v + 1];
    for (uint64_t v = 0; v < vertices; ++v) begin[v + 1] += begin[v];
    return begin;
  };
  const std::vector<uint64_t> around = lists(around_pairs), out = lists(out_pairs);
  // Each vertex marks its neighbours, then counts the out-edges of each neighbour that end at a
  // marked one.
  std::vector<uint64_t> marked_by(vertices, ~uint64_t{0});
  std::vector<double> result(vertices, 0.0);
  for (uint64_t v = 0; v < vertices; ++v) {
    const double d = static_cast<double>(around[v + 1] - around[v]);
    if (d < 2) continue;
    for (uint64_t i = around[v]; i < around[v + 1]; ++i) marked_by[around_pairs[i].second] = v;
    uint64_t among = 0;
    for (uint64_t i = around[v]; i < around[v + 1]; ++i) {
      const VertexId u = around_pairs[i].second;
      for (uint64_t k = out[u]; k < out[u + 1]; ++k) among += marked_by[out_pairs[k].second] == v;
    }
    result[v] = static_cast<double>(among) / (d * (d - 1));
  }
  return result;
}

}  // namespace graphso::reference
