// The edge loop shared by every job, written once: for each edge whose source is in the
// frontier, dst receives scatter(src, weight) through gather(); a destination whose value
// changed joins the next frontier. Derived jobs supply scatter/gather (CRTP, so the calls inline);
// the only virtual call is per run of edges, not per edge. The loop is serial: the engine runs
// several jobs' runs (or pieces of one) on its threads at once, so gather() is atomic; a job may
// also supply gather_owned(), the same update without atomics, which the loop uses when the engine
// says this thread owns the run's destinations (EdgeRun::owns_destinations).
//
// Edges are sorted by source, so the loop walks runs of equal sources: the frontier is tested
// once per source, an inactive source's edges are skipped, and an unweighted scatter() is computed
// once per source.
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
    if (reverse_edges_) {  // writes sources too: never owned
      if (run.weighted) process_both_ways<WeightedEdge>(run);
      else process_both_ways<Edge>(run);
    } else if (run.owns_destinations) {
      if (run.weighted) process_out<WeightedEdge, true>(run);
      else process_out<Edge, true>(run);
    } else {
      if (run.weighted) process_out<WeightedEdge, false>(run);
      else process_out<Edge, false>(run);
    }
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

  template <bool kOwned, typename V>
  bool gather_one(VertexId v, V value) {
    auto& self = static_cast<Derived&>(*this);
    if constexpr (kOwned && requires { self.gather_owned(v, value); }) return self.gather_owned(v, value);
    else return self.gather(v, value);
  }

  // Out-edges, one source run at a time.
  template <typename Record, bool kOwned>
  void process_out(const EdgeRun& run) {
    const auto* edges = reinterpret_cast<const Record*>(run.data);
    auto& self = static_cast<Derived&>(*this);
    const uint64_t count = run.count;
    uint64_t i = 0;
    while (i < count) {
      const VertexId src = edges[i].src;
      uint64_t end = i + 1;
      while (end < count && edges[end].src == src) ++end;
      if (frontier_.test(src)) {
        if constexpr (std::is_same_v<Record, WeightedEdge>) {
          for (uint64_t k = i; k < end; ++k)
            if (gather_one<kOwned>(edges[k].dst, self.scatter(src, edges[k].weight))) next_.set_atomic(edges[k].dst);
        } else {
          const auto value = self.scatter(src, 1);
          for (uint64_t k = i; k < end; ++k)
            if (gather_one<kOwned>(edges[k].dst, value)) next_.set_atomic(edges[k].dst);
        }
      }
      i = end;
    }
  }

  // Both directions (a BothWays job on a graph not known to be symmetric), edge by edge.
  template <typename Record>
  void process_both_ways(const EdgeRun& run) {
    const auto* edges = reinterpret_cast<const Record*>(run.data);
    auto& self = static_cast<Derived&>(*this);
    const uint64_t count = run.count;
    for (uint64_t i = 0; i < count; ++i) {
      const Record& e = edges[i];
      Weight w = 1;
      if constexpr (std::is_same_v<Record, WeightedEdge>) w = e.weight;
      if (frontier_.test(e.src) && self.gather(e.dst, self.scatter(e.src, w))) next_.set_atomic(e.dst);
      if (frontier_.test(e.dst) && self.gather(e.src, self.scatter(e.dst, w))) next_.set_atomic(e.src);
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
