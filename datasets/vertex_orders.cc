#include "datasets/vertex_orders.h"

#include <algorithm>
#include <chrono>
#include <numeric>

#include "base/error.h"
#include "base/progress.h"

namespace graphso {
namespace {

constexpr uint64_t kBatch = 1 << 20;

// In + out degree of every vertex; self-loops count once.
std::vector<uint64_t> total_degrees(EdgeListReader& reader) {
  std::vector<uint64_t> degree(reader.info().vertices, 0);
  std::vector<WeightedEdge> batch;
  reader.rewind();
  while (reader.next_batch(batch, kBatch))
    for (const WeightedEdge& e : batch) {
      ++degree[e.src];
      if (e.dst != e.src) ++degree[e.dst];
    }
  return degree;
}

std::vector<VertexId> degree_order(EdgeListReader& reader, uint64_t& memory) {
  const uint64_t n = reader.info().vertices;
  std::vector<uint64_t> degree = total_degrees(reader);
  std::vector<VertexId> by_degree(n);
  std::iota(by_degree.begin(), by_degree.end(), VertexId{0});
  std::stable_sort(by_degree.begin(), by_degree.end(), [&](VertexId a, VertexId b) { return degree[a] > degree[b]; });
  std::vector<VertexId> new_of_old(n);
  for (uint64_t i = 0; i < n; ++i) new_of_old[by_degree[i]] = static_cast<VertexId>(i);
  memory = n * (sizeof(uint64_t) + 2 * sizeof(VertexId));
  return new_of_old;
}

// The undirected graph as CSR, self-loops dropped (duplicates are harmless here).
struct Undirected {
  std::vector<uint64_t> offsets;
  std::vector<VertexId> neighbours;
  uint64_t degree(VertexId v) const { return offsets[v + 1] - offsets[v]; }
};

Undirected undirected_csr(EdgeListReader& reader) {
  const uint64_t n = reader.info().vertices;
  Undirected g;
  g.offsets.assign(n + 1, 0);
  std::vector<WeightedEdge> batch;
  reader.rewind();
  while (reader.next_batch(batch, kBatch))
    for (const WeightedEdge& e : batch)
      if (e.src != e.dst) {
        ++g.offsets[e.src + 1];
        ++g.offsets[e.dst + 1];
      }
  for (uint64_t v = 0; v < n; ++v) g.offsets[v + 1] += g.offsets[v];
  g.neighbours.resize(g.offsets[n]);
  std::vector<uint64_t> cursor(g.offsets.begin(), g.offsets.end() - 1);
  reader.rewind();
  while (reader.next_batch(batch, kBatch))
    for (const WeightedEdge& e : batch)
      if (e.src != e.dst) {
        g.neighbours[cursor[e.src]++] = e.dst;
        g.neighbours[cursor[e.dst]++] = e.src;
      }
  return g;
}

class CuthillMcKee {
 public:
  explicit CuthillMcKee(const Undirected& g, uint64_t n) : g_(g), stamp_(n, 0), level_(n, 0) {}

  // George-Liu: from `start`, move to a lowest-degree vertex of the last BFS level while that
  // makes the BFS deeper.
  VertexId pseudo_peripheral(VertexId start) {
    uint32_t depth = bfs_depth(start);
    for (int tries = 0; tries < 4; ++tries) {
      VertexId candidate = last_level_min_degree_;
      uint32_t d = bfs_depth(candidate);
      if (d <= depth) break;
      depth = d;
      start = candidate;
    }
    return start;
  }

  // Appends the component of root in Cuthill-McKee order; new ids are positions in `order`.
  void number_component(VertexId root, std::vector<bool>& numbered, std::vector<VertexId>& order) {
    size_t head = order.size();
    order.push_back(root);
    numbered[root] = true;
    std::vector<VertexId> fresh;
    while (head < order.size()) {
      VertexId u = order[head++];
      fresh.clear();
      for (uint64_t k = g_.offsets[u]; k < g_.offsets[u + 1]; ++k) {
        VertexId v = g_.neighbours[k];
        if (numbered[v]) continue;
        numbered[v] = true;
        fresh.push_back(v);
      }
      std::sort(fresh.begin(), fresh.end(), [&](VertexId a, VertexId b) {
        return g_.degree(a) != g_.degree(b) ? g_.degree(a) < g_.degree(b) : a < b;
      });
      order.insert(order.end(), fresh.begin(), fresh.end());
    }
  }

