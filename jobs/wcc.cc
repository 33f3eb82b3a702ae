#include "jobs/wcc.h"

#include "jobs/results_text.h"

namespace graphso {

void WccJob::init(const GraphInfo& graph, int threads) {
  threads_ = threads;
  label_.resize(graph.vertices);
  for (uint64_t v = 0; v < graph.vertices; ++v) label_[v] = static_cast<uint32_t>(v);
  frontier_ = Bitmap(graph.vertices);
  next_ = Bitmap(graph.vertices);
  frontier_.set_all();
}

void WccJob::end_round() {
  ++rounds_;
  promote_changed(frontier_, next_, finished_, converged_);
}

std::string WccJob::format_results(OutFormat format) const {
  return format_vertex_values(label_, format, [](fmt::memory_buffer& out, uint32_t label) {
    fmt::format_to(std::back_inserter(out), "{}", label);
  });
}

}  // namespace graphso
