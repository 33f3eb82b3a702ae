#include "jobs/kcore.h"

#include <algorithm>

#include "jobs/results_text.h"

namespace graphso {

void KCoreJob::init(const GraphInfo& graph, int threads) {
  threads_ = threads;
  bind(graph);
  // Both ways, a removed vertex could not tell which of its edges it already pushed through.
  if (edge_use() == EdgeUse::BothWays) async_ = false;
  degree_.assign(graph.vertices, 0);
  core_.assign(graph.vertices, kRemaining);
  frontier_ = Bitmap(graph.vertices);
  next_ = Bitmap(graph.vertices);
  frontier_.set_all();  // round 0 counts degrees over every edge
  if (graph.vertices == 0) finished_ = converged_ = true;
}

void KCoreJob::end_round() {
  ++rounds_;
  counting_ = false;
  // Asynchronous: the vertices removed during the pass that have not pushed yet push next.
  frontier_.swap(next_);
  next_.clear();
  const int64_t n = static_cast<int64_t>(core_.size());
  for (;;) {
    // The next wave: every remaining vertex of degree <= level.
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
    // Pending pushes may still bring a remaining vertex down to this level.
    if (removed || frontier_.count() != 0) return;
    level_ = lowest;  // no remaining vertex has a degree below it
  }
}

void KCoreJob::write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const {
  write_vertex_values(core_, format, order, sink,
                      [](fmt::memory_buffer& out, uint32_t core) { fmt::format_to(std::back_inserter(out), "{}", core); });
}

}  // namespace graphso
