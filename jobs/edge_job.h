// The edge loop shared by every job, written once: for each edge whose source is in the
// frontier, dst receives scatter(src, weight) through gather(); a destination whose value
// changed joins the next frontier. Derived jobs supply scatter/gather (CRTP, so the calls inline);
// the only virtual call is per run of edges, not per edge. The loop is serial: the engine runs
// several jobs' runs (or pieces of one) on its threads at once, so gather() is atomic; a job may
// also supply gather_owned(), the same update without atomics, which the loop uses when the engine
// says this thread owns the run's destinations (EdgeRun::owns_destinations).
//
// Edges are sorted by source, so the loop walks them source by source (base/run_edges.h: raw
// records, or packed edges decoded into source groups, one instantiation each): the frontier is
// tested once per source, an inactive source's edges are skipped, and an unweighted scatter() is
// computed once per source.
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
// Bounded passes: a monotone job that defines within_reach() (BFS, SSSP) lets a vertex changed
// during a pass push in it only while its value is within its `reach` in hops (kDefaultReachHops)
// of the least value in the pass's frontier (reach_after); one beyond stays changed and pushes
// next pass. A change sent far ahead of the settled values is often wrong (a long path found
// before the short one), and unbounded it travels on, to be corrected and travel again: on
// road-FLA, BFS x4 pushed 7x as many edges beyond its passes' frontiers as its rounds pushed in
// all, and decoded 1.5-1.75x their edges (docs/jobs.md, "Bounded passes").
//
// Re-entry (EdgeRun::reentry, middleware/reentry.h): a run handed again after it went by. Only
// sources in next_ whose out-edges are all in the run push (begin_source(src, false, true)), found
// from next_'s bits rather than by walking the edges; reentry_pushes_ counts them.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "base/run_edges.h"
#include "jobs/job.h"

namespace graphso {

// Bounded passes: how far past the frontier's least value a pass's changes travel by default, in
// hops (BFS levels; SSSP scales it by EdgeJob::long_hop()); the jobs' `reach` parameter, 0 for
// no bound. Measured on BFS x4 and SSSP x4 (docs/jobs.md): 16 and 32 cost osm-rome passes, 128
// let road-FLA's wrong waves back in.
inline constexpr uint32_t kDefaultReachHops = 64;
// The most `reach` may be: SSSP's span, this many long hops of u32 weights (each under 2^34),
// stays below 2^64.
inline constexpr uint32_t kMostReachHops = uint32_t{1} << 30;

template <typename Derived, EdgeUse kEdgeUse>
class EdgeJob : public Job {
 public:
  using Job::Job;
  EdgeUse edge_use() const final { return reverse_edges_ ? EdgeUse::BothWays : EdgeUse::OutEdges; }

  bool async_capable() const override { return true; }
  bool wants_reentry(VertexId first, VertexId end) const override { return sweeps() && next_.any_in(first, end); }
  // Exactly the sources pushes() and the re-entry sweep let through; a job using edges both ways
  // also takes in-edges of its frontier, which a source range cannot tell.
  bool may_push(VertexId first, VertexId end, bool reentry) const override {
    if (reentry) return wants_reentry(first, end);
    if (reverse_edges_) return true;
    return frontier_.any_in(first, end) || (async_ && next_.any_in(first, end));
  }
  // Synchronous out-edge rounds: a source pushes the same value through each window's edges.
  // Asynchronous passes and re-entry ask whether a run holds all of a source's edges (`whole`);
  // both-ways jobs write sources too.
  bool takes_windows(bool reentry) const override { return !reentry && !async_ && !reverse_edges_; }
  PassChanges pass_changes() const override {
    if (!sweeps()) return {};
    return {&next_, requires { Derived::kChangedPushesWholeOnly; }};
  }

  void process(const EdgeRun& run) override {
    if (run.reentry && !sweeps()) return;
    with_run_edges(run, [&](const auto& edges) {
      if (reverse_edges_) {  // writes sources too: never owned
        process_both_ways(edges);
      } else if (async_) {
        if (run.owns_destinations && !requires { Derived::kAtomicAsyncGathers; }) process_out<true, true>(run, edges);
        else process_out<false, true>(run, edges);
      } else if (run.owns_destinations) {
        process_out<true, false>(run, edges);
      } else {
        process_out<false, false>(run, edges);
      }
    });
  }

  uint32_t update_bytes() const override { return sizeof(VertexId) + kValueBytes<Value<Derived>>; }

  void scatter_updates(const EdgeRun& run, std::vector<std::byte>& out) override {
    if (run.reentry && !sweeps()) return;
    with_run_edges(run, [&](const auto& edges) {
      if (reverse_edges_) scatter_both_ways(edges, out);
      else if (async_) scatter_out<true>(run, edges, out);
      else scatter_out<false>(run, edges, out);
    });
  }

