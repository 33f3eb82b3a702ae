// Local clustering coefficient (LDBC Graphalytics' LCC): for each vertex v with neighbour set N(v)
// (the vertices linked to it by an edge either way, itself excluded), the number of edges u->w
// with u and w in N(v), over |N(v)| (|N(v)| - 1); 0 when |N(v)| < 2. Edges are a set: parallel
// copies count once (a prepared graph stores a source's edges sorted, so copies are neighbours),
// self-loops not at all. On an undirected graph (stored both ways) each edge among N(v) is counted
// in both directions, which gives Graphalytics' undirected value.
//
// Out of core, by ranges of vertices (jobs/vertex_ranges.h), two passes each:
//   neighbours  the range is the frontier: each edge with an end in the range adds the other end
//               to that vertex's list; lists are then sorted and made unique (N(v)), and turned
//               round: for every vertex x, the vertices of the range x is a neighbour of (M(x)).
//   triangles   the vertices with a non-empty M(x) are the frontier: each out-edge x->y counts one
//               for every vertex in both M(x) and M(y) (sorted lists, intersected).
// On a symmetric graph each triangle is counted once, from its lowest corner in the order of
// degree (then id), as in-memory triangle counters do: N(v) keeps only the neighbours above v, an
// edge is looked at from its higher end, and a triangle found adds to all three of its corners.
// A hub's long list is then never the one probed. A directed graph's triangles are counted at
// every corner: what a triangle adds to its two upper corners depends on whether the edge they
// close is there both ways, which a pass over out-edges does not see.
// Memory is a buffer of `slots` values per vertex, twice (the lists and their turned-round form),
// and a few arrays per vertex; the graph is read once for the neighbours (a directed graph's
// first round also counts incident edges to plan the ranges) and, per range, the out-edges of its
// vertices' neighbours.
#pragma once

#include <map>
#include <mutex>

#include "base/run_edges.h"
#include "jobs/job.h"
#include "jobs/vertex_ranges.h"

namespace graphso {

class LccJob final : public DirectJob {
 public:
  LccJob(std::string name, uint32_t slots) : DirectJob(std::move(name), "lcc"), slots_(slots) {}

  // Neighbour lists take edges either way on a directed graph; triangles only out-edges.
  EdgeUse edge_use() const override {
    return symmetric_ || phase_ == Phase::Triangles ? EdgeUse::OutEdges : EdgeUse::BothWays;
  }
  uint64_t state_bytes(uint64_t n) const override {
    return VertexRanges::bytes_for(n, slots_ * n) + slots_ * n * sizeof(uint32_t) + (n + 1) * sizeof(uint64_t) +
           n * (sizeof(uint64_t) + sizeof(uint32_t) + sizeof(double)) + 2 * Bitmap::bytes_for(n);
  }
  void init(const GraphInfo& graph, int threads) override;
  // Edges add to the range's lists or counts at once (DirectJob).
  void process(const EdgeRun& run) override;
  void end_round() override;
  void write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const override;
  BinaryValues binary_values() const override { return {"float64", nullptr}; }
  std::string signature() const override { return "lcc"; }
  std::vector<std::pair<std::string, uint64_t>> counts() const override;

 private:
  enum class Phase { Counting, Neighbours, Triangles };
  void start_range();
  void turn_lists_round();  // N(v) of the range -> M(x) for every x; the triangles' frontier
  void take_coefficients(VertexRange range);
  template <typename Edges>
  void count_triangles(const Edges& edges);
  // A run's first or last edge, when it may count: the seams between runs.
  void note_seam(VertexId src, VertexId dst);
  void take_back_seams();
  // Whether u is below w in the order triangles are counted in on a symmetric graph: degree, then id.
  bool below(VertexId u, VertexId w) const {
    const uint32_t du = (*degrees_)[u], dw = (*degrees_)[w];
    return du < dw || (du == dw && u < w);
  }
  // Whether the edge x->y is looked at: on a symmetric graph its reverse stands for it unless x is
  // the higher end (x's list, the longer, is the one marked; y's is probed).
  bool counted(VertexId x, VertexId y) const { return !symmetric_ || below(y, x); }
  // Where a vertex's count is kept: per vertex on a symmetric graph (a triangle adds to corners
  // outside the range), per vertex of the range otherwise.
  uint64_t slot(VertexId v) const { return symmetric_ ? v : v - ranges_.range().begin; }
  // What a counted edge adds for each vertex it closes a wedge of: two where it stands for its reverse too.
  uint64_t per_edge() const { return symmetric_ ? 2 : 1; }
  std::span<const uint32_t> members(VertexId x) const {
    return {members_.data() + member_begin_[x], members_.data() + member_begin_[x + 1]};
  }

  uint64_t slots_;
  bool symmetric_ = false;
  Phase phase_ = Phase::Counting;
  VertexRanges ranges_;                 // its lists: N(v) for v in the range
  const std::vector<uint32_t>* degrees_ = nullptr;  // a symmetric graph's: the order triangles are counted in
  std::vector<uint32_t> members_;       // M(x), x = 0..n-1, each sorted
  std::vector<uint64_t> member_begin_;  // n + 1
  std::vector<uint64_t> triangles_;     // edges among a vertex's neighbours, at slot(v)
  std::vector<uint32_t> neighbours_;    // |N(v)|
  std::vector<double> lcc_;
  uint64_t passes_ = 0;
  std::mutex seams_mutex_;
  std::map<std::pair<VertexId, VertexId>, uint32_t> seam_pairs_;  // edge -> runs that had it at an end
};

}  // namespace graphso
