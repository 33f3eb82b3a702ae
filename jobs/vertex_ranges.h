// Jobs whose per-vertex work needs all of a vertex's neighbours at once (CDLP's label counts,
// LCC's neighbour sets) hold them for one range of vertices at a time, so their memory is a
// buffer of a fixed number of values, not the graph's edges: [0, n) is cut into contiguous
// ranges whose incident edges fit in the buffer, and each range takes its own pass over the
// edges of its vertices (the frontier is the range, so chunk and partition modes read only the
// chunks that hold them).
//
// VertexRanges is the walk: each vertex's incident edges (on a symmetric graph its out-degree, the
// reverse edges being its in-edges; otherwise counted in a first round, each edge once at each
// end, self-loops not), the plan, and the range the job is on, whose lists RangeLists holds: each
// vertex of the range gets room for its incident-edge count, and threads append to any vertex's
// list at once (one atomic cursor per vertex).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <boost/sort/spreadsort/integer_sort.hpp>

#include "base/bitmap.h"
#include "base/run_edges.h"
#include "base/types.h"
#include "jobs/atomics.h"
#include "jobs/job.h"

namespace graphso {

struct VertexRange {
  VertexId begin = 0, end = 0;
  bool contains(VertexId v) const { return v >= begin && v < end; }
  uint64_t size() const { return end - begin; }
};

// Contiguous ranges covering [0, n) whose count(v) sum to at most `capacity` each. A vertex whose
// count alone is above it cannot be held: a one-line error giving its count and `raise`, the
// parameter that makes the buffer larger (ids here are the engine's, not the user's).
std::vector<VertexRange> plan_ranges(uint64_t n, const std::function<uint64_t(VertexId)>& count, uint64_t capacity,
                                     const std::string& raise);

// Sets the bits of a range (a frontier of one range).
void set_range(Bitmap& bits, VertexRange range);

class RangeLists {
 public:
  // Memory for `capacity` values and the offsets of up to `vertices` lists.
  static uint64_t bytes_for(uint64_t vertices, uint64_t capacity) {
    return capacity * sizeof(uint32_t) + 2 * (vertices + 1) * sizeof(uint64_t);
  }
  void allocate(uint64_t vertices, uint64_t capacity);
  uint64_t capacity() const { return values_.size(); }

  // Lays out the lists of the range's vertices, count(v) values of room each (their sum at most
  // capacity()), all empty.
  void start(VertexRange range, const std::function<uint64_t(VertexId)>& count);
  const VertexRange& range() const { return range_; }
  // Appends to v's list (v in the range, within its room); from several threads at once.
  void add(VertexId v, uint32_t value) {
    const uint64_t at = std::atomic_ref<uint64_t>(end_[v - range_.begin]).fetch_add(1, std::memory_order_relaxed);
    values_[at] = value;
  }
  // Appends all of `values` to v's list with one atomic add (a source's edges into its own list:
  // an atomic per edge cost CDLP a fifth of its time).
  void add_all(VertexId v, std::span<const uint32_t> values) {
    const uint64_t at = std::atomic_ref<uint64_t>(end_[v - range_.begin]).fetch_add(values.size(), std::memory_order_relaxed);
    std::copy(values.begin(), values.end(), values_.begin() + static_cast<std::ptrdiff_t>(at));
  }
  std::span<uint32_t> list(VertexId v) {
    const uint64_t k = v - range_.begin;
    return {values_.data() + begin_[k], values_.data() + end_[k]};
  }
  std::span<const uint32_t> list(VertexId v) const {
    const uint64_t k = v - range_.begin;
    return {values_.data() + begin_[k], values_.data() + end_[k]};
  }
  // Keeps the first `size` values of v's list (after removing duplicates in place).
  void shrink(VertexId v, uint64_t size) { end_[v - range_.begin] = begin_[v - range_.begin] + size; }

 private:
  VertexRange range_;
  std::vector<uint32_t> values_;
  std::vector<uint64_t> begin_, end_;  // per vertex of the range
};

class VertexRanges {
 public:
  // Memory for `capacity` values held at once, and the incident-edge counts of a directed graph.
  static uint64_t bytes_for(uint64_t vertices, uint64_t capacity) {
    return RangeLists::bytes_for(vertices, capacity) + vertices * sizeof(uint64_t);
  }
  // raise: the job's parameter that makes the buffer larger (named by the error for a vertex above it).
  void init(const GraphInfo& graph, uint64_t capacity, std::string raise);
  // Whether this round counts incident edges (a directed graph's first); count() takes its runs.
  bool counting() const { return counting_; }
  template <typename Edges>
  void count(const Edges& edges) {
    edges.for_each_source([&](const SourceEdges& s) {
      edges.for_each_edge(s, [&](VertexId dst, Weight) {
        if (dst == s.src) return;
        atomic_add<uint64_t>(incident_[s.src], 1);
        atomic_add<uint64_t>(incident_[dst], 1);
      });
    });
  }
  // The plan, once the counts are known (after the counting round, or at init on a symmetric graph).
  void plan();
  // Lays out the current range's lists, empty; the frontier becomes the range.
  void start(Bitmap& frontier);
  // On to the next range; false when that wraps round to the first (each range has had its turn).
  bool advance();
  // Once the range's pass is done: f(v, its list) for every vertex of the range, the list sorted,
  // on `threads` threads.
  template <typename F>
  void for_each_sorted_list(int threads, F&& f) {
    const VertexRange range = lists_.range();
    const int64_t size = static_cast<int64_t>(range.size());
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
    for (int64_t k = 0; k < size; ++k) {
      const VertexId v = range.begin + static_cast<VertexId>(k);
      std::span<uint32_t> list = lists_.list(v);
      boost::sort::spreadsort::integer_sort(list.begin(), list.end());  // a hub's long list in linear time
      f(v, list);
    }
  }

  RangeLists& lists() { return lists_; }
  const RangeLists& lists() const { return lists_; }
  const VertexRange& range() const { return lists_.range(); }
  uint64_t ranges() const { return plan_.size(); }

 private:
  uint64_t incident(VertexId v) const { return degrees_ ? (*degrees_)[v] : incident_[v]; }

  uint64_t vertices_ = 0;
  std::string raise_;
  const std::vector<uint32_t>* degrees_ = nullptr;  // a symmetric graph's out-degrees
  bool counting_ = false;
  std::vector<uint64_t> incident_;  // counted (a directed graph)
  std::vector<VertexRange> plan_;
  size_t at_ = 0;
  RangeLists lists_;
};

}  // namespace graphso
