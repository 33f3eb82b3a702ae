// A run's edges as every edge loop reads them: source by source, whatever the run's form.
//   RecordEdges   Edge or WeightedEdge records, each carrying its source (raw graphs); a
//                 source's edges are found by comparing consecutive sources
//   GroupEdges    source groups (packed pages decoded by the engine, EdgeRun::groups): each
//                 source once, its first destination, then the deltas to the others, added up
//                 here as the loop goes (the decoder never writes a destination)
// A loop is written once against this interface and instantiated for each form by
// with_run_edges(), so neither form costs the other a branch per edge:
//   edges.for_each_source([&](const SourceEdges& s) {          // s.src, s.count()
//     edges.for_each_edge(s, [&](VertexId dst, Weight w) { ... });
//   });
// (for_each_edge_until stops at the first edge its function returns true for: a bottom-up BFS
// step's search for a parent.) A windowed run (EdgeRun::windowed, only ever source groups) is its
// own form, GroupEdges<weighted, true>, so the window costs the other forms nothing.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "base/edge_run.h"
#include "base/types.h"

namespace graphso {

// One source's edges [first, end) in a run (and, for source groups, its group).
struct SourceEdges {
  VertexId src = 0;
  uint64_t first = 0, end = 0;
  uint64_t group = 0;
  uint64_t count() const { return end - first; }
};

// The first index in [from, count) whose item is not before v, galloping from `from` (the
// items are sorted, and asked for in increasing order, mostly close together).
template <typename Item, typename Before>
uint64_t gallop(const Item* items, uint64_t from, uint64_t count, VertexId v, Before before) {
  uint64_t step = 1;
  while (step < count - from && before(items[from + step], v)) from += step, step *= 2;
  return static_cast<uint64_t>(std::lower_bound(items + from, items + std::min(from + step + 1, count), v, before) - items);
}

template <typename Record>
class RecordEdges {
 public:
  static constexpr bool kWeighted = std::is_same_v<Record, WeightedEdge>;
  // Whether sources are known to increase run-wide (records are sorted by prep, but nothing checks
  // a run's order before its edges are walked).
  static constexpr bool kSourcesIncrease = false;
  explicit RecordEdges(const EdgeRun& run) : edges_(reinterpret_cast<const Record*>(run.data)), count_(run.count) {}

  uint64_t size() const { return count_; }
  // Calls visit(SourceEdges) for each source's run of edges, in order.
  template <typename Visit>
  void for_each_source(Visit&& visit) const {
    uint64_t i = 0;
    while (i < count_) {
      const VertexId src = edges_[i].src;
      uint64_t end = i + 1;
      while (end < count_ && edges_[end].src == src) ++end;
      visit(SourceEdges{src, i, end, 0});
      i = end;
    }
  }
  // Calls f(dst, weight) for each of the source's edges, in order (weight 1 when unweighted).
  template <typename F>
  void for_each_edge(const SourceEdges& s, F&& f) const {
    for_each_edge_until(s, [&f](VertexId dst, Weight w) {
      f(dst, w);
      return false;
    });
  }
  // The same until f returns true (a search that found what it looked for).
  template <typename F>
  void for_each_edge_until(const SourceEdges& s, F&& f) const {
    for (uint64_t k = s.first; k < s.end; ++k) {
      if constexpr (kWeighted) {
        if (f(edges_[k].dst, edges_[k].weight)) return;
      } else if (f(edges_[k].dst, Weight{1})) {
        return;
      }
    }
  }
  // The sources' range: [first, last]. The run is not empty.
  VertexId first_source() const { return edges_[0].src; }
  VertexId last_source() const { return edges_[count_ - 1].src; }
  // Source v's edges in the run (count() 0 when it has none), searched from `cursor` on, which
  // moves to them: sources asked for in increasing order are found by galloping.
  SourceEdges find_source(VertexId v, uint64_t& cursor) const {
    auto before = [](const Record& e, VertexId id) { return e.src < id; };
    cursor = gallop(edges_, cursor, count_, v, before);
    uint64_t end = cursor;
    while (end < count_ && edges_[end].src == v) ++end;
    return {v, cursor, end, 0};
  }