  void gather_updates(std::span<const std::byte> updates) override {
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

  // A job that declares kWeighsEdges (SSSP) adds edge weights up. Its scatter() reads each
  // edge's weight, so its out-edge loops call it per edge; every other job's scatter() ignores
  // the weight and is called once per source on a weighted graph too (push_edges). And the
  // weights its loops push in passes are summed, with their
  // squares, once per run (WeightTally): long_hop() is their mean plus three standard
  // deviations so far (1 before any was pushed, and on an unweighted graph), what one hop of a
  // path a wave follows may add to a distance.
  static constexpr bool kWeighs = requires { Derived::kWeighsEdges; };
  double long_hop() const {
    const double edges = static_cast<double>(edges_weighed_.load(std::memory_order_relaxed));
    if (edges == 0) return 1.0;
    const double mean = weights_pushed_.load(std::memory_order_relaxed) / edges;
    const double variance = std::max(0.0, squares_pushed_.load(std::memory_order_relaxed) / edges - mean * mean);
    return mean + 3 * std::sqrt(variance);
  }
  // The least of `values` over the frontier (the settled bound: no value at most it can fall),
  // plus `span`, saturating; the type's largest for an empty frontier, or when `hops` is 0 (no
  // bound).
  template <typename T>
  T reach_after(const std::vector<T>& values, uint32_t hops, T span) const {
    constexpr T kMost = std::numeric_limits<T>::max();
    if (hops == 0) return kMost;
    T least = kMost;
    frontier_.for_each([&](uint64_t v) { least = std::min(least, values[v]); });
    return least > kMost - span ? kMost : least + span;
  }

  // What an asynchronous pass over the graph in memory must still push (jobs/bucket_pass.h): the
  // frontier and the changes not pushed yet, next_ then cleared (the pass pushes them all).
  std::vector<VertexId> take_pending() {
    std::vector<VertexId> pending;
    frontier_.for_each([&](uint64_t v) { pending.push_back(static_cast<VertexId>(v)); });
    next_.for_each([&](uint64_t v) { pending.push_back(static_cast<VertexId>(v)); });
    next_.clear();
    return pending;
  }

  // Asynchronous passes: called once per source run about to push (the source is in the
  // frontier, or changed in this pass); false skips it. Monotone jobs: a source whose whole
  // out-edges are in this run leaves next_ before its value is read (a change after that sets it
  // again), so it is processed next pass only if it changes after pushing; one beyond its
  // job's reach (bounded passes) does not push and stays changed.
  bool begin_source(VertexId src, bool in_frontier, bool whole) {
    if constexpr (requires(const Derived& d) { d.within_reach(src); })  // bounded passes
      if (!in_frontier && !static_cast<const Derived&>(*this).within_reach(src)) return false;
    if (whole) next_.reset_atomic(src);
    return true;
  }
  const std::vector<uint32_t>* degrees_ = nullptr;

 private:
  bool reverse_edges_ = kEdgeUse == EdgeUse::BothWays;
  std::atomic<uint64_t> edges_weighed_{0};
  std::atomic<double> weights_pushed_{0}, squares_pushed_{0};

  // Whether runs handed again (EdgeRun::reentry) are for this job: asynchronous, and not both
  // ways (an endpoint's edges are never known to be all in one run).
  bool sweeps() const { return async_ && !reverse_edges_; }

  // What scatter() returns: the value an update carries. An empty type carries nothing: the
  // record is the destination alone (k-core's "one incident edge").
  template <typename D>
  using Value = std::remove_cvref_t<decltype(std::declval<D&>().scatter(VertexId{}, Weight{}))>;
  template <typename V>
  static constexpr size_t kValueBytes = std::is_empty_v<V> ? 0 : sizeof(V);
  // A job that declares kSkipsSelfLoops is handed no edge u->u.
  static constexpr bool skips_self_loops() { return requires { Derived::kSkipsSelfLoops; }; }

  // Update records of out-edges, one source run at a time.
  template <bool kAsync, typename Edges>
  void scatter_out(const EdgeRun& run, const Edges& edges, std::vector<std::byte>& out) {
    UpdateWriter<Value<Derived>> emit(out, run.count);
    WeightTally tally;
    for_each_pushing_source<kAsync>(run, edges, [&](const SourceEdges& s) {
      push_edges<kAsync>(edges, s, tally, [&](VertexId dst, const auto& value) { emit(dst, value); });
    });
    add_weights(tally);
  }

  // The weights one run's loop pushed (kWeighs), added to the job's totals once, at its end.
  struct WeightTally {
    uint64_t edges = 0;
    double sum = 0, squares = 0;
    void add(Weight w) {
      ++edges;
      sum += w;
      squares += static_cast<double>(w) * w;
    }
  };
  void add_weights(const WeightTally& tally) {
    if (tally.edges == 0) return;
    edges_weighed_.fetch_add(tally.edges, std::memory_order_relaxed);
    weights_pushed_.fetch_add(tally.sum, std::memory_order_relaxed);
    squares_pushed_.fetch_add(tally.squares, std::memory_order_relaxed);
  }

  // Calls push(dst, scatter's value) for each of source s's edges a job takes: per edge for a
  // job that reads weights (kWeighs; their weights tallied in passes), else one value computed
  // once for all (called per edge, delta-PageRank's cost a load, a multiply and a divide each:
  // the compiler cannot move them past the gathers' stores).
  template <bool kAsync, typename Edges, typename Push>
  void push_edges(const Edges& edges, const SourceEdges& s, WeightTally& tally, Push&& push) {
    auto& self = static_cast<Derived&>(*this);
    if constexpr (Edges::kWeighted && kWeighs) {
      edges.for_each_edge(s, [&](VertexId dst, Weight w) {
        if (skips_self_loops() && dst == s.src) return;
        push(dst, self.scatter(s.src, w));
        if constexpr (kAsync) tally.add(w);
      });
    } else {
      const auto value = self.scatter(s.src, 1);
      edges.for_each_edge(s, [&](VertexId dst, Weight) {
        if (skips_self_loops() && dst == s.src) return;
        push(dst, value);
      });
    }
  }

  // Calls visit(SourceEdges) for each source's run of edges that pushes.
  // Asynchronous, the edges of sources outside the frontier are counted (async_extra_edges_),
  // once per run.
  template <bool kAsync, typename Edges, typename Visit>
  void for_each_pushing_source(const EdgeRun& run, const Edges& edges, Visit&& visit) {
    if constexpr (kAsync) {
      if (run.reentry) return for_each_reentering_source(edges, visit);
      uint64_t extra = 0;
      for_each_marked_source(edges, true, [&](const SourceEdges& s) {
        const bool in_frontier = frontier_.test(s.src);
        if (!in_frontier && !next_.test(s.src)) return;
        const bool whole = degrees_ && (*degrees_)[s.src] == s.count();
        if (!static_cast<Derived&>(*this).begin_source(s.src, in_frontier, whole)) return;
        if (!in_frontier) extra += s.count();
        visit(s);
      });
      if (extra) async_extra_edges_.fetch_add(extra, std::memory_order_relaxed);
    } else {
      for_each_marked_source(edges, false, [&](const SourceEdges& s) {
        if (frontier_.test(s.src)) visit(s);
      });
    }
  }

 protected:
  // Calls f(SourceEdges) for the run's sources in order: at least every one marked in frontier_
  // (or in next_, with_next) when f comes to it; f tests them again. A walk steps over every
  // source group of the run; where few are marked, they are found from the bitmaps' words over
  // the run's source range instead, each by galloping (Edges::find_source), so a thin frontier in
  // a resident chunk costs its sources, not the chunk's (road-FLA's BFS passes: 39% of the run
  // was this walk). A word is read again after each visit, so a source marked in next_ by the
  // run's own earlier edges is found as the walk would find it. Only decoded groups, whose
  // sources are checked to increase, are searched; records are walked.
  static constexpr uint64_t kGroupsPerMarked = 16;  // a gallop costs about as many steps of the walk
  template <typename Edges, typename F>
  void for_each_marked_source(const Edges& edges, bool with_next, F&& f) {
    if constexpr (Edges::kSourcesIncrease) {
      if (edges.size() > 0) {
        const uint64_t first = edges.first_source(), end = uint64_t{edges.last_source()} + 1;
        const uint64_t marked = frontier_.count_in(first, end) + (with_next ? next_.count_in(first, end) : 0);
        if (marked * kGroupsPerMarked < edges.groups()) return search_marked_sources(edges, first, end, with_next, f);
      }
    }
    edges.for_each_source(f);
  }
  template <typename Edges, typename F>
  void search_marked_sources(const Edges& edges, uint64_t first, uint64_t end, bool with_next, F&& f) {
    const uint64_t* frontier = frontier_.words();
    const uint64_t* next = next_.words();
    uint64_t cursor = 0;
    for (uint64_t w = first >> 6; w <= (end - 1) >> 6; ++w) {
      uint64_t open = ~uint64_t{0};  // the word's bits not passed yet
      if (w == first >> 6) open &= ~uint64_t{0} << (first & 63);
      if (w == (end - 1) >> 6 && (end & 63)) open &= (uint64_t{1} << (end & 63)) - 1;
      for (uint64_t word; (word = (frontier[w] | (with_next ? next[w] : 0)) & open) != 0;) {
        const int bit = std::countr_zero(word);
        open &= bit == 63 ? 0 : ~uint64_t{0} << (bit + 1);
        const SourceEdges s = edges.find_source(static_cast<VertexId>(w * 64 + static_cast<uint64_t>(bit)), cursor);
        if (s.count()) f(s);
      }
    }
  }

 private:
  // A run handed again went by every frontier source already: only a source changed since (in
  // next_) with all its out-edges here pushes. Such sources are found from next_'s bits over the
  // run's source range, each by galloping from the last (Edges::find_source), so a sweep with
  // little left to do costs little beside the edges it pushes.
  template <typename Edges, typename Visit>
  void for_each_reentering_source(const Edges& edges, Visit&& visit) {
    if (edges.size() == 0 || !degrees_) return;
    uint64_t pushed = 0, changed = 0, cursor = 0, edges_pushed = 0;
    next_.for_each_in(edges.first_source(), uint64_t{edges.last_source()} + 1, [&](uint64_t v) {
      const uint64_t degree = (*degrees_)[v];
      if (degree == 0) return;  // a sink never pushes: not work left undone
      ++changed;
      if (degree > edges.size()) return;
      const SourceEdges s = edges.find_source(static_cast<VertexId>(v), cursor);
      if (s.count() != degree) return;  // the run must hold all of v's edges
      if (!static_cast<Derived&>(*this).begin_source(s.src, false, true)) return;
      visit(s);
      ++pushed;
      edges_pushed += s.count();
    });
    if (changed) reentry_changed_.fetch_add(changed, std::memory_order_relaxed);
    if (pushed) reentry_pushes_.fetch_add(pushed, std::memory_order_relaxed);
    if (edges_pushed) {
      async_extra_edges_.fetch_add(edges_pushed, std::memory_order_relaxed);
      reentry_edges_.fetch_add(edges_pushed, std::memory_order_relaxed);
    }
  }

  // Both directions, edge by edge (asynchronous: an endpoint changed in this pass pushes too).
  template <typename Edges>
  void scatter_both_ways(const Edges& edges, std::vector<std::byte>& out) {
    auto& self = static_cast<Derived&>(*this);
    UpdateWriter<Value<Derived>> emit(out, 2 * edges.size());
    edges.for_each_source([&](const SourceEdges& s) {
      const bool src_active = active(s.src);
      edges.for_each_edge(s, [&](VertexId dst, Weight w) {
        if (skips_self_loops() && s.src == dst) return;
        if (src_active) emit(dst, self.scatter(s.src, w));
        if (active(dst)) emit(s.src, self.scatter(dst, w));
      });
    });
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
  bool gather_one(VertexId v, const V& value) {
    auto& self = static_cast<Derived&>(*this);
    if constexpr (kOwned && requires { self.gather_owned(v, value); }) return self.gather_owned(v, value);
    else return self.gather(v, value);
  }

  // Out-edges, one source run at a time.
  template <bool kOwned, bool kAsync, typename Edges>
  void process_out(const EdgeRun& run, const Edges& edges) {
    WeightTally tally;
    for_each_pushing_source<kAsync>(run, edges, [&](const SourceEdges& s) {
      push_edges<kAsync>(edges, s, tally, [&](VertexId dst, const auto& value) {
        if (gather_one<kOwned>(dst, value)) next_.set_atomic(dst);
      });
    });
    add_weights(tally);
  }

  // Both directions (a BothWays job on a graph not known to be symmetric), edge by edge;
  // asynchronous, an endpoint changed in this pass pushes too.
  template <typename Edges>
  void process_both_ways(const Edges& edges) {
    auto& self = static_cast<Derived&>(*this);
    edges.for_each_source([&](const SourceEdges& s) {
      edges.for_each_edge(s, [&](VertexId dst, Weight w) {
        if (skips_self_loops() && s.src == dst) return;
        if (active(s.src) && self.gather(dst, self.scatter(s.src, w))) next_.set_atomic(dst);
        if (active(dst) && self.gather(s.src, self.scatter(dst, w))) next_.set_atomic(s.src);
      });
    });
  }
};

// For jobs whose round ends by promoting the changed vertices: next frontier = changed set.
inline void promote_changed(Bitmap& frontier, Bitmap& next, bool& finished, bool& converged) {
  frontier.swap(next);
  next.clear();
  if (frontier.count() == 0) finished = converged = true;
}

}  // namespace graphso
