#include "jobs/lcc.h"

#include <algorithm>

#include "base/error.h"
#include "base/run_edges.h"
#include "jobs/atomics.h"
#include "jobs/results_text.h"

namespace graphso {
namespace {

// M(y) is probed in the bitmap of M(x) up to this many times M(x)'s size; past it M(x)'s members are
// looked up in M(y) by galloping. A merge of the two, taken before from 1x to 16x, cost more than
// the probes: its branches follow the data (docs/evaluation.md, LCC's intersections).
constexpr uint64_t kProbeAtMost = 64;

// Calls f(v) for every v in both sorted lists. A short list against a long one (a hub's) looks
// its values up by galloping instead of walking the long one.
template <typename F>
void for_each_common(std::span<const uint32_t> a, std::span<const uint32_t> b, F&& f) {
  if (a.size() > b.size()) std::swap(a, b);
  if (a.size() * 16 < b.size()) {
    uint64_t at = 0;
    for (uint32_t v : a) {
      at = gallop(b.data(), at, b.size(), v, [](uint32_t item, uint32_t x) { return item < x; });
      if (at == b.size()) return;
      if (b[at] == v) f(v);
    }
    return;
  }
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] < b[j]) ++i;
    else if (b[j] < a[i]) ++j;
    else f(a[i]), ++i, ++j;
  }
}

// Calls f(v) for every v in `list` whose bit (v - base) is set in `marked`. A tenth or so are, at
// random, so a branch per probe would mispredict: each block's hits are gathered without one, then
// passed on (R-MAT 20 symmetrised, out of core: 0.72x the time of a branch per probe).
template <typename F>
void for_each_marked(const Bitmap& marked, VertexId base, std::span<const uint32_t> list, F&& f) {
  constexpr size_t kBlock = 256;
  uint32_t hits[kBlock];
  const uint64_t* words = marked.words();
  for (size_t at = 0; at < list.size(); at += kBlock) {
    const size_t end = std::min(list.size(), at + kBlock);
    size_t found = 0;
    for (size_t k = at; k < end; ++k) {
      const uint64_t i = list[k] - base;
      hits[found] = list[k];
      found += (words[i >> 6] >> (i & 63)) & 1u;
    }
    for (size_t h = 0; h < found; ++h) f(hits[h]);
  }
}

}  // namespace

void LccJob::init(const GraphInfo& graph, int threads) {
  threads_ = threads;
  symmetric_ = graph.symmetric;
  degrees_ = graph.out_degrees;
  if (symmetric_ && !degrees_) fail("lcc: a symmetric graph without its out-degrees (internal error)");
  const uint64_t n = graph.vertices;
  ranges_.init(graph, slots_ * n, "lcc:slots");
  members_.assign(slots_ * n, 0);
  member_begin_.assign(n + 1, 0);
  triangles_.assign(n, 0);
  neighbours_.assign(n, 0);
  lcc_.assign(n, 0.0);
  frontier_ = Bitmap(n);
  next_ = Bitmap(n);
  if (n == 0) {
    finished_ = converged_ = true;
    return;
  }
  if (ranges_.counting()) {
    phase_ = Phase::Counting;
    return frontier_.set_all();
  }
  ranges_.plan();
  start_range();
}

void LccJob::start_range() {
  phase_ = Phase::Neighbours;
  ranges_.start(frontier_);
}

void LccJob::process(const EdgeRun& run) {
  with_run_edges(run, [&](const auto& edges) {
    if (phase_ == Phase::Counting) return ranges_.count(edges);
    if (phase_ == Phase::Triangles) return count_triangles(edges);
    const VertexRange& range = ranges_.range();
    RangeLists& lists = ranges_.lists();
    std::vector<uint32_t> neighbours;  // a source's, added to its list at once
    edges.for_each_source([&](const SourceEdges& s) {
      const bool from_range = range.contains(s.src);
      if (!from_range && symmetric_) return;
      neighbours.clear();
      edges.for_each_edge(s, [&](VertexId dst, Weight) {
        if (dst == s.src) return;
        if (from_range) neighbours.push_back(dst);
        if (!symmetric_ && range.contains(dst)) lists.add(dst, s.src);
      });
      if (!neighbours.empty()) lists.add_all(s.src, neighbours);
    });
  });
}

