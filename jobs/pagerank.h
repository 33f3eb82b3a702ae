// PageRank, PR(v) = (1-d)/N + d * sum over u->v of PR(u)/outdeg(u), d = 0.85 unless a job's
// `damping` says otherwise, no redistribution of dangling mass (the GAP / networkx-without-dangling
// convention).
//
// PageRankJob: a fixed number of synchronous iterations from PR = 1/N; every vertex pushes every
// round. Its Graphalytics variant (LDBC Graphalytics' rule) also spreads the rank that dangling
// vertices (no out-edges) held over every vertex each iteration: d/N x their sum is added to
// each vertex's rank, so the ranks keep summing to 1.
//
// PageRankDeltaJob: delta-PageRank to a tolerance. rank starts at (1-d)/N and so does each
// vertex's pending delta; an active vertex pushes d * pending / outdeg along its out-edges and
// its pending drops to zero; what arrives is added to both rank and pending. A vertex is active
// while pending > tolerance / N, so the active set shrinks. Invariant at round ends:
// rank = x* - (I - dM)^-1 dM pending, so at convergence the L1 error against the exact fixed point
// x* is at most d/(1-d) * tolerance (5.67 x tolerance at d = 0.85), and rank <= x* everywhere
// (docs/jobs.md).
//
// Asynchronous passes (delta forms only; docs/jobs.md proves the same bound): what arrives is
// added to pending at once, and rank holds what has left pending (a vertex's rank is rank +
// pending, settled when the job finishes), so an arrival costs one atomic add, not two. Each
// pass begins with a snapshot: every frontier vertex's
// pending moves to what it pushes (incoming_, the synchronous form's arrivals), and that fixed
// amount goes out through each of its runs of edges in the pass, so a vertex whose out-edges
// span several runs pushes the same amount in each. A run
// that holds ALL of a source's out-edges (EdgeJob's `whole`) also sends whatever has arrived at
// the source since, taken from pending by an atomic exchange: every unit of delta is pushed
// exactly once, and a vertex that became active during the pass pushes in it when its edges
// come later.
//
// Falling back (run --async auto, Job::set_async revisable): each pass end weighs what the pass
// did against what a synchronous round would have: the pass pushed its snapshot P through the
// frontier's E out-edges plus T more (what arrived and went on in the same pass) through X more
// edges, at kAsyncEdgeCost times a synchronous edge's cost; a round pushes P through E. The pass
// paid if (P + T) / P >= kPassGain (it saves passes, and with them loads: an I/O-bound batch) or
// if it pushed at least as much per unit of edge cost (a CPU-bound one). A job whose passes do not
// pay twice running, or once by far ((P + T) / P < kNoGain), converts its state (rank := what
// left + pending) and runs the rest in synchronous rounds.
//
// Personalized PageRank (ppr) is the same job with teleport to a set of sources S instead of to
// every vertex: PPR(v) = (1-d)/|S| [v in S] + d * sum over u->v of PPR(u)/outdeg(u); rank and
// pending start at (1-d)/|S| on the sources and 0 elsewhere. The threshold and the bound are
// the same.
#pragma once

#include <functional>

#include "jobs/atomics.h"
#include "jobs/edge_job.h"

namespace graphso {

// d when a job does not set it (pagerank:damping=D): GAP's, networkx's and Graphalytics' datasets'.
inline constexpr double kDefaultDamping = 0.85;

class PageRankJob final : public EdgeJob<PageRankJob, EdgeUse::OutEdges> {
 public:
  PageRankJob(std::string name, uint32_t iterations, bool spread_dangling = false, double damping = kDefaultDamping)
      : EdgeJob(std::move(name), "pagerank"), iterations_(iterations), spread_dangling_(spread_dangling), damping_(damping) {}

  // Fixed iterations are synchronous by definition.
  bool async_capable() const override { return false; }
  uint64_t state_bytes(uint64_t n) const override { return 2 * n * sizeof(double) + 2 * Bitmap::bytes_for(n); }
  void init(const GraphInfo& graph, int threads) override;
  double scatter(VertexId u, Weight) const { return rank_[u] / (*degrees_)[u]; }
  bool gather(VertexId v, double share) {
    atomic_add(sum_[v], share);
    return false;
  }
  bool gather_owned(VertexId v, double share) {
    sum_[v] += share;
    return false;
  }
  void end_round() override;
  void write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const override;
  BinaryValues binary_values() const override { return {"float64", nullptr}; }
  const std::vector<double>& ranks() const { return rank_; }
  double damping() const { return damping_; }
  std::string signature() const override;

 private:
  uint32_t iterations_;
  bool spread_dangling_;
  double damping_;
  std::vector<double> rank_;
  std::vector<double> sum_;
};

class PageRankDeltaJob final : public EdgeJob<PageRankDeltaJob, EdgeUse::OutEdges> {
 public:
  // sources: empty for PageRank, the teleport set for personalized PageRank.
  PageRankDeltaJob(std::string name, std::string algo, double tolerance, uint32_t max_iterations,
                   std::vector<VertexId> sources = {}, double damping = kDefaultDamping)
      : EdgeJob(std::move(name), std::move(algo)), tolerance_(tolerance), max_iterations_(max_iterations),
        sources_(std::move(sources)), damping_(damping) {}

