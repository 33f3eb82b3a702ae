#include "jobs/kcore.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "jobs/results_text.h"

namespace graphso {

void KCoreJob::init(const GraphInfo& graph, int threads) {
  threads_ = threads;
  reverse_ = !graph.symmetric;
  degree_.assign(graph.vertices, 0);
  core_.assign(graph.vertices, kRemaining);
  frontier_ = Bitmap(graph.vertices);
  frontier_.set_all();  // round 0 counts degrees over every edge
  if (graph.vertices == 0) finished_ = converged_ = true;
}

template <typename Record, typename Reach>
void KCoreJob::for_each_reached(const EdgeRun& run, Reach&& reach) const {
  const auto* edges = reinterpret_cast<const Record*>(run.data);
  for (uint64_t i = 0; i < run.count; ++i) {
    const VertexId s = edges[i].src, d = edges[i].dst;
    if (s == d) continue;
    if (frontier_.test(s)) reach(d);
    if (reverse_ && frontier_.test(d)) reach(s);
  }
}

template <typename Reach>
void KCoreJob::reached(const EdgeRun& run, Reach&& reach) const {
  if (run.weighted) for_each_reached<WeightedEdge>(run, reach);
  else for_each_reached<Edge>(run, reach);
}

void KCoreJob::touch(VertexId v) {
  std::atomic_ref<uint32_t> degree(degree_[v]);
  if (counting_) degree.fetch_add(1, std::memory_order_relaxed);
  else if (core_[v] == kRemaining) degree.fetch_sub(1, std::memory_order_relaxed);
}

void KCoreJob::process(const EdgeRun& run) {
  reached(run, [this](VertexId v) { touch(v); });
}

void KCoreJob::scatter_updates(const EdgeRun& run, std::vector<std::byte>& out) {
  reached(run, [&out](VertexId v) {
    const size_t at = out.size();
    out.resize(at + sizeof(v));
    std::memcpy(out.data() + at, &v, sizeof(v));
  });
}

void KCoreJob::gather_updates(std::span<const std::byte> updates) {
  for (size_t at = 0; at + sizeof(VertexId) <= updates.size(); at += sizeof(VertexId)) {
    VertexId v;
    std::memcpy(&v, updates.data() + at, sizeof(v));
    touch(v);
  }
}

void KCoreJob::end_round() {
  ++rounds_;
  counting_ = false;
  const int64_t n = static_cast<int64_t>(core_.size());
  for (;;) {
    // The next wave: every remaining vertex of degree <= level.
    frontier_.clear();
    uint64_t removed = 0, remaining = 0;
    uint32_t lowest = kRemaining;
#pragma omp parallel for num_threads(threads_) schedule(static) reduction(+ : removed, remaining) reduction(min : lowest)
    for (int64_t v = 0; v < n; ++v) {
      if (core_[v] != kRemaining) continue;
      if (degree_[v] <= level_) {
        core_[v] = level_;
        frontier_.set_atomic(v);
        ++removed;
      } else {
        ++remaining;
        lowest = std::min(lowest, degree_[v]);
      }
    }
    if (!remaining) {  // the last wave's edges reach no remaining vertex: nothing left to stream
      finished_ = converged_ = true;
      return;
    }
    if (removed) return;
    level_ = lowest;  // no remaining vertex has a degree below it
  }
}

void KCoreJob::write_results(OutFormat format, const VertexOrder& order, const ResultSink& sink) const {
  write_vertex_values(core_, format, order, sink,
                              [](fmt::memory_buffer& out, uint32_t core) { fmt::format_to(std::back_inserter(out), "{}", core); });
}

}  // namespace graphso
