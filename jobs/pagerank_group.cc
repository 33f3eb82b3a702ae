#include "jobs/pagerank_group.h"

#include <omp.h>

#include "base/error.h"

namespace graphso {

template <uint32_t L>
PageRankDeltaGroup<L>::PageRankDeltaGroup(std::vector<PageRankDeltaJob*> members)
    : EdgeJob<PageRankDeltaGroup<L>, EdgeUse::OutEdges>(fmt::format("{} x{}", members.empty() ? "" : members[0]->algo(), members.size()),
                                                         members.empty() ? "" : members[0]->algo()),
      delta_(std::move(members)) {
  if (delta_.empty() || delta_.size() > L) fail("a delta-PageRank group of {} lanes holds 1 to {} jobs, not {}", L, L, delta_.size());
  members_.assign(delta_.begin(), delta_.end());
}

template <uint32_t L>
void PageRankDeltaGroup<L>::init(const GraphInfo& graph, int threads) {
  this->threads_ = threads;
  this->bind(graph);
  const uint64_t n = graph.vertices;
  const double vertices = static_cast<double>(n);
  rank_ = std::make_shared<std::vector<double>>(n * L, 0.0);
  pending_.assign(n * L, 0.0);
  incoming_.assign(n * L, 0.0);
  outgoing_.assign(n, Shares{});
  locks_.assign(n);
  threshold_.assign(L, 0.0);
  damping_.assign(L, kDefaultDamping);
  this->frontier_ = Bitmap(n);
  this->next_ = Bitmap(n);
  running_ = 0;
  // As PageRankDeltaJob::init: pending starts at the teleport (every vertex, or the sources), and
  // so does the rank.
  for (uint32_t lane = 0; lane < delta_.size(); ++lane) {
    const PageRankDeltaJob& job = *delta_[lane];
    threshold_[lane] = job.tolerance() / vertices;
    damping_[lane] = job.damping();
    running_ |= uint64_t{1} << lane;
    if (job.sources().empty()) {
      for (uint64_t v = 0; v < n; ++v) pending_[v * L + lane] = (1 - job.damping()) / vertices;
    } else {
      for (VertexId s : job.sources()) pending_[uint64_t{s} * L + lane] = (1 - job.damping()) / static_cast<double>(job.sources().size());
    }
    delta_[lane]->ran_by([rank = rank_, lane, n](OutFormat format, const VertexOrder& order, const Job::ResultSink& sink) {
      write_ranks(n, [&rank, lane](VertexId v) { return (*rank)[uint64_t{v} * L + lane]; }, format, order, sink);
    });
  }
  *rank_ = pending_;
  settle_converged(activate(0));
}

template <uint32_t L>
uint64_t PageRankDeltaGroup<L>::activate(uint64_t stopping) {
  const int64_t n = static_cast<int64_t>(outgoing_.size());
  const uint64_t running = running_;
  uint64_t any = 0;
  // By whole frontier words, so each thread sets bits only in words of its own.
  const int64_t words = (n + 63) / 64;
  this->frontier_.clear();
#pragma omp parallel for num_threads(this->threads_) schedule(static) reduction(| : any)
  for (int64_t w = 0; w < words; ++w) {
    for (int64_t v = w * 64; v < std::min(n, w * 64 + 64); ++v) {
      double* pending = pending_.data() + static_cast<uint64_t>(v) * L;
      const uint32_t degree = (*this->degrees_)[v];
      if (degree == 0) {  // nowhere to push: the delta changes no rank
        for (uint32_t l = 0; l < L; ++l) pending[l] = 0;
        continue;
      }
      uint64_t lanes = 0;
      for (uint32_t l = 0; l < L; ++l) lanes |= uint64_t{pending[l] > threshold_[l]} << l;
      lanes &= running;
      any |= lanes;
      const uint64_t pushing = lanes & ~stopping;
      if (!pushing) continue;
      Shares& out = outgoing_[v];
      for (uint32_t l = 0; l < L; ++l) {
        const bool pushes = (pushing >> l) & 1;
        out.lane[l] = pushes ? damping_[l] * pending[l] / degree : 0.0;
        if (pushes) pending[l] = 0;
      }
      this->frontier_.set(static_cast<uint64_t>(v));
    }
  }
  return any;
}

template <uint32_t L>
void PageRankDeltaGroup<L>::settle_converged(uint64_t active) {
  for (uint64_t done = running_ & ~active; done; done &= done - 1)
    delta_[std::countr_zero(done)]->take_outcome(this->rounds_, true);
  running_ &= active;
  this->finished_ = this->converged_ = running_ == 0;
}

// What arrived is added to rank and pending (the pushed lanes' pending went to outgoing_), then
// the next round's lanes are taken.
template <uint32_t L>
void PageRankDeltaGroup<L>::end_round() {
  ++this->rounds_;
  const int64_t values = static_cast<int64_t>(pending_.size());
  double* rank = rank_->data();
#pragma omp parallel for num_threads(this->threads_) schedule(static)
  for (int64_t k = 0; k < values; ++k) {
    rank[k] += incoming_[k];
    pending_[k] += incoming_[k];
    incoming_[k] = 0;
  }
  // A lane still active after its member's max_iterations rounds did not converge: it stops, as
  // the job alone does (no results), and pushes no more.
  uint64_t stopping = 0;
  for (uint64_t lanes = running_; lanes; lanes &= lanes - 1) {
    const uint32_t lane = static_cast<uint32_t>(std::countr_zero(lanes));
    if (this->rounds_ >= delta_[lane]->max_iterations()) stopping |= uint64_t{1} << lane;
  }
  const uint64_t active = activate(stopping);
  for (uint64_t lanes = stopping & active; lanes; lanes &= lanes - 1)
    delta_[std::countr_zero(lanes)]->take_outcome(this->rounds_, false);
  running_ &= ~(stopping & active);
  settle_converged(active);
}

template <uint32_t L>
void PageRankDeltaGroup<L>::write_values(OutFormat, const VertexOrder&, const Job::ResultSink&) const {
  fail("{}: a group has no results of its own (its members write theirs)", this->name());
}

template class PageRankDeltaGroup<8>;
template class PageRankDeltaGroup<16>;
template class PageRankDeltaGroup<32>;
template class PageRankDeltaGroup<64>;

}  // namespace graphso
