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
// (dst, scatter(src, w)) records, gather_updates() feeds them to gather(); a scatter() of an empty
// type makes records of the destination alone. A job that declares kSkipsSelfLoops (k-core) is
// handed no edge u->u.
//
// Asynchronous (Job::set_async, for jobs that declare async_capable()): a source is processed when
// it is in the frontier OR changed earlier in this pass (next_), so a change travels on in the same
// pass through every edge that has not gone by. Before a source pushes, the job's begin_source()
// is told whether the run holds ALL of the source's out-edges (`whole`: its edges in the run equal
// its out-degree). The default, for monotone jobs (min labels, levels, distances), then takes the
// source out of next_ before reading its value: it has pushed its newest value through every
// out-edge, so it is processed again next pass only if it changes again. A delta job overrides
// begin_source() to choose the amount it pushes (jobs/pagerank.h). A thread owning the run's
// destinations still lowers them without atomics (the source's next_ bit is the only word two
// threads race on, and that is atomic); a job whose sources are also written by atomic exchanges
// (delta jobs: pending) declares kAtomicAsyncGathers and always gathers atomically.
//
// Re-entry (EdgeRun::reentry, middleware/reentry.h): a run handed again after it went by. Only
// sources in next_ whose out-edges are all in the run push (begin_source(src, false, true)), found
// from next_'s bits rather than by walking the edges; reentry_pushes_ counts them.
#pragma once

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "jobs/job.h"

namespace graphso {

template <typename Derived, EdgeUse kEdgeUse>
class EdgeJob : public Job {
 public:
  using Job::Job;
  EdgeUse edge_use() const final { return reverse_edges_ ? EdgeUse::BothWays : EdgeUse::OutEdges; }

  bool async_capable() const override { return true; }
  bool wants_reentry(VertexId first, VertexId end) const final { return sweeps() && next_.any_in(first, end); }
  PassChanges pass_changes() const final {
    if (!sweeps()) return {};
    return {&next_, requires { Derived::kChangedPushesWholeOnly; }};
  }

  void process(const EdgeRun& run) final {
    if (run.reentry && !sweeps()) return;
    if (reverse_edges_) {  // writes sources too: never owned
      if (run.weighted) process_both_ways<WeightedEdge>(run);
      else process_both_ways<Edge>(run);
    } else if (async_) {
      if (run.owns_destinations && !requires { Derived::kAtomicAsyncGathers; }) {
        if (run.weighted) process_out<WeightedEdge, true, true>(run);
        else process_out<Edge, true, true>(run);
      } else {
        if (run.weighted) process_out<WeightedEdge, false, true>(run);
        else process_out<Edge, false, true>(run);
      }
    } else if (run.owns_destinations) {
      if (run.weighted) process_out<WeightedEdge, true, false>(run);
      else process_out<Edge, true, false>(run);
    } else {
      if (run.weighted) process_out<WeightedEdge, false, false>(run);
      else process_out<Edge, false, false>(run);
    }
  }

  uint32_t update_bytes() const final { return sizeof(VertexId) + kValueBytes<Value<Derived>>; }

  void scatter_updates(const EdgeRun& run, std::vector<std::byte>& out) final {
    if (run.reentry && !sweeps()) return;
    if (reverse_edges_) {
      if (run.weighted) scatter_both_ways<WeightedEdge>(run, out);
      else scatter_both_ways<Edge>(run, out);
    } else if (async_) {
      if (run.weighted) scatter_out<WeightedEdge, true>(run, out);
      else scatter_out<Edge, true>(run, out);
    } else {
      if (run.weighted) scatter_out<WeightedEdge, false>(run, out);
      else scatter_out<Edge, false>(run, out);
    }
  }

  void gather_updates(std::span<const std::byte> updates) final {
    using V = Value<Derived>;
    auto& self = static_cast<Derived&>(*this);
    constexpr size_t kRecord = sizeof(VertexId) + kValueBytes<V>;
    for (size_t at = 0; at + kRecord <= updates.size(); at += kRecord) {
      VertexId v;
      V value{};
      std::memcpy(&v, updates.data() + at, sizeof(v));
      if constexpr (kValueBytes<V> != 0) std::memcpy(&value, updates.data() + at + sizeof(v), sizeof(value));
      if (self.gather(v, value)) next_.set_atomic(v);
    }
  }

 protected:
  // Every derived init() calls it. The graph's out-degrees tell a `whole` source run. A Both job
  // on a symmetric graph finds every reverse edge among the out-edges, so it runs as an Out job:
  // the engines and the middleware then load only chunks with active sources.
  void bind(const GraphInfo& graph) {
    degrees_ = graph.out_degrees;
    reverse_edges_ = kEdgeUse == EdgeUse::BothWays && !graph.symmetric;
  }