 private:
  const Record* edges_;
  uint64_t count_;
};

// kWindowed: the run has a destination window (EdgeRun::windowed); its loops pass over the
// edges outside it (a group wholly outside at once, by its bounds).
template <bool kWeightedGroups, bool kWindowed = false>
class GroupEdges {
 public:
  static constexpr bool kWeighted = kWeightedGroups;
  static constexpr bool kSourcesIncrease = true;  // the decoder checks it
  explicit GroupEdges(const EdgeRun& run) : g_(run.groups), window_begin_(run.window_begin), window_span_(run.window_span) {}

  uint64_t size() const { return g_.end - g_.begin; }
  uint64_t groups() const { return g_.groups; }
  // Edge indexes are the groups' own: a piece's first edge need not be 0.
  template <typename Visit>
  void for_each_source(Visit&& visit) const {
    for (uint64_t g = 0; g < g_.groups; ++g) visit(source(g));
  }
  template <typename F>
  void for_each_edge(const SourceEdges& s, F&& f) const {
    for_each_edge_until(s, [&f](VertexId dst, Weight w) {
      f(dst, w);
      return false;
    });
  }
  template <typename F>
  void for_each_edge_until(const SourceEdges& s, F&& f) const {
    if constexpr (kWindowed)
      if (g_.highest[s.group] < window_begin_ || uint64_t{g_.firsts[s.group]} >= window_begin_ + window_span_) return;
    VertexId dst = g_.firsts[s.group];
    for (uint64_t k = g_.offsets[s.group]; k < s.first; ++k) dst += g_.deltas[k];  // a piece begun inside the group
    for (uint64_t k = s.first; k < s.end; ++k) {
      dst += g_.deltas[k];
      // A group's destinations never decrease (its deltas are unsigned, and a group whose sum
      // passes 32 bits is refused by the range check before any job sees it): past the window's
      // end nothing more of it is in the window.
      if constexpr (kWindowed) {
        if (dst < window_begin_) continue;
        if (dst - uint64_t{window_begin_} >= window_span_) return;
      }
      if constexpr (kWeighted) {
        if (f(dst, g_.weights[k])) return;
      } else if (f(dst, Weight{1})) {
        return;
      }
    }
  }

  // Bounds of every destination of the source's group (SourceGroups::highest): a range check
  // of two values, not one per edge.
  std::pair<VertexId, VertexId> destination_bounds(const SourceEdges& s) const {
    return {g_.firsts[s.group], g_.highest[s.group]};
  }
  VertexId first_source() const { return g_.sources[0]; }
  VertexId last_source() const { return g_.sources[g_.groups - 1]; }
  // `cursor` counts groups.
  SourceEdges find_source(VertexId v, uint64_t& cursor) const {
    auto before = [](VertexId s, VertexId id) { return s < id; };
    cursor = gallop(g_.sources, cursor, g_.groups, v, before);
    if (cursor == g_.groups || g_.sources[cursor] != v) return {v, 0, 0, 0};
    return source(cursor);
  }

 private:
  SourceEdges source(uint64_t g) const {
    return {g_.sources[g], std::max<uint64_t>(g_.offsets[g], g_.begin), std::min<uint64_t>(g_.offsets[g + 1], g_.end), g};
  }
  SourceGroups g_;
  VertexId window_begin_;
  uint64_t window_span_;
};

// Calls f with the run's edges in their form: RecordEdges<Edge or WeightedEdge> or
// GroupEdges<weighted>.
template <typename F>
decltype(auto) with_run_edges(const EdgeRun& run, F&& f) {
  if (run.grouped()) {
    if (run.windowed()) {
      if (run.weighted) return f(GroupEdges<true, true>(run));
      return f(GroupEdges<false, true>(run));
    }
    if (run.weighted) return f(GroupEdges<true>(run));
    return f(GroupEdges<false>(run));
  }
  if (run.weighted) return f(RecordEdges<WeightedEdge>(run));
  return f(RecordEdges<Edge>(run));
}

// Calls visit(src, dst, weight) for every edge of the run (tests, checks; not the jobs' loops).
template <typename Visit>
void for_each_edge(const EdgeRun& run, Visit&& visit) {
  with_run_edges(run, [&](const auto& edges) {
    edges.for_each_source([&](const SourceEdges& s) {
      edges.for_each_edge(s, [&](VertexId dst, Weight w) { visit(s.src, dst, w); });
    });
  });
}

}  // namespace graphso
