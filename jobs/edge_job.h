// The edge loop shared by every job, written once: for each edge whose source is in the
// frontier, dst receives scatter(src, weight) through gather(); a destination whose value
// changed joins the next frontier. Derived jobs supply scatter/gather (CRTP, so the calls inline);
// the only virtual call is per run of edges, not per edge. The loop is serial: the engine runs
// several jobs' runs (or pieces of one) on its threads at once, and all updates are atomic.
// For update-streaming engines the same two functions are split: scatter_updates() writes
// (dst, scatter(src, w)) records, gather_updates() feeds them to gather().
#pragma once

#include <cstring>
#include <type_traits>

#include "jobs/job.h"

namespace graphso {

template <typename Derived, EdgeUse kEdgeUse>
class EdgeJob : public Job {
 public:
  using Job::Job;
  EdgeUse edge_use() const final { return reverse_edges_ ? EdgeUse::BothWays : EdgeUse::OutEdges; }

  void process(const EdgeRun& run) final {
    if (run.weighted) reverse_edges_ ? process_records<WeightedEdge, true>(run) : process_records<WeightedEdge, false>(run);
    else reverse_edges_ ? process_records<Edge, true>(run) : process_records<Edge, false>(run);
  }

  uint32_t update_bytes() const final { return sizeof(VertexId) + sizeof(Value<Derived>); }

  void scatter_updates(const EdgeRun& run, std::vector<std::byte>& out) final {
    if (run.weighted) reverse_edges_ ? scatter_records<WeightedEdge, true>(run, out) : scatter_records<WeightedEdge, false>(run, out);
    else reverse_edges_ ? scatter_records<Edge, true>(run, out) : scatter_records<Edge, false>(run, out);
  }

  void gather_updates(std::span<const std::byte> updates) final {
    using V = Value<Derived>;
    auto& self = static_cast<Derived&>(*this);
    constexpr size_t kRecord = sizeof(VertexId) + sizeof(V);
    for (size_t at = 0; at + kRecord <= updates.size(); at += kRecord) {
      VertexId v;
      V value;
      std::memcpy(&v, updates.data() + at, sizeof(v));
      std::memcpy(&value, updates.data() + at + sizeof(v), sizeof(value));
      if (self.gather(v, value)) next_.set_atomic(v);
    }
  }

 protected:
  // A Both job on a symmetric graph finds every reverse edge among the out-edges, so it runs as
  // an Out job: the engines and the middleware then load only chunks with active sources.
  void use_symmetry(const GraphInfo& graph) { reverse_edges_ = kEdgeUse == EdgeUse::BothWays && !graph.symmetric; }

 private:
  bool reverse_edges_ = kEdgeUse == EdgeUse::BothWays;

  // What scatter() returns: the value an update carries.
  template <typename D>
  using Value = decltype(std::declval<D&>().scatter(VertexId{}, Weight{}));

  template <typename Record, bool kReverse>
  void scatter_records(const EdgeRun& run, std::vector<std::byte>& out) {
    using V = Value<Derived>;
    constexpr size_t kRecord = sizeof(VertexId) + sizeof(V);
    const auto* edges = reinterpret_cast<const Record*>(run.data);
    auto& self = static_cast<Derived&>(*this);
    // Room for every edge's record(s), trimmed to what was emitted.
    const size_t at = out.size();
    out.resize(at + run.count * kRecord * (kReverse ? 2 : 1));
    std::byte* next = out.data() + at;
    auto emit = [&next](VertexId dst, V value) {
      std::memcpy(next, &dst, sizeof(dst));
      std::memcpy(next + sizeof(dst), &value, sizeof(value));
      next += kRecord;
    };
    for (uint64_t i = 0; i < run.count; ++i) {
      const Record& e = edges[i];
      Weight w = 1;
      if constexpr (std::is_same_v<Record, WeightedEdge>) w = e.weight;
      if (frontier_.test(e.src)) emit(e.dst, self.scatter(e.src, w));
      if constexpr (kReverse) {
        if (frontier_.test(e.dst)) emit(e.src, self.scatter(e.dst, w));
      }
    }
    out.resize(static_cast<size_t>(next - out.data()));
  }

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
