#include "jobs/cdlp.h"

#include <algorithm>

#include "base/run_edges.h"
#include "jobs/atomics.h"
#include "jobs/results_text.h"

namespace graphso {

void CdlpJob::init(const GraphInfo& graph, int threads) {
  threads_ = threads;
  symmetric_ = graph.symmetric;
  degrees_ = graph.out_degrees;
  const uint64_t n = graph.vertices;
  label_.resize(n);
  for (uint64_t v = 0; v < n; ++v) label_[v] = graph.order ? graph.order->to_original(static_cast<VertexId>(v)) : static_cast<VertexId>(v);
  next_label_ = label_;
  lists_.allocate(n, slots_ * n);
  frontier_ = Bitmap(n);
  next_ = Bitmap(n);
  if (n == 0 || iterations_ == 0) {
    finished_ = converged_ = true;
    return;
  }
  counting_ = !symmetric_;
  if (counting_) {
    incident_.assign(n, 0);
    frontier_.set_all();
  } else {
    ranges_ = plan_ranges(n, [this](VertexId v) { return incident(v); }, lists_.capacity(), "cdlp:slots");
    start_range();
  }
}

void CdlpJob::start_range() {
  lists_.start(ranges_[range_], [this](VertexId v) { return incident(v); });
  frontier_.clear();
  set_range(frontier_, ranges_[range_]);
}

void CdlpJob::process(const EdgeRun& run) {
  with_run_edges(run, [&](const auto& edges) {
    edges.for_each_source([&](const SourceEdges& s) {
      if (counting_) {
        edges.for_each_edge(s, [&](VertexId dst, Weight) {
          if (dst == s.src) return;
          atomic_add<uint64_t>(incident_[s.src], 1);
          atomic_add<uint64_t>(incident_[dst], 1);
        });
        return;
      }
      const VertexRange& range = lists_.range();
      const bool from_range = range.contains(s.src);
      // A directed graph's edges into the range come from sources anywhere.
      if (!from_range && symmetric_) return;
      const uint32_t own = label_[s.src];
      edges.for_each_edge(s, [&](VertexId dst, Weight) {
        if (dst == s.src) return;
        if (from_range) lists_.add(s.src, label_[dst]);
        if (!symmetric_ && range.contains(dst)) lists_.add(dst, own);
      });
    });
  });
}

// Each vertex of the range takes the most frequent label of its list (the smallest on a tie):
// sorted, equal labels are neighbours.
void CdlpJob::take_labels() {
  const VertexRange range = lists_.range();
  const int64_t size = static_cast<int64_t>(range.size());
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 1024)
  for (int64_t k = 0; k < size; ++k) {
    const VertexId v = range.begin + static_cast<VertexId>(k);
    std::span<uint32_t> labels = lists_.list(v);
    if (labels.empty()) {
      next_label_[v] = label_[v];
      continue;
    }
    std::sort(labels.begin(), labels.end());
    uint32_t best = labels[0];
    uint64_t best_count = 0;
    for (size_t i = 0; i < labels.size();) {
      size_t j = i + 1;
      while (j < labels.size() && labels[j] == labels[i]) ++j;
      if (j - i > best_count) best = labels[i], best_count = j - i;
      i = j;
    }
    next_label_[v] = best;
  }
}

void CdlpJob::end_round() {
  ++rounds_;
  ++passes_;
  if (counting_) {
    counting_ = false;
    ranges_ = plan_ranges(label_.size(), [this](VertexId v) { return incident(v); }, lists_.capacity(), "cdlp:slots");
    return start_range();
  }
  take_labels();
  if (++range_ == ranges_.size()) {  // an iteration done: every vertex has its new label
    range_ = 0;
    label_.swap(next_label_);
    if (++iteration_ == iterations_) {
      finished_ = converged_ = true;
      frontier_.clear();
      return;
    }
  }
  start_range();
}

std::vector<std::pair<std::string, uint64_t>> CdlpJob::counts() const {
  return {{"vertex_ranges", ranges_.size()}, {"passes", passes_}};
}

void CdlpJob::write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const {
  // A label is an original id: in lines, the user's id of that vertex.
  write_vertex_values(label_, format, order, sink,
                      [&order](fmt::memory_buffer& out, uint32_t label) { fmt::format_to(std::back_inserter(out), "{}", order.user_id(label)); });
}

}  // namespace graphso
