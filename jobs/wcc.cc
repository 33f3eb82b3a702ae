#include "jobs/wcc.h"

#include <algorithm>
#include <atomic>

#include "base/run_edges.h"
#include "jobs/results_text.h"

namespace graphso {

void write_component_labels(const std::vector<uint32_t>& labels, OutFormat format, const VertexOrder& order,
                            const Job::ResultSink& sink) {
  // Labels are vertices: in lines, the user's ids (the dataset's own, when it has them).
  auto text = [&order](fmt::memory_buffer& out, uint32_t label) { fmt::format_to(std::back_inserter(out), "{}", order.user_id(label)); };
  if (order.is_natural()) return write_vertex_values(labels, format, order, sink, text);
  // A label is the smallest NEW id of its component; the answer in original ids is the smallest
  // original id of the component, so relabel each component by its members' original ids.
  std::vector<uint32_t> smallest(labels.size(), kNoVertex);
  for (uint64_t v = 0; v < labels.size(); ++v)
    smallest[labels[v]] = std::min(smallest[labels[v]], order.to_original(static_cast<VertexId>(v)));
  write_vertex_values<uint32_t>(labels.size(), format, order, sink, [&](VertexId id) { return smallest[labels[id]]; }, text);
}

void WccLabelJob::init(const GraphInfo& graph, int threads) {
  threads_ = threads;
  bind(graph);
  label_.resize(graph.vertices);
  for (uint64_t v = 0; v < graph.vertices; ++v) label_[v] = static_cast<uint32_t>(v);
  frontier_ = Bitmap(graph.vertices);
  next_ = Bitmap(graph.vertices);
  frontier_.set_all();
}

void WccLabelJob::end_round() {
  ++rounds_;
  promote_changed(frontier_, next_, finished_, converged_);
}

void WccLabelJob::write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const {
  write_component_labels(label_, format, order, sink);
}

void WccUnionFindJob::init(const GraphInfo& graph, int threads) {
  threads_ = threads;
  parent_.resize(graph.vertices);
  for (uint64_t v = 0; v < graph.vertices; ++v) parent_[v] = static_cast<VertexId>(v);
  frontier_ = Bitmap(graph.vertices);
  next_ = Bitmap(graph.vertices);
  frontier_.set_all();  // every edge, once
}

// Path halving. A vertex's parent only ever moves to one of its ancestors, and a vertex that
// stopped being a root never becomes one again, so racing halvings lose compression, never
// correctness.
VertexId WccUnionFindJob::find(VertexId v) {
  for (;;) {
    VertexId p = std::atomic_ref<VertexId>(parent_[v]).load(std::memory_order_acquire);
    if (p == v) return v;
    VertexId grand = std::atomic_ref<VertexId>(parent_[p]).load(std::memory_order_acquire);
    if (grand != p) std::atomic_ref<VertexId>(parent_[v]).store(grand, std::memory_order_release);
    v = grand;
  }
}

void WccUnionFindJob::unite(VertexId a, VertexId b) {
  for (;;) {
    VertexId ra = find(a), rb = find(b);
    if (ra == rb) return;
    VertexId high = std::max(ra, rb), low = std::min(ra, rb);
    VertexId expected = high;  // still a root?
    if (std::atomic_ref<VertexId>(parent_[high]).compare_exchange_strong(expected, low, std::memory_order_acq_rel))
      return;
  }
}

void WccUnionFindJob::process(const EdgeRun& run) {
  with_run_edges(run, [&](const auto& edges) {
    edges.for_each_source([&](const SourceEdges& s) {
      if (frontier_.test(s.src)) edges.for_each_edge(s, [&](VertexId dst, Weight) { unite(s.src, dst); });
    });
  });
}

// A walk to the root that writes nothing: beside the last step's stores of roots, a halving
// walk could write a vertex's grandparent over the root another thread had just stored there.
VertexId WccUnionFindJob::root_of(VertexId v) {
  for (;;) {
    const VertexId p = std::atomic_ref<VertexId>(parent_[v]).load(std::memory_order_relaxed);
    if (p == v) return v;
    v = p;
  }
}

void WccUnionFindJob::end_round() {
  ++rounds_;
  // Every edge has been united, so roots no longer change: point each vertex at its root, the
  // component's smallest id. Only roots are stored, so a walk meets an ancestor at every step.
  const int64_t n = static_cast<int64_t>(parent_.size());
#pragma omp parallel for num_threads(threads_) schedule(static)
  for (int64_t v = 0; v < n; ++v)
    std::atomic_ref<VertexId>(parent_[v]).store(root_of(static_cast<VertexId>(v)), std::memory_order_relaxed);
  frontier_.clear();
  finished_ = converged_ = true;
}

void WccUnionFindJob::write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const {
  write_component_labels(parent_, format, order, sink);
}

}  // namespace graphso
