#include "jobs/pagerank.h"

#include <fmt/ranges.h>

#include <algorithm>

#include "jobs/results_text.h"

namespace graphso {

void write_ranks(uint64_t n, const std::function<double(VertexId)>& rank_of, OutFormat format, const VertexOrder& order,
                 const Job::ResultSink& sink) {
  write_vertex_values<double>(n, format, order, sink, rank_of, [](fmt::memory_buffer& out, double r) {
    fmt::format_to(std::back_inserter(out), "{:.9g}", r);
  });
}

namespace {

void write_ranks(const std::vector<double>& rank, OutFormat format, const VertexOrder& order, const Job::ResultSink& sink) {
  write_ranks(rank.size(), [&rank](VertexId v) { return rank[v]; }, format, order, sink);
}

}  // namespace

std::string PageRankJob::signature() const {
  return fmt::format("pagerank iterations={}{} damping={:.17g}", iterations_, spread_dangling_ ? " graphalytics" : "", damping_);
}

std::string PageRankDeltaJob::signature() const {
  // Passes and rounds (and a revisable choice between them) reach the same bound, not the same bits.
  return fmt::format("{} tolerance={:.17g} max_iterations={} sources={} damping={:.17g} {}", algo(), tolerance_, max_iterations_,
                     fmt::join(sources_, ","), damping_, async_ ? (revisable_ ? "auto" : "async") : "sync");
}

void PageRankJob::init(const GraphInfo& graph, int threads) {
  threads_ = threads;
  bind(graph);
  rank_.assign(graph.vertices, 1.0 / static_cast<double>(graph.vertices));
  sum_.assign(graph.vertices, 0.0);
  frontier_ = Bitmap(graph.vertices);
  next_ = Bitmap(graph.vertices);
  frontier_.set_all();
  if (iterations_ == 0) finished_ = converged_ = true;
}

void PageRankJob::end_round() {
  ++rounds_;
  const int64_t n = static_cast<int64_t>(rank_.size());
  double dangling = 0;  // the rank of vertices without out-edges, before this round's update
  if (spread_dangling_) {
#pragma omp parallel for num_threads(threads_) schedule(static) reduction(+ : dangling)
    for (int64_t v = 0; v < n; ++v)
      if ((*degrees_)[v] == 0) dangling += rank_[v];
  }
  const double d = damping_;
  const double base = (1 - d) / static_cast<double>(n) + d * dangling / static_cast<double>(n);
#pragma omp parallel for num_threads(threads_) schedule(static)
  for (int64_t v = 0; v < n; ++v) {
    rank_[v] = base + d * sum_[v];
    sum_[v] = 0;
  }
  if (rounds_ >= iterations_) finished_ = converged_ = true;
}

void PageRankJob::write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const {
  write_ranks(rank_, format, order, sink);
}

void PageRankDeltaJob::init(const GraphInfo& graph, int threads) {
  threads_ = threads;
  bind(graph);
  const double n = static_cast<double>(graph.vertices);
  threshold_ = tolerance_ / n;
  if (sources_.empty()) {
    pending_.assign(graph.vertices, (1 - damping_) / n);
  } else {
    pending_.assign(graph.vertices, 0.0);
    for (VertexId s : sources_) pending_[s] = (1 - damping_) / static_cast<double>(sources_.size());
  }
  // Synchronous: rank starts where pending does. Asynchronous: it holds what has left pending.
  if (async_) rank_.assign(graph.vertices, 0.0);
  else rank_ = pending_;
  incoming_.assign(graph.vertices, 0.0);
  pushed_ = async_ ? incoming_.data() : pending_.data();
  frontier_ = Bitmap(graph.vertices);
  next_ = Bitmap(graph.vertices);
  activate_pending();
}

// frontier = vertices with out-edges and pending above the threshold. A vertex without out-edges
// has nowhere to push: its pending delta does not change any rank (M's column is zero), so it is
// dropped rather than keeping the vertex active forever. Asynchronous, the pass's snapshot is
// taken too: a frontier vertex's pending moves to what it pushes (incoming_, zero elsewhere), and
// whatever leaves pending is settled into rank_; when the job finishes, so is what is left.
void PageRankDeltaJob::activate_pending() {
  frontier_.clear();
  const int64_t n = static_cast<int64_t>(rank_.size());
  double snapshot = 0, rank = 0;
  uint64_t edges = 0;
  // By whole frontier words, so each thread sets bits only in words of its own. (Serial, this was
  // 3.4% of W1's CPU samples on R-MAT 22, on one thread while the other waited.)
  const int64_t words = (n + 63) / 64;
#pragma omp parallel for num_threads(threads_) schedule(static) reduction(+ : snapshot, rank, edges)
  for (int64_t w = 0; w < words; ++w) {
    for (int64_t v = w * 64; v < std::min(n, w * 64 + 64); ++v) {
      if ((*degrees_)[v] == 0) {
        if (async_) rank_[v] += pending_[v];
        pending_[v] = 0;
      } else if (pending_[v] > threshold_) {
        frontier_.set(v);
        if (async_) {
          incoming_[v] = pending_[v];
          rank_[v] += pending_[v];
          pending_[v] = 0;
        }
        if (revisable_) {
          edges += (*degrees_)[v];
          snapshot += incoming_[v];
        }
      }
      if (revisable_) rank += rank_[v];
    }
  }
  pass_snapshot_ = snapshot;
  pass_edges_ = edges;
  pass_rank_ = rank;
  pass_extra_before_ = async_extra_edges();
  if (frontier_.count() == 0) finished_ = converged_ = true;
  if (finished_ && async_) settle();
}

// The pass that just ended pushed its snapshot through pass_edges_ and `taken` more (what left
// pending during it: rank_ grew by that) through `extra` more edges. It paid (0) if it pushed
// enough more than a round would to save passes (and their loads), or more per unit of edge cost;
// otherwise it counts 1 against passes, or all kLosingPasses when it pushed next to nothing more.
uint32_t PageRankDeltaJob::pass_loss() {
  double rank = 0;
  const int64_t n = static_cast<int64_t>(rank_.size());
#pragma omp parallel for num_threads(threads_) schedule(static) reduction(+ : rank)
  for (int64_t v = 0; v < n; ++v) rank += rank_[v];
  const double taken = std::max(0.0, rank - pass_rank_);
  const double extra = static_cast<double>(async_extra_edges() - pass_extra_before_);
  const double edges = static_cast<double>(pass_edges_);
  const double gain = (pass_snapshot_ + taken) / pass_snapshot_;
  if (gain >= kPassGain || gain * edges >= kAsyncEdgeCost * (edges + extra)) return 0;
  return gain < kNoGain ? kLosingPasses : 1;
}

// From asynchronous state (rank: what left pending; pending: the rest) to synchronous (rank holds
// every arrival, pending what is still to push), between rounds.
void PageRankDeltaJob::fall_back() {
  const int64_t n = static_cast<int64_t>(rank_.size());
#pragma omp parallel for num_threads(threads_) schedule(static)
  for (int64_t v = 0; v < n; ++v) rank_[v] += pending_[v];
  async_ = revisable_ = false;
  pushed_ = pending_.data();
  sync_from_round_ = rounds_ + 1;
}

// Before the first round, from the asynchronous start (the frontier's pending moved to what it
// pushes, and to rank) to the synchronous one (rank and pending both hold the start; nothing
// arrived yet).
void PageRankDeltaJob::graph_resident() {
  if (!async_ || !revisable_ || rounds_ != 0) return;
  fall_back();  // rank := what left pending + pending; synchronous from round 1
  // What the first pass was to push goes back to pending, for the first round to push.
  const int64_t n = static_cast<int64_t>(rank_.size());
#pragma omp parallel for num_threads(threads_) schedule(static)
  for (int64_t v = 0; v < n; ++v) {
    pending_[v] += incoming_[v];
    incoming_[v] = 0;
  }
}

void PageRankDeltaJob::settle() {
  for (size_t v = 0; v < rank_.size(); ++v) {
    rank_[v] += pending_[v];
    pending_[v] = 0;
  }
}

void PageRankDeltaJob::end_round() {
  ++rounds_;
  const int64_t n = static_cast<int64_t>(rank_.size());
  if (async_) {
    // Every arrival is in pending already, and what left it is in rank; what was pushed is gone.
    std::fill(incoming_.begin(), incoming_.end(), 0.0);
    next_.clear();
    if (revisable_) {
      const uint32_t loss = pass_loss();
      losing_passes_ = loss ? losing_passes_ + loss : 0;
      if (losing_passes_ >= kLosingPasses) fall_back();
    }
  } else {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t v = 0; v < n; ++v) {
      if (frontier_.test(v)) pending_[v] = 0;  // pushed this round
      rank_[v] += incoming_[v];
      pending_[v] += incoming_[v];
      incoming_[v] = 0;
    }
  }
  activate_pending();
  if (!finished_ && rounds_ >= max_iterations_) {  // not converged: no results
    finished_ = true;
    if (async_) settle();
  }
}

void PageRankDeltaJob::write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const {
  write_ranks(rank_, format, order, sink);
}

}  // namespace graphso
