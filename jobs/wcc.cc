#include "jobs/wcc.h"

#include <algorithm>
#include <atomic>
#include <random>
#include <unordered_map>

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
  symmetric_ = graph.symmetric;
  degrees_ = graph.out_degrees;
  sampling_ = false;
  skipped_ = 0;
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

// Inlined into both edge loops (called from two, GCC stops inlining it: slashdot's union-find
// round took 1.5x as long).
[[gnu::always_inline]] inline void WccUnionFindJob::unite(VertexId a, VertexId b) {
  for (;;) {
    VertexId ra = find(a), rb = find(b);
    if (ra == rb) return;
    VertexId high = std::max(ra, rb), low = std::min(ra, rb);
    VertexId expected = high;  // still a root?
    if (std::atomic_ref<VertexId>(parent_[high]).compare_exchange_strong(expected, low, std::memory_order_acq_rel))
      return;
  }
}

// Sampling needs each vertex's edges to reach every neighbour: a symmetric graph's out-edges.
void WccUnionFindJob::graph_resident() {
  if (!symmetric_ || !degrees_ || rounds_ != 0) return;
  sampling_ = true;
  with_edges_ = static_cast<uint64_t>(std::count_if(degrees_->begin(), degrees_->end(), [](uint32_t d) { return d != 0; }));
}

void WccUnionFindJob::process(const EdgeRun& run) {
  if (sampling_) return sample(run);
  with_run_edges(run, [&](const auto& edges) {
    edges.for_each_source([&](const SourceEdges& s) {
      if (frontier_.test(s.src)) edges.for_each_edge(s, [&](VertexId dst, Weight) { unite(s.src, dst); });
    });
  });
}

// A source whose edges lie in several runs (GridGraph's blocks) unites a few in each: any subset
// of the edges is a sample.
void WccUnionFindJob::sample(const EdgeRun& run) {
  with_run_edges(run, [&](const auto& edges) {
    edges.for_each_source([&](const SourceEdges& s) {
      uint32_t taken = 0;
      edges.for_each_edge_until(s, [&](VertexId dst, Weight) {
        unite(s.src, dst);
        return ++taken == kSampledEdges;
      });
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

// No thread unites during it, so roots do not change: each vertex is pointed at its root. Only
// roots are stored, so a walk meets an ancestor at every step.
void WccUnionFindJob::compress() {
  const int64_t n = static_cast<int64_t>(parent_.size());
#pragma omp parallel for num_threads(threads_) schedule(static)
  for (int64_t v = 0; v < n; ++v)
    std::atomic_ref<VertexId>(parent_[v]).store(root_of(static_cast<VertexId>(v)), std::memory_order_relaxed);
}

uint64_t WccUnionFindJob::take_sources_outside_largest() {
  // The root most sampled vertices have (a fixed seed: the same rounds every run; the labels
  // never depend on the choice).
  std::mt19937_64 pick(0x5eed);
  std::uniform_int_distribution<uint64_t> any(0, parent_.size() - 1);
  std::unordered_map<VertexId, uint32_t> seen;
  VertexId largest = parent_[0];
  uint32_t most = 0;
  for (uint32_t i = 0; i < kSampledVertices; ++i) {
    const VertexId root = parent_[any(pick)];
    if (const uint32_t count = ++seen[root]; count > most) {
      most = count;
      largest = root;
    }
  }
  frontier_.assign_where(threads_, [&](uint64_t v) { return (*degrees_)[v] != 0 && parent_[v] != largest; });
  const uint64_t outside = frontier_.count();
  skipped_ = with_edges_ - outside;
  return outside;
}

void WccUnionFindJob::end_round() {
  ++rounds_;
  compress();
  if (sampling_) {
    sampling_ = false;
    if (take_sources_outside_largest() != 0) return;
  }
  // Every edge has been united: the roots are the components' smallest ids.
  frontier_.clear();
  finished_ = converged_ = true;
}

std::vector<std::pair<std::string, uint64_t>> WccUnionFindJob::counts() const {
  return {{"sampled_component_vertices", skipped_}};
}

void WccUnionFindJob::write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const {
  write_component_labels(parent_, format, order, sink);
}

}  // namespace graphso
