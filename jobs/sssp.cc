#include "jobs/sssp.h"

#include "jobs/results_text.h"

namespace graphso {

void SsspJob::init(const GraphInfo& graph, int threads) {
  threads_ = threads;
  bind(graph);
  dist_.assign(graph.vertices, kInfinity);
  dist_[source_] = 0;
  if (!async_) next_dist_ = dist_;
  lowered_ = async_ ? dist_.data() : next_dist_.data();
  frontier_ = Bitmap(graph.vertices);
  next_ = Bitmap(graph.vertices);
  frontier_.set(source_);
  real_ = graph.real_weights;
  reach_ = reach_hops_ && !real_ ? 0 : kInfinity;
}

std::string SsspJob::signature() const {
  return async_ ? fmt::format("sssp source={} async reach={}", source_, reach_hops_) : fmt::format("sssp source={}", source_);
}

void SsspJob::end_round() {
  ++rounds_;
  if (!async_) next_.for_each([this](uint64_t v) { dist_[v] = next_dist_[v]; });
  promote_changed(frontier_, next_, finished_, converged_);
  // kMostReachHops keeps the span below 2^64.
  if (async_ && !real_) reach_ = reach_after(dist_, reach_hops_, static_cast<uint64_t>(reach_hops_ * long_hop()));
}

void write_distances(uint64_t n, const std::function<uint64_t(VertexId)>& distance_of, OutFormat format,
                     const VertexOrder& order, const Job::ResultSink& sink, bool real) {
  const std::string_view unreached = format == OutFormat::Graphalytics ? "Infinity" : "inf";
  if (real) {
    constexpr double kUnreached = std::numeric_limits<double>::infinity();
    auto value_at = [&distance_of](VertexId v) {
      const uint64_t d = distance_of(v);
      return d == SsspJob::kInfinity ? kUnreached : std::bit_cast<double>(d);
    };
    return write_vertex_values<double>(n, format, order, sink, value_at, [unreached](fmt::memory_buffer& out, double dist) {
      if (dist == kUnreached) out.append(unreached);
      else fmt::format_to(std::back_inserter(out), "{:.9g}", dist);
    });
  }
  write_vertex_values<uint64_t>(n, format, order, sink, distance_of, [unreached](fmt::memory_buffer& out, uint64_t dist) {
    if (dist == SsspJob::kInfinity) out.append(unreached);
    else fmt::format_to(std::back_inserter(out), "{}", dist);
  });
}

void SsspJob::write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const {
  write_distances(dist_.size(), [this](VertexId v) { return dist_[v]; }, format, order, sink, real_);
}

}  // namespace graphso
