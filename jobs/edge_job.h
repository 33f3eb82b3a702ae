// The edge loop shared by every job, written once: for each edge whose source is in the
// frontier, dst receives scatter(src, weight) through gather(); a destination whose value
// changed joins the next frontier. Derived jobs supply scatter/gather (CRTP, so the calls inline);
// the only virtual call is per run of edges, not per edge. The loop is serial: the engine runs
// several jobs' runs (or pieces of one) on its threads at once, and all updates are atomic.
#pragma once

#include <type_traits>

#include "jobs/job.h"

namespace graphso {

template <typename Derived, Direction kDirection>
class EdgeJob : public Job {
 public:
  using Job::Job;
  Direction direction() const final { return reverse_edges_ ? Direction::Both : Direction::Out; }

  void process(const EdgeRun& run) final {
    if (run.weighted) reverse_edges_ ? process_records<WeightedEdge, true>(run) : process_records<WeightedEdge, false>(run);
    else reverse_edges_ ? process_records<Edge, true>(run) : process_records<Edge, false>(run);
  }

 protected:
  // A Both job on a symmetric graph finds every reverse edge among the out-edges, so it runs as
  // an Out job: the engines and the middleware then load only chunks with active sources.
  void use_symmetry(const GraphInfo& graph) { reverse_edges_ = kDirection == Direction::Both && !graph.symmetric; }

 private:
  bool reverse_edges_ = kDirection == Direction::Both;

  template <typename Record, bool kReverse>
  void process_records(const EdgeRun& run) {
    const auto* edges = reinterpret_cast<const Record*>(run.data);
    auto& self = static_cast<Derived&>(*this);
    const uint64_t count = run.count;
    for (uint64_t i = 0; i < count; ++i) {
      const Record& e = edges[i];
      Weight w = 1;
      if constexpr (std::is_same_v<Record, WeightedEdge>) w = e.weight;
      if (frontier_.test(e.src) && self.gather(e.dst, self.scatter(e.src, w))) next_.set_atomic(e.dst);
      if constexpr (kReverse) {
        if (frontier_.test(e.dst) && self.gather(e.src, self.scatter(e.dst, w))) next_.set_atomic(e.src);
      }
    }
  }
};

// For jobs whose round ends by promoting the changed vertices: next frontier = changed set.
inline void promote_changed(Bitmap& frontier, Bitmap& next, bool& finished, bool& converged) {
  frontier.swap(next);
  next.clear();
  if (frontier.count() == 0) finished = converged = true;
}

}  // namespace graphso
