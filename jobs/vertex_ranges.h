// Jobs whose per-vertex work needs all of a vertex's neighbours at once (CDLP's label counts,
// LCC's neighbour sets) hold them for one range of vertices at a time, so their memory is a
// buffer of a fixed number of values, not the graph's edges: [0, n) is cut into contiguous
// ranges whose incident edges fit in the buffer, and each range takes its own pass over the
// edges of its vertices (the frontier is the range, so chunk and partition modes read only the
// chunks that hold them).
//
// RangeLists holds the range's lists: each vertex of the range gets room for its incident-edge
// count, and threads append to any vertex's list at once (one atomic cursor per vertex).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "base/bitmap.h"
#include "base/types.h"

namespace graphso {

struct VertexRange {
  VertexId begin = 0, end = 0;
  bool contains(VertexId v) const { return v >= begin && v < end; }
  uint64_t size() const { return end - begin; }
};

// Contiguous ranges covering [0, n) whose count(v) sum to at most `capacity` each. A vertex whose
// count alone is above it cannot be held: a one-line error naming it and `raise`, the parameter
// that makes the buffer larger.
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

}  // namespace graphso