 private:
  uint32_t bfs_depth(VertexId root) {
    ++epoch_;
    queue_.clear();
    queue_.push_back(root);
    stamp_[root] = epoch_;
    level_[root] = 0;
    uint32_t depth = 0;
    last_level_min_degree_ = root;
    for (size_t head = 0; head < queue_.size(); ++head) {
      VertexId u = queue_[head];
      if (level_[u] > depth || (level_[u] == depth && g_.degree(u) < g_.degree(last_level_min_degree_))) {
        depth = level_[u];
        last_level_min_degree_ = u;
      }
      for (uint64_t k = g_.offsets[u]; k < g_.offsets[u + 1]; ++k) {
        VertexId v = g_.neighbours[k];
        if (stamp_[v] == epoch_) continue;
        stamp_[v] = epoch_;
        level_[v] = level_[u] + 1;
        queue_.push_back(v);
      }
    }
    return depth;
  }

  const Undirected& g_;
  std::vector<uint32_t> stamp_;
  std::vector<uint32_t> level_;
  std::vector<VertexId> queue_;
  uint32_t epoch_ = 0;
  VertexId last_level_min_degree_ = 0;
};

std::vector<VertexId> bfs_order(EdgeListReader& reader, VertexId root, uint64_t& memory, ProgressStep step) {
  const uint64_t n = reader.info().vertices;
  Undirected g = undirected_csr(reader);
  // Components are started from their lowest-degree vertex, found by scanning vertices in
  // increasing degree; isolated vertices (degree 0) go last.
  std::vector<VertexId> by_degree(n);
  std::iota(by_degree.begin(), by_degree.end(), VertexId{0});
  std::stable_sort(by_degree.begin(), by_degree.end(), [&](VertexId a, VertexId b) { return g.degree(a) < g.degree(b); });
  CuthillMcKee cm(g, n);
  std::vector<bool> numbered(n, false);
  std::vector<VertexId> order;
  order.reserve(n);
  Progress progress("vertex order (bfs)", n, "vertices", step);
  if (root != kNoVertex) {
    if (root >= n) fail("--order-root {} is out of range (the graph has vertices 0..{})", root, n - 1);
    cm.number_component(root, numbered, order);
  }
  for (VertexId start : by_degree) {
    if (numbered[start] || g.degree(start) == 0) continue;
    cm.number_component(cm.pseudo_peripheral(start), numbered, order);
    progress.update(order.size());
  }
  for (VertexId v : by_degree)
    if (!numbered[v]) order.push_back(v);
  std::vector<VertexId> new_of_old(n);
  for (uint64_t i = 0; i < n; ++i) new_of_old[order[i]] = static_cast<VertexId>(i);
  // CSR + by_degree, stamps, levels, queue, order, new ids, the numbered bits.
  memory = (n + 1) * sizeof(uint64_t) + g.neighbours.size() * sizeof(VertexId) + 6 * n * sizeof(VertexId) + n / 8;
  return new_of_old;
}

}  // namespace

VertexOrder compute_vertex_order(OrderKind kind, EdgeListReader& reader, VertexId root, OrderCost* cost,
                                 ProgressStep step) {
  const auto start = std::chrono::steady_clock::now();
  uint64_t memory = 0;
  VertexOrder order = VertexOrder::natural(reader.info().vertices);
  if (kind == OrderKind::Degree) order = VertexOrder::from_new_ids(kind, degree_order(reader, memory));
  if (kind == OrderKind::Bfs) order = VertexOrder::from_new_ids(kind, bfs_order(reader, root, memory, step));
  reader.rewind();
  if (cost) {
    cost->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    cost->memory_bytes = memory + (kind == OrderKind::Natural ? 0 : 2 * reader.info().vertices * sizeof(VertexId));
  }
  return order;
}

}  // namespace graphso
