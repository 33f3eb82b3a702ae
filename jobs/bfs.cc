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

void BfsJob::end_round() {
  ++rounds_;
  promote_changed(frontier_, next_, finished_, converged_);
  if (async_) reach_ = reach_after(level_, reach_hops_, reach_hops_);
}

void BfsJob::write_results(OutFormat format, const VertexOrder& order, const ResultSink& sink) const {
  const std::string_view unreached = format == OutFormat::Graphalytics ? "9223372036854775807" : "-1";
  write_vertex_values(level_, format, order, sink, [unreached](fmt::memory_buffer& out, uint32_t level) {
    if (level == kUnreached) out.append(unreached);
    else fmt::format_to(std::back_inserter(out), "{}", level);
  });
}

}  // namespace graphso
