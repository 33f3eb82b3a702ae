#include "jobs/bfs_group.h"

#include <algorithm>

#include "base/error.h"

namespace graphso {

uint32_t bfs_group_words(size_t members) {
  uint32_t words = 1;
  while (words < 8 && uint64_t{64} * words < members) words *= 2;
  return words;
}

template <uint32_t W>
BfsGroup<W>::BfsGroup(std::vector<BfsJob*> members)
    : EdgeJob<BfsGroup<W>, EdgeUse::OutEdges>(fmt::format("bfs x{}", members.size()), "bfs"), bfs_(std::move(members)) {
  if (bfs_.empty() || bfs_.size() > kLanes) fail("a bit-parallel BFS group of {} lanes holds 1 to {} jobs, not {}", kLanes, kLanes, bfs_.size());
  members_.assign(bfs_.begin(), bfs_.end());
}

template <uint32_t W>
uint64_t BfsGroup<W>::state_bytes(uint64_t n) const {
  return n * (sizeof(Cell) + sizeof(Lanes)) + 2 * Bitmap::bytes_for(n) + bfs_.size() * n * sizeof(uint32_t);
}

template <uint32_t W>
void BfsGroup<W>::init(const GraphInfo& graph, int threads) {
  this->threads_ = threads;
  this->bind(graph);
  const uint64_t n = graph.vertices;
  cells_.assign(n, Cell{});
  frontier_lanes_.assign(n, Lanes{});
  this->frontier_ = Bitmap(n);
  this->next_ = Bitmap(n);
  levels_.clear();
  running_ = Lanes{};
  for (size_t lane = 0; lane < bfs_.size(); ++lane) {
    const VertexId source = bfs_[lane]->source();
    const uint64_t bit = uint64_t{1} << (lane % 64);
    levels_.push_back(bfs_[lane]->levels_for_group(n));
    cells_[source].seen[lane / 64] |= bit;
    frontier_lanes_[source].word[lane / 64] |= bit;
    running_.word[lane / 64] |= bit;
    this->frontier_.set(source);
  }
}

// The lanes that arrived at a vertex become its frontier lanes and its seen ones, and give it
// their level; the last frontier's lanes are cleared. One thread takes whole words of both
// bitmaps, so it alone touches those vertices.
template <uint32_t W>
void BfsGroup<W>::end_round() {
  const uint32_t level = ++this->rounds_;
  const uint64_t* last = this->frontier_.words();
  const uint64_t* arrivals = this->next_.words();
  const int64_t words = static_cast<int64_t>((this->frontier_.size() + 63) / 64);
  Lanes reached{};
#pragma omp parallel num_threads(this->threads_)
  {
    Lanes mine{};
#pragma omp for schedule(static)
    for (int64_t w = 0; w < words; ++w) {
      for (uint64_t bits = last[w]; bits; bits &= bits - 1)
        frontier_lanes_[static_cast<uint64_t>(w) * 64 + std::countr_zero(bits)] = Lanes{};
      for (uint64_t bits = arrivals[w]; bits; bits &= bits - 1) {
        const uint64_t v = static_cast<uint64_t>(w) * 64 + std::countr_zero(bits);
        Cell& c = cells_[v];
        Lanes& lanes = frontier_lanes_[v];
        for (uint32_t k = 0; k < W; ++k) {
          const uint64_t arrived = c.arrived[k];
          lanes.word[k] = arrived;
          c.seen[k] |= arrived;
          c.arrived[k] = 0;
          mine.word[k] |= arrived;
          for (uint64_t lane_bits = arrived; lane_bits; lane_bits &= lane_bits - 1)
            levels_[k * 64 + std::countr_zero(lane_bits)][v] = level;
        }
      }
    }
#pragma omp critical(graphso_bfs_group)
    for (uint32_t k = 0; k < W; ++k) reached.word[k] |= mine.word[k];
  }
  // A lane that reached nobody this round is done: its member's levels are final.
  for (uint32_t k = 0; k < W; ++k) {
    for (uint64_t done = running_.word[k] & ~reached.word[k]; done; done &= done - 1)
      bfs_[k * 64 + std::countr_zero(done)]->take_outcome(level, true);
    running_.word[k] &= reached.word[k];
  }
  promote_changed(this->frontier_, this->next_, this->finished_, this->converged_);
}

template <uint32_t W>
void BfsGroup<W>::write_values(OutFormat, const VertexOrder&, const Job::ResultSink&) const {
  fail("{}: a group has no results of its own (its members write theirs)", this->name());
}

template class BfsGroup<1>;
template class BfsGroup<2>;
template class BfsGroup<4>;
template class BfsGroup<8>;

}  // namespace graphso
