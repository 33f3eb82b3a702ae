#include "jobs/vertex_ranges.h"

#include "base/error.h"

namespace graphso {

std::vector<VertexRange> plan_ranges(uint64_t n, const std::function<uint64_t(VertexId)>& count, uint64_t capacity,
                                     const std::string& raise) {
  std::vector<VertexRange> ranges;
  VertexRange current;
  uint64_t held = 0;
  for (uint64_t v = 0; v < n; ++v) {
    const uint64_t c = count(static_cast<VertexId>(v));
    if (c > capacity)
      fail("a vertex has {} incident edges, more than the {} values the job holds at once; raise {}", c, capacity, raise);
    if (held + c > capacity) {
      current.end = static_cast<VertexId>(v);
      ranges.push_back(current);
      current.begin = static_cast<VertexId>(v);
      held = 0;
    }
    held += c;
  }
  current.end = static_cast<VertexId>(n);
  if (n > 0) ranges.push_back(current);
  return ranges;
}

void set_range(Bitmap& bits, VertexRange range) {
  for (uint64_t v = range.begin; v < range.end && (v & 63); ++v) bits.set(v);
  uint64_t v = (range.begin + 63) & ~uint64_t{63};
  for (; v + 64 <= range.end; v += 64) bits.words()[v >> 6] = ~uint64_t{0};
  for (v = std::max<uint64_t>(v, range.begin); v < range.end; ++v) bits.set(v);
}

void RangeLists::allocate(uint64_t vertices, uint64_t capacity) {
  values_.assign(capacity, 0);
  begin_.assign(vertices + 1, 0);
  end_.assign(vertices + 1, 0);
}

void RangeLists::start(VertexRange range, const std::function<uint64_t(VertexId)>& count) {
  range_ = range;
  uint64_t at = 0;
  for (uint64_t k = 0; k < range.size(); ++k) {
    begin_[k] = end_[k] = at;
    at += count(static_cast<VertexId>(range.begin + k));
  }
  if (at > values_.size()) fail("a range of vertices needs {} values, more than the {} held (internal error)", at, values_.size());
}

void VertexRanges::init(const GraphInfo& graph, uint64_t capacity, std::string raise) {
  vertices_ = graph.vertices;
  raise_ = std::move(raise);
  lists_.allocate(graph.vertices, capacity);
  plan_.clear();
  at_ = 0;
  degrees_ = graph.symmetric ? graph.out_degrees : nullptr;
  counting_ = degrees_ == nullptr;
  if (counting_) incident_.assign(graph.vertices, 0);
}

void VertexRanges::plan() {
  counting_ = false;
  plan_ = plan_ranges(vertices_, [this](VertexId v) { return incident(v); }, lists_.capacity(), raise_);
  at_ = 0;
}

void VertexRanges::start(Bitmap& frontier) {
  lists_.start(plan_[at_], [this](VertexId v) { return incident(v); });
  frontier.clear();
  set_range(frontier, plan_[at_]);
}

bool VertexRanges::advance() {
  if (++at_ < plan_.size()) return true;
  at_ = 0;
  return false;
}

}  // namespace graphso