  // Asynchronous passes: called once per source run about to push (the source is in the
  // frontier, or changed in this pass); false skips it. Monotone jobs: a source whose whole
  // out-edges are in this run leaves next_ before its value is read (a change after that sets it
  // again), so it is processed next pass only if it changes after pushing.
  bool begin_source(VertexId src, bool /*in_frontier*/, bool whole) {
    if (whole) next_.reset_atomic(src);
    return true;
  }
  const std::vector<uint32_t>* degrees_ = nullptr;

 private:
  bool reverse_edges_ = kEdgeUse == EdgeUse::BothWays;

  // Whether runs handed again (EdgeRun::reentry) are for this job: asynchronous, and not both
  // ways (an endpoint's edges are never known to be all in one run).
  bool sweeps() const { return async_ && !reverse_edges_; }

  // Whether a source with `edges` edges in this run pushes: synchronous, when it is in the
  // frontier; asynchronous, as begin_source() says.
  template <bool kAsync>
  bool pushes(VertexId src, uint64_t edges) {
    if constexpr (!kAsync) {
      return frontier_.test(src);
    } else {
      const bool in_frontier = frontier_.test(src);
      if (!in_frontier && !next_.test(src)) return false;
      return static_cast<Derived&>(*this).begin_source(src, in_frontier, degrees_ && (*degrees_)[src] == edges);
    }
  }

  // What scatter() returns: the value an update carries. An empty type carries nothing: the
  // record is the destination alone (k-core's "one incident edge").
  template <typename D>
  using Value = decltype(std::declval<D&>().scatter(VertexId{}, Weight{}));
  template <typename V>
  static constexpr size_t kValueBytes = std::is_empty_v<V> ? 0 : sizeof(V);
  // A job that declares kSkipsSelfLoops is handed no edge u->u.
  static constexpr bool skips_self_loops() { return requires { Derived::kSkipsSelfLoops; }; }

  // Update records of out-edges, one source run at a time.
  template <typename Record, bool kAsync>
  void scatter_out(const EdgeRun& run, std::vector<std::byte>& out) {
    const auto* edges = reinterpret_cast<const Record*>(run.data);
    auto& self = static_cast<Derived&>(*this);
    UpdateWriter<Value<Derived>> emit(out, run.count);
    for_each_pushing_source<kAsync>(run, edges, [&](VertexId src, uint64_t first, uint64_t end) {
      for (uint64_t k = first; k < end; ++k) {
        if (skips_self_loops() && edges[k].dst == src) continue;
        Weight w = 1;
        if constexpr (std::is_same_v<Record, WeightedEdge>) w = edges[k].weight;
        emit(edges[k].dst, self.scatter(src, w));
      }
    });
  }

  // Calls visit(src, first, end) for each run [first, end) of one source's edges that pushes.
  template <bool kAsync, typename Record, typename Visit>
  void for_each_pushing_source(const EdgeRun& run, const Record* edges, Visit&& visit) {
    if constexpr (kAsync) {
      if (run.reentry) return for_each_reentering_source(run, edges, visit);
    }
    const uint64_t count = run.count;
    uint64_t i = 0;
    while (i < count) {
      const VertexId src = edges[i].src;
      uint64_t end = i + 1;
      while (end < count && edges[end].src == src) ++end;
      if (pushes<kAsync>(src, end - i)) visit(src, i, end);
      i = end;
    }
  }

  // A run handed again went by every frontier source already: only a source changed since (in
  // next_) with all its out-edges here pushes. Such sources are found from next_'s bits over the
  // run's source range, each by a binary search, so a sweep with little left to do costs little
  // beside the edges it pushes.
  template <typename Record, typename Visit>
  void for_each_reentering_source(const EdgeRun& run, const Record* edges, Visit&& visit) {
    if (run.count == 0 || !degrees_) return;
    const Record *at = edges, *end = edges + run.count;
    uint64_t pushed = 0;
    auto before = [](const Record& e, uint64_t id) { return e.src < id; };
    next_.for_each_in(edges[0].src, uint64_t{end[-1].src} + 1, [&](uint64_t v) {
      const uint64_t degree = (*degrees_)[v];
      if (degree > static_cast<uint64_t>(end - at)) return;
      // Galloping from the last find: the bits come in order, mostly close together.
      uint64_t step = 1;
      while (step < static_cast<uint64_t>(end - at) && at[step].src < v) at += step, step *= 2;
      at = std::lower_bound(at, at + std::min<uint64_t>(step + 1, static_cast<uint64_t>(end - at)), v, before);
      // Edges are sorted by source: the run holds all of v's iff its degree-th edge from here is v's.
      if (at == end || at->src != v || degree > static_cast<uint64_t>(end - at) || at[degree - 1].src != v) return;
      if (!static_cast<Derived&>(*this).begin_source(static_cast<VertexId>(v), false, true)) return;
      const uint64_t first = static_cast<uint64_t>(at - edges);
      visit(static_cast<VertexId>(v), first, first + degree);
      ++pushed;
    });
    if (pushed) reentry_pushes_.fetch_add(pushed, std::memory_order_relaxed);
  }

