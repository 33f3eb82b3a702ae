#include "jobs/sssp_group.h"

#include <omp.h>

#include "base/adjacency.h"
#include "base/error.h"

namespace graphso {

template <uint32_t L>
SsspGroup<L>::SsspGroup(std::vector<SsspJob*> members)
    : EdgeJob<SsspGroup<L>, EdgeUse::OutEdges>(fmt::format("sssp x{}", members.size()), "sssp"), sssp_(std::move(members)) {
  if (sssp_.empty() || sssp_.size() > L) fail("an SSSP group of {} lanes holds 1 to {} jobs, not {}", L, L, sssp_.size());
  members_.assign(sssp_.begin(), sssp_.end());
  this->set_async(sssp_.front()->async());
}

template <uint32_t L>
void SsspGroup<L>::init(const GraphInfo& graph, int threads) {
  this->threads_ = threads;
  this->bind(graph);
  const uint64_t n = graph.vertices;
  if (n > kMostVertices) fail("{}: an SSSP group takes graphs of at most {} vertices", this->name(), kMostVertices);
  real_ = graph.real_weights;
  const uint64_t far = real_ ? kFarReal : kFar;
  dist_ = std::make_shared<std::vector<uint64_t>>(n * L, far);
  this->frontier_ = Bitmap(n);
  this->next_ = Bitmap(n);
  running_ = 0;
  for (uint32_t lane = 0; lane < sssp_.size(); ++lane) {
    const VertexId source = sssp_[lane]->source();
    (*dist_)[uint64_t{source} * L + lane] = 0;
    this->frontier_.set(source);
    running_ |= uint64_t{1} << lane;
    // The member's results are its lane, read from the distances (which outlive the group).
    sssp_[lane]->ran_by([dist = dist_, lane, n, far, real = real_](OutFormat format, const VertexOrder& order,
                                                                    const Job::ResultSink& sink) {
      write_distances(n, [&dist, lane, far](VertexId v) {
        const uint64_t d = (*dist)[uint64_t{v} * L + lane];
        return d >= far ? SsspJob::kInfinity : d;
      }, format, order, sink, real);
    });
  }
  if (!this->async()) {
    next_dist_ = *dist_;
    return;
  }
  row_lanes_.dist = dist_->data();
  row_lanes_.real = real_;
  passes_.emplace(row_lanes_, real_ ? 0 : sssp_.front()->reach_hops());
  passes_->start(n, threads, this->degrees_);
  for (uint32_t lane = 0; lane < sssp_.size(); ++lane) passes_->pend(sssp_[lane]->source(), lane);
  passes_->began();
  this->frontier_ = passes_->frontier();
}

template <uint32_t L>
void SsspGroup<L>::process(const EdgeRun& run) {
  if (passes_) this->count_sweep(passes_->process(run));
  else EdgeJob<SsspGroup<L>, EdgeUse::OutEdges>::process(run);
}

template <uint32_t L>
void SsspGroup<L>::scatter_updates(const EdgeRun& run, std::vector<std::byte>& out) {
  if (passes_) this->count_sweep(passes_->scatter_updates(run, out, update_bytes()));
  else EdgeJob<SsspGroup<L>, EdgeUse::OutEdges>::scatter_updates(run, out);
}

template <uint32_t L>
void SsspGroup<L>::gather_updates(std::span<const std::byte> updates) {
  if (passes_) passes_->gather_updates(updates, update_bytes());
  else EdgeJob<SsspGroup<L>, EdgeUse::OutEdges>::gather_updates(updates);
}

// Passes write (destination, lane, distance) records; rounds (destination, every lane's distance).
template <uint32_t L>
uint32_t SsspGroup<L>::update_bytes() const {
  return this->async() ? Passes::kRecordBytes : EdgeJob<SsspGroup<L>, EdgeUse::OutEdges>::update_bytes();
}

template <uint32_t L>
bool SsspGroup<L>::may_push(VertexId first, VertexId end, bool reentry) const {
  if (passes_) return passes_->may_push(first, end, reentry);
  return EdgeJob<SsspGroup<L>, EdgeUse::OutEdges>::may_push(first, end, reentry);
}

template <uint32_t L>
bool SsspGroup<L>::wants_reentry(VertexId first, VertexId end) const {
  return passes_ && passes_->wants_reentry(first, end);
}

template <uint32_t L>
bool SsspGroup<L>::adjacency_round(const Adjacency& graph) {
  if (!passes_) return false;
  const double width = delta_stepping_width(graph, real_);
  const uint64_t n = graph.vertices();
  uint64_t* rows = dist_->data();
  // Each lane runs on a copy of its distances side by side: read in place, every distance is a
  // cache line of its own (a vertex's row holds every lane's), shared with the other threads'
  // lanes. On R-MAT 20, 64 SSSP: 16.1 s on copies, 24.9 s in place, 18.3 s in passes through the
  // chunks.
  passes_->settle([&](uint32_t lane, std::vector<VertexId> pending) {
    std::vector<uint64_t> column(n);
    for (uint64_t v = 0; v < n; ++v) column[v] = rows[v * L + lane];
    const uint64_t pushed = delta_stepping(graph, DistanceColumn{column.data(), 1}, std::move(pending), real_, width, 1);
    for (uint64_t v = 0; v < n; ++v)
      if (column[v] != rows[v * L + lane]) rows[v * L + lane] = column[v];
    return pushed;
  });
  return true;
}

// A pass's end: a lane no vertex holds any more is done.
template <uint32_t L>
void SsspGroup<L>::end_pass() {
  const uint32_t round = ++this->rounds_;
  const uint64_t pending = passes_->end_pass().word[0];
  for (uint64_t done = running_ & ~pending; done; done &= done - 1) sssp_[std::countr_zero(done)]->take_outcome(round, true);
  running_ &= pending;
  this->frontier_ = passes_->frontier();
  this->finished_ = this->converged_ = running_ == 0;
}

// The distances lowered this round become the round's start; a lane whose distances did not move
// has finished.
template <uint32_t L>
void SsspGroup<L>::end_round() {
  if (passes_) return end_pass();
  const uint32_t round = ++this->rounds_;
  const uint64_t* lowered = this->next_.words();
  const int64_t words = static_cast<int64_t>((this->next_.size() + 63) / 64);
  uint64_t* dist = dist_->data();
  const uint64_t* next = next_dist_.data();
  uint64_t moved = 0;
#pragma omp parallel for num_threads(this->threads_) schedule(static) reduction(| : moved)
  for (int64_t w = 0; w < words; ++w)
    for (uint64_t bits = lowered[w]; bits; bits &= bits - 1) {
      const uint64_t v = static_cast<uint64_t>(w) * 64 + std::countr_zero(bits);
      for (uint32_t l = 0; l < L; ++l) {
        const uint64_t d = next[v * L + l];
        moved |= uint64_t{d < dist[v * L + l]} << l;
        dist[v * L + l] = d;
      }
    }
  for (uint64_t done = running_ & ~moved; done; done &= done - 1) sssp_[std::countr_zero(done)]->take_outcome(round, true);
  running_ &= moved;
  promote_changed(this->frontier_, this->next_, this->finished_, this->converged_);
}

template <uint32_t L>
void SsspGroup<L>::write_values(OutFormat, const VertexOrder&, const Job::ResultSink&) const {
  fail("{}: a group has no results of its own (its members write theirs)", this->name());
}

template class SsspGroup<8>;
template class SsspGroup<16>;
template class SsspGroup<32>;
template class SsspGroup<64>;

}  // namespace graphso
