#include "jobs/bfs.h"

#include "jobs/results_text.h"

namespace graphso {

void BfsJob::init(const GraphInfo& graph, int threads) {
  threads_ = threads;
  bind(graph);
  level_.assign(graph.vertices, kUnreached);
  level_[source_] = 0;
  frontier_ = Bitmap(graph.vertices);
  next_ = Bitmap(graph.vertices);
  frontier_.set(source_);
  reach_ = reach_after(level_, reach_hops_, reach_hops_);
}

std::string BfsJob::signature() const {
  // The reach bounds passes only: synchronous levels are the same whatever it is.
  return async_ ? fmt::format("bfs source={} async reach={}", source_, reach_hops_) : fmt::format("bfs source={}", source_);
}

uint32_t* BfsJob::levels_for_group(uint64_t vertices) {
  level_.assign(vertices, kUnreached);
  level_[source_] = 0;
  return level_.data();
}

void BfsJob::end_round() {
  ++rounds_;
  promote_changed(frontier_, next_, finished_, converged_);
  if (async_) reach_ = reach_after(level_, reach_hops_, reach_hops_);
}

void BfsJob::write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const {
  const std::string_view unreached = format == OutFormat::Graphalytics ? "9223372036854775807" : "-1";
  write_vertex_values(level_, format, order, sink, [unreached](fmt::memory_buffer& out, uint32_t level) {
    if (level == kUnreached) out.append(unreached);
    else fmt::format_to(std::back_inserter(out), "{}", level);
  });
}

}  // namespace graphso