  uint64_t state_bytes(uint64_t n) const override { return 3 * n * sizeof(double) + 2 * Bitmap::bytes_for(n); }
  void init(const GraphInfo& graph, int threads) override;
  // begin_source() takes pending by atomic exchange, so asynchronous gathers into it are atomic
  // even where a thread owns the destinations (gather_owned is the synchronous form).
  static constexpr bool kAtomicAsyncGathers = true;
  // A vertex changed in a pass pushes (what arrived since) only where all its out-edges are
  // (begin_source): the late join looks for no other chunk on its behalf.
  static constexpr bool kChangedPushesWholeOnly = true;
  double scatter(VertexId u, Weight) const { return damping_ * pushed_[u] / (*degrees_)[u]; }
  // Synchronous: into incoming_, applied at the round's end. Asynchronous: into pending at once;
  // true (the vertex joins next_) when its pending passes the threshold.
  bool gather(VertexId v, double share) {
    if (!async_) {
      atomic_add(incoming_[v], share);
      return false;
    }
    const double before = std::atomic_ref<double>(pending_[v]).fetch_add(share, std::memory_order_relaxed);
    return before <= threshold_ && before + share > threshold_;
  }
  bool gather_owned(VertexId v, double share) {  // synchronous only
    incoming_[v] += share;
    return false;
  }
  // Asynchronous: a frontier source pushes its snapshot; one whose out-edges are all in this run
  // also sends what has arrived since (so one activated during the pass pushes in it). That
  // leaves it out of next_ until pending crosses the threshold again, so a run handed again
  // (in_frontier false: its snapshot went out already) sends only what arrived after.
  bool begin_source(VertexId src, bool in_frontier, bool whole) {
    if (!whole) return in_frontier;
    next_.reset_atomic(src);
    const double more = std::atomic_ref<double>(pending_[src]).exchange(0.0, std::memory_order_relaxed);
    rank_[src] += more;  // only the thread holding all of src's out-edges writes it
    incoming_[src] = in_frontier ? incoming_[src] + more : more;
    return in_frontier || more > 0;
  }
  void end_round() override;
  // On a resident graph a pass saves no load, only edges, and its edges cost kAsyncEdgeCost times a
  // round's: a revisable job starts in synchronous rounds instead (measured, resident, 2 threads:
  // road-FLA 0.57 s in passes against 0.37 s in rounds, R-MAT 20 2.39 against 2.09, soc-slashdot
  // 0.094 against 0.076).
  void graph_resident() override;
  void write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const override;
  BinaryValues binary_values() const override { return {"float64", nullptr}; }
  const std::vector<double>& ranks() const { return rank_; }
  double tolerance() const { return tolerance_; }
  uint32_t max_iterations() const { return max_iterations_; }
  const std::vector<VertexId>& sources() const { return sources_; }
  double damping() const { return damping_; }
  // The L1 distance to the exact ranks its result is within: d/(1-d) * tolerance.
  double error_bound() const { return damping_ / (1 - damping_) * tolerance_; }
  std::string signature() const override;

 private:
  // What an asynchronous delta-PageRank edge costs against a synchronous one, measured (R-MAT 22,
  // chunk mode, 2 threads, delta-PageRank alone: 44 s of CPU for 3.08 G edges in passes without
  // re-entry, 28 s for 3.00 G in rounds): the pass's gathers test the threshold and its sources'
  // tests take more.
  static constexpr double kAsyncEdgeCost = 1.4;
  // A pass pushing this much more than its snapshot saves passes. Measured per pass (delta-PageRank
  // 0.01 alone, GridGraph chunk mode): R-MAT 22 1.003 (first pass), ego-twitter 1.01-1.04, soc-slashdot
  // 1.08-1.15, where passes cost more than rounds; osm-rome 1.14-2.87 and road-FLA 1.04-5.4 (both
  // above 1.15 but for a few late passes), where they take 40 and 25-29 passes against 114 and 55
  // rounds.
  static constexpr double kPassGain = 1.15;
  // Passes in a row that did not pay, before falling back; a pass pushing less than kNoGain
  // times its snapshot counts as all of them (R-MAT 22 and ego-twitter: from the first pass).
  static constexpr uint32_t kLosingPasses = 2;
  static constexpr double kNoGain = 1.05;
  void activate_pending();
  void settle();
  uint32_t pass_loss();
  void fall_back();
  double tolerance_;
  uint32_t max_iterations_;
  std::vector<VertexId> sources_;
  double damping_;
  double threshold_ = 0;
  std::vector<double> rank_;  // synchronous: the rank; asynchronous: what has left pending
  std::vector<double> pending_;
  // Synchronous: what arrived this round. Asynchronous: what each source pushes this pass (its
  // snapshot, and what a whole run of it took since).
  std::vector<double> incoming_;
  const double* pushed_ = nullptr;  // what scatter() pushes: pending_ (synchronous) or incoming_
  // Revisable, this pass's evidence (pass_loss): its snapshot's delta and the frontier's
  // out-edges, what rank_ held after the snapshot, the extra edges counted before it, and how
  // many passes in a row did not pay.
  double pass_snapshot_ = 0;
  uint64_t pass_edges_ = 0;
  double pass_rank_ = 0;
  uint64_t pass_extra_before_ = 0;
  uint32_t losing_passes_ = 0;
};

// PageRank results: rank_of(v) for v in the graph's ids.
void write_ranks(uint64_t n, const std::function<double(VertexId)>& rank_of, OutFormat format, const VertexOrder& order,
                 const Job::ResultSink& sink);

}  // namespace graphso