// Each out-edge x->y counts one for every vertex of the range that has both x and y as
// neighbours: M(x) and M(y) intersected. On a symmetric graph, with x above y, those are the
// vertices below both, each the lowest corner of a triangle, and x and y count one for each too.
// M(x) is marked in a bitmap of the range while x's edges go by, so an edge costs a probe per
// member of M(y) while M(y) is at most kProbeAtMost times as long as M(x); a longer one (a hub's)
// is searched for M(x)'s members by galloping (for_each_common). On a symmetric graph an edge and
// its reverse close the same wedges: only one is looked at (counted()), and counts two.
//
// Copies of an edge are neighbours in a source's sorted edges, so a copy right after the same
// edge is passed over; copies cut apart by the end of a run are found by its ends (seam_pairs_)
// and taken back once the pass is done.
template <typename Edges>
void LccJob::count_triangles(const Edges& edges) {
  const VertexRange& range = ranges_.range();
  const uint64_t per_edge = this->per_edge();
  Bitmap marked(range.size());  // M(x) of the source going by; clear between sources
  bool first = true;
  SourceEdges last;
  VertexId first_src = 0, first_dst = 0;
  edges.for_each_source([&](const SourceEdges& s) {
    if (first) {
      first = false;
      first_src = s.src;
      edges.for_each_edge_until(s, [&](VertexId dst, Weight) { return first_dst = dst, true; });
      note_seam(first_src, first_dst);
    }
    last = s;
    const std::span<const uint32_t> of_source = members(s.src);
    if (of_source.empty()) return;
    for (uint32_t v : of_source) marked.set(v - range.begin);
    VertexId previous = s.src;  // a self-loop never counts
    uint64_t closed_by_source = 0;  // wedges the source's edges closed (symmetric: its triangles)
    edges.for_each_edge(s, [&](VertexId dst, Weight) {
      if (dst == previous || dst == s.src) return;
      previous = dst;
      // The frontier (a non-empty M(dst)) first: a bit, where M(dst)'s bounds and the degrees are a miss.
      if (!frontier_.test(dst) || !counted(s.src, dst)) return;
      const std::span<const uint32_t> of_destination = members(dst);
      uint64_t closed = 0;
      const auto close = [&](uint32_t v) { atomic_add<uint64_t>(triangles_[slot(v)], per_edge), ++closed; };
      if (of_destination.size() <= kProbeAtMost * of_source.size()) {
        for_each_marked(marked, range.begin, of_destination, close);
      } else {
        for_each_common(of_source, of_destination, close);
      }
      if (symmetric_ && closed) atomic_add<uint64_t>(triangles_[dst], closed * per_edge), closed_by_source += closed;
    });
    if (closed_by_source) atomic_add<uint64_t>(triangles_[s.src], closed_by_source * per_edge);
    for (uint32_t v : of_source) marked.reset(v - range.begin);
  });
  if (first) return;  // no edges
  VertexId last_dst = 0;
  edges.for_each_edge(last, [&](VertexId dst, Weight) { last_dst = dst; });
  // A run that starts and ends with the same edge holds only its copies: one run, noted once.
  if (last.src != first_src || last_dst != first_dst) note_seam(last.src, last_dst);
}

void LccJob::note_seam(VertexId src, VertexId dst) {
  if (src == dst || !counted(src, dst) || members(src).empty() || members(dst).empty()) return;
  std::lock_guard lock(seams_mutex_);
  ++seam_pairs_[{src, dst}];
}

// An edge seen at the ends of r runs (r >= 2; a run with it at both ends holds only its copies, and
// is seen once) has its copies in r consecutive runs, each of which counted it once.
void LccJob::take_back_seams() {
  const uint64_t per_edge = this->per_edge();
  for (const auto& [pair, runs] : seam_pairs_) {
    if (runs < 2) continue;
    uint64_t closed = 0;
    for_each_common(members(pair.first), members(pair.second),
                    [&](uint32_t v) { triangles_[slot(v)] -= (runs - 1) * per_edge, ++closed; });
    if (symmetric_)
      for (VertexId corner : {pair.first, pair.second}) triangles_[corner] -= closed * (runs - 1) * per_edge;
  }
  seam_pairs_.clear();
}

void LccJob::turn_lists_round() {
  const VertexRange range = ranges_.range();
  RangeLists& lists = ranges_.lists();
  ranges_.for_each_sorted_list(threads_, [&](VertexId v, std::span<uint32_t> list) {
    const auto distinct = std::unique(list.begin(), list.end());
    neighbours_[v] = static_cast<uint32_t>(distinct - list.begin());
    if (symmetric_) {  // N(v) above v: the triangle's other two corners
      const auto above = std::remove_if(list.begin(), distinct, [&](uint32_t u) { return below(u, v); });
      lists.shrink(v, static_cast<uint64_t>(above - list.begin()));
    } else {
      lists.shrink(v, neighbours_[v]);
      triangles_[slot(v)] = 0;
    }
  });
  // M(x): counted, laid out, filled in increasing v (so sorted); member_begin_[x] ends as the end
  // of x's list and is shifted back to its beginning.
  std::fill(member_begin_.begin(), member_begin_.end(), 0);
  for (VertexId v = range.begin; v < range.end; ++v)
    for (uint32_t x : lists.list(v)) ++member_begin_[x];
  uint64_t at = 0;
  for (uint64_t& b : member_begin_) at += std::exchange(b, at);
  for (VertexId v = range.begin; v < range.end; ++v)
    for (uint32_t x : lists.list(v)) members_[member_begin_[x]++] = v;
  std::copy_backward(member_begin_.begin(), member_begin_.end() - 1, member_begin_.end());
  member_begin_[0] = 0;
  frontier_.assign_where(threads_, [this](uint64_t x) { return member_begin_[x + 1] > member_begin_[x]; });
}

// The coefficients of `range`'s vertices, once their counts are whole: after their own range's
// pass on a directed graph, after every range's on a symmetric one.
void LccJob::take_coefficients(VertexRange range) {
  for (VertexId v = range.begin; v < range.end; ++v) {
    const double d = neighbours_[v];
    lcc_[v] = d < 2 ? 0.0 : static_cast<double>(triangles_[slot(v)]) / (d * (d - 1));
  }
}

void LccJob::end_round() {
  ++rounds_;
  ++passes_;
  switch (phase_) {
    case Phase::Counting:
      ranges_.plan();
      return start_range();
    case Phase::Neighbours:
      phase_ = Phase::Triangles;
      return turn_lists_round();
    case Phase::Triangles:
      take_back_seams();
      if (!symmetric_) take_coefficients(ranges_.range());
      if (ranges_.advance()) return start_range();
      if (symmetric_) take_coefficients({0, static_cast<VertexId>(lcc_.size())});
      finished_ = converged_ = true;
      frontier_.clear();
      return;
  }
}

std::vector<std::pair<std::string, uint64_t>> LccJob::counts() const {
  return {{"vertex_ranges", ranges_.ranges()}, {"passes", passes_}};
}

void LccJob::write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const {
  write_vertex_values(lcc_, format, order, sink, [](fmt::memory_buffer& out, double c) { fmt::format_to(std::back_inserter(out), "{:.9g}", c); });
}

}  // namespace graphso
