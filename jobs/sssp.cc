#include "jobs/sssp.h"

#include "jobs/results_text.h"

namespace graphso {

void SsspJob::init(const GraphInfo& graph, int threads) {
  threads_ = threads;
  dist_.assign(graph.vertices, kInfinity);
  dist_[source_] = 0;
  frontier_ = Bitmap(graph.vertices);
  next_ = Bitmap(graph.vertices);
  frontier_.set(source_);
}

void SsspJob::end_round() {
  ++rounds_;
  promote_changed(frontier_, next_, finished_, converged_);
}

std::string SsspJob::format_results(OutFormat format, const VertexOrder& order) const {
  return format_vertex_values(dist_, format, order, [](fmt::memory_buffer& out, uint64_t dist) {
    if (dist == kInfinity) out.append(std::string_view("inf"));
    else fmt::format_to(std::back_inserter(out), "{}", dist);
  });
}

}  // namespace graphso
