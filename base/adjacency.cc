#include "base/adjacency.h"

#include <atomic>

#include "base/error.h"
#include "base/run_edges.h"

namespace graphso {

Adjacency::Adjacency(std::span<const uint32_t> out_degrees, bool weighted) : weighted_(weighted) {
  const uint64_t n = out_degrees.size();
  offsets_ = HugePageArray<uint64_t>(n + 1);
  offsets_[0] = 0;
  for (uint64_t v = 0; v < n; ++v) offsets_[v + 1] = offsets_[v] + out_degrees[v];
  targets_ = HugePageArray<VertexId>(offsets_[n]);
  if (weighted) weights_ = HugePageArray<Weight>(offsets_[n]);
  cursor_.assign(offsets_.data(), offsets_.data() + n);
}

std::string Adjacency::add(const EdgeRun& run) {
  const uint64_t n = vertices();
  std::string wrong;
  with_run_edges(run, [&](const auto& edges) {
    edges.for_each_source([&](const SourceEdges& s) {
      if (!wrong.empty()) return;
      if (s.src >= n) {
        wrong = fmt::format("an edge's source {} is outside the graph's {} vertices", s.src, n);
        return;
      }
      // A source's edges in this run take their places with one atomic add (its edges come in
      // several runs, one per GridGraph block of its row, added on several threads).
      uint64_t at = std::atomic_ref<uint64_t>(cursor_[s.src]).fetch_add(s.count(), std::memory_order_relaxed);
      if (at + s.count() > offsets_[s.src + 1]) {
        wrong = fmt::format("vertex {} has more edges than its out-degree {}", s.src, degree(s.src));
        return;
      }
      edges.for_each_edge(s, [&](VertexId dst, Weight w) {
        if (dst >= n && wrong.empty()) wrong = fmt::format("an edge's destination {} is outside the graph's {} vertices", dst, n);
        targets_[at] = dst;
        if (weighted_) weights_[at] = w;
        ++at;
      });
    });
  });
  return wrong;
}

void Adjacency::finish() {
  for (uint64_t v = 0; v < vertices(); ++v)
    if (cursor_[v] != offsets_[v + 1])
      fail("the graph in memory does not match its degrees: vertex {} has {} edges where its out-degree is {} (corrupt "
           "graph directory)",
           v, cursor_[v] - offsets_[v], degree(static_cast<VertexId>(v)));
  cursor_ = {};
}

}  // namespace graphso
