#include "jobs/cdlp.h"

#include <algorithm>

#include "base/run_edges.h"
#include "jobs/results_text.h"

namespace graphso {

void CdlpJob::init(const GraphInfo& graph, int threads) {
  threads_ = threads;
  symmetric_ = graph.symmetric;
  const uint64_t n = graph.vertices;
  label_.resize(n);
  for (uint64_t v = 0; v < n; ++v) label_[v] = graph.order ? graph.order->to_original(static_cast<VertexId>(v)) : static_cast<VertexId>(v);
  next_label_ = label_;
  ranges_.init(graph, slots_ * n, "cdlp:slots");
  frontier_ = Bitmap(n);
  next_ = Bitmap(n);
  if (n == 0 || iterations_ == 0) {
    finished_ = converged_ = true;
    return;
  }
  if (ranges_.counting()) return frontier_.set_all();
  ranges_.plan();
  ranges_.start(frontier_);
}

void CdlpJob::process(const EdgeRun& run) {
  with_run_edges(run, [&](const auto& edges) {
    if (ranges_.counting()) return ranges_.count(edges);
    const VertexRange& range = ranges_.range();
    RangeLists& lists = ranges_.lists();
    std::vector<uint32_t> labels;  // a source's neighbours' labels, added to its list at once
    edges.for_each_source([&](const SourceEdges& s) {
      const bool from_range = range.contains(s.src);
      // A directed graph's edges into the range come from sources anywhere.
      if (!from_range && symmetric_) return;
      const uint32_t own = label_[s.src];
      labels.clear();
      edges.for_each_edge(s, [&](VertexId dst, Weight) {
        if (dst == s.src) return;
        if (from_range) labels.push_back(label_[dst]);
        if (!symmetric_ && range.contains(dst)) lists.add(dst, own);
      });
      if (!labels.empty()) lists.add_all(s.src, labels);
    });
  });
}

// Each vertex of the range takes the most frequent label of its list (the smallest on a tie):
// sorted, equal labels are neighbours.
void CdlpJob::take_labels() {
  ranges_.for_each_sorted_list(threads_, [this](VertexId v, std::span<const uint32_t> labels) {
    if (labels.empty()) {
      next_label_[v] = label_[v];
      return;
    }
    uint32_t best = labels[0];
    uint64_t best_count = 0;
    for (size_t i = 0; i < labels.size();) {
      size_t j = i + 1;
      while (j < labels.size() && labels[j] == labels[i]) ++j;
      if (j - i > best_count) best = labels[i], best_count = j - i;
      i = j;
    }
    next_label_[v] = best;
  });
}

void CdlpJob::end_round() {
  ++rounds_;
  ++passes_;
  if (ranges_.counting()) {
    ranges_.plan();
    return ranges_.start(frontier_);
  }
  take_labels();
  if (!ranges_.advance()) {  // an iteration done: every vertex has its new label
    label_.swap(next_label_);
    if (++iteration_ == iterations_) {
      finished_ = converged_ = true;
      frontier_.clear();
      return;
    }
  }
  ranges_.start(frontier_);
}

std::vector<std::pair<std::string, uint64_t>> CdlpJob::counts() const {
  return {{"vertex_ranges", ranges_.ranges()}, {"passes", passes_}};
}

void CdlpJob::write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const {
  // A label is an original id: in lines, the user's id of that vertex.
  write_vertex_values(label_, format, order, sink,
                      [&order](fmt::memory_buffer& out, uint32_t label) { fmt::format_to(std::back_inserter(out), "{}", order.user_id(label)); });
}

}  // namespace graphso