  // Both directions, edge by edge (asynchronous: an endpoint changed in this pass pushes too).
  template <typename Record>
  void scatter_both_ways(const EdgeRun& run, std::vector<std::byte>& out) {
    const auto* edges = reinterpret_cast<const Record*>(run.data);
    auto& self = static_cast<Derived&>(*this);
    UpdateWriter<Value<Derived>> emit(out, 2 * run.count);
    for (uint64_t i = 0; i < run.count; ++i) {
      const Record& e = edges[i];
      if (skips_self_loops() && e.src == e.dst) continue;
      Weight w = 1;
      if constexpr (std::is_same_v<Record, WeightedEdge>) w = e.weight;
      if (active(e.src)) emit(e.dst, self.scatter(e.src, w));
      if (active(e.dst)) emit(e.src, self.scatter(e.dst, w));
    }
  }

  // Appends (dst, value) records to `out`: room for `most` of them is made first, and what was not
  // written is trimmed when the writer goes.
  template <typename V>
  class UpdateWriter {
   public:
    static constexpr size_t kRecord = sizeof(VertexId) + kValueBytes<V>;
    UpdateWriter(std::vector<std::byte>& out, uint64_t most) : out_(out) {
      const size_t at = out.size();
      out.resize(at + most * kRecord);
      next_ = out.data() + at;
    }
    ~UpdateWriter() { out_.resize(static_cast<size_t>(next_ - out_.data())); }
    UpdateWriter(const UpdateWriter&) = delete;
    UpdateWriter& operator=(const UpdateWriter&) = delete;
    void operator()(VertexId dst, V value) {
      std::memcpy(next_, &dst, sizeof(dst));
      if constexpr (kValueBytes<V> != 0) std::memcpy(next_ + sizeof(dst), &value, sizeof(value));
      next_ += kRecord;
    }

   private:
    std::vector<std::byte>& out_;
    std::byte* next_;
  };

  // A source of a both-ways job takes part in this round: in the frontier, or (asynchronous)
  // changed in this pass.
  bool active(VertexId v) const { return frontier_.test(v) || (async_ && next_.test(v)); }

  template <bool kOwned, typename V>
  bool gather_one(VertexId v, V value) {
    auto& self = static_cast<Derived&>(*this);
    if constexpr (kOwned && requires { self.gather_owned(v, value); }) return self.gather_owned(v, value);
    else return self.gather(v, value);
  }

  // Out-edges, one source run at a time.
  template <typename Record, bool kOwned, bool kAsync>
  void process_out(const EdgeRun& run) {
    const auto* edges = reinterpret_cast<const Record*>(run.data);
    auto& self = static_cast<Derived&>(*this);
    for_each_pushing_source<kAsync>(run, edges, [&](VertexId src, uint64_t first, uint64_t end) {
      if constexpr (std::is_same_v<Record, WeightedEdge>) {
        for (uint64_t k = first; k < end; ++k) {
          if (skips_self_loops() && edges[k].dst == src) continue;
          if (gather_one<kOwned>(edges[k].dst, self.scatter(src, edges[k].weight))) next_.set_atomic(edges[k].dst);
        }
      } else {
        const auto value = self.scatter(src, 1);
        for (uint64_t k = first; k < end; ++k) {
          if (skips_self_loops() && edges[k].dst == src) continue;
          if (gather_one<kOwned>(edges[k].dst, value)) next_.set_atomic(edges[k].dst);
        }
      }
    });
  }

  // Both directions (a BothWays job on a graph not known to be symmetric), edge by edge;
  // asynchronous, an endpoint changed in this pass pushes too.
  template <typename Record>
  void process_both_ways(const EdgeRun& run) {
    const auto* edges = reinterpret_cast<const Record*>(run.data);
    auto& self = static_cast<Derived&>(*this);
    const uint64_t count = run.count;
    for (uint64_t i = 0; i < count; ++i) {
      const Record& e = edges[i];
      if (skips_self_loops() && e.src == e.dst) continue;
      Weight w = 1;
      if constexpr (std::is_same_v<Record, WeightedEdge>) w = e.weight;
      if (active(e.src) && self.gather(e.dst, self.scatter(e.src, w))) next_.set_atomic(e.dst);
      if (active(e.dst) && self.gather(e.src, self.scatter(e.dst, w))) next_.set_atomic(e.src);
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
