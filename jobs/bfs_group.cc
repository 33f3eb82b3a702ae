#include "jobs/bfs_group.h"

#include <algorithm>
#include <span>

#include "base/adjacency.h"
#include "base/error.h"
#include "jobs/bucket_pass.h"

namespace graphso {
namespace {

// Transposes a 64 x 64 bit matrix in place: bit i of a[j] becomes bit j of a[i] (Hacker's Delight,
// 7-3, with bit 0 the least significant).
void transpose64(uint64_t a[64]) {
  uint64_t mask = 0x00000000FFFFFFFFull;
  for (int j = 32; j != 0; j >>= 1, mask ^= mask << j)
    for (int k = 0; k < 64; k = ((k | j) + 1) & ~j) {
      const uint64_t t = ((a[k] >> j) ^ a[k | j]) & mask;
      a[k] ^= t << j;
      a[k | j] ^= t;
    }
}

}  // namespace

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
  // Synchronous members stay in rounds; asked for passes, the group starts in them; by default,
  // it goes to passes once the rounds run long.
  const BfsJob& first = *bfs_.front();
  passes_after_ = !first.async() ? UINT32_MAX : first.async_revisable() ? kPassesAfter : 0;
  level_lanes_.levels = &levels_;
}

template <uint32_t W>
uint64_t BfsGroup<W>::state_bytes(uint64_t n) const {
  const uint64_t passes = passes_after_ == UINT32_MAX ? 0 : LanePasses<W, LevelLanes>::state_bytes(n);
  return n * (sizeof(Cell) + sizeof(Lanes)) + 3 * Bitmap::bytes_for(n) + bfs_.size() * n * sizeof(uint32_t) + passes;
}

template <uint32_t W>
void BfsGroup<W>::init(const GraphInfo& graph, int threads) {
  this->threads_ = threads;
  this->bind(graph);
  symmetric_ = graph.symmetric;
  const uint64_t n = graph.vertices;
  cells_.assign(n, Cell{});
  frontier_lanes_.assign(n, Lanes{});
  lanes_at_ = Bitmap(n);
  this->next_ = Bitmap(n);
  levels_.clear();
  running_ = Lanes{};
  frontier_edges_ = 0;
  leaves_early_ = thin_ = false;
  bottom_up_ = false;
  bottom_up_rounds_ = 0;
  for (size_t lane = 0; lane < bfs_.size(); ++lane) {
    const VertexId source = bfs_[lane]->source();
    const uint64_t bit = uint64_t{1} << (lane % 64);
    levels_.push_back(bfs_[lane]->levels_for_group(n));
    cells_[source].seen[lane / 64] |= bit;
    frontier_lanes_[source].word[lane / 64] |= bit;
    running_.word[lane / 64] |= bit;
    if (!lanes_at_.test(source)) frontier_edges_ += (*this->degrees_)[source];
    lanes_at_.set(source);
  }
  this->frontier_ = lanes_at_;
  edges_unsearched_ = out_edge_total(graph);
  passes_.reset();
  pass_rounds_ = 0;
  this->async_ = false;
  if (passes_after_ == 0) enter_passes();
}

template <uint32_t W>
void BfsGroup<W>::graph_resident() {
  leaves_early_ = symmetric_ && passes_after_ == kPassesAfter && this->rounds_ == 0 && !passes_;
}

template <uint32_t W>
void BfsGroup<W>::enter_passes() {
  passes_.emplace(level_lanes_, bfs_.front()->reach_hops());
  passes_->start(cells_.size(), this->threads_, this->degrees_);
  lanes_at_.for_each([&](uint64_t v) {
    Lanes pending = frontier_lanes_[v];
    for (uint32_t k = 0; k < W; ++k) pending.word[k] &= running_.word[k];
    for (uint32_t k = 0; k < W; ++k)
      for (uint64_t bits = pending.word[k]; bits; bits &= bits - 1) passes_->pend(v, k * 64 + std::countr_zero(bits));
  });
  passes_->began();
  this->frontier_ = passes_->frontier();
  // The lane bits are done with; the engines now gather this job after every load (X-Stream).
  std::vector<Cell>().swap(cells_);
  std::vector<Lanes>().swap(frontier_lanes_);
  this->async_ = true;
}

template <uint32_t W>
void BfsGroup<W>::process(const EdgeRun& run) {
  if (passes_) this->count_sweep(passes_->process(run));
  else if (bottom_up_) pull(run);
  else EdgeJob<BfsGroup<W>, EdgeUse::OutEdges>::process(run);
}

// Bottom-up, nothing goes through update records: a source's search writes what it found.
template <uint32_t W>
void BfsGroup<W>::scatter_updates(const EdgeRun& run, std::vector<std::byte>& out) {
  if (passes_) this->count_sweep(passes_->scatter_updates(run, out, update_bytes()));
  else if (bottom_up_) pull(run);
  else EdgeJob<BfsGroup<W>, EdgeUse::OutEdges>::scatter_updates(run, out);
}

template <uint32_t W>
void BfsGroup<W>::gather_updates(std::span<const std::byte> updates) {
  if (passes_) passes_->gather_updates(updates, update_bytes());
  else EdgeJob<BfsGroup<W>, EdgeUse::OutEdges>::gather_updates(updates);
}

// One size for both kinds of record: a destination and its lanes, or a destination, a lane and a
// level (passes).
template <uint32_t W>
uint32_t BfsGroup<W>::update_bytes() const {
  return std::max(EdgeJob<BfsGroup<W>, EdgeUse::OutEdges>::update_bytes(), LanePasses<W, LevelLanes>::kRecordBytes);
}

template <uint32_t W>
bool BfsGroup<W>::wants_reentry(VertexId first, VertexId end) const {
  return passes_ && passes_->wants_reentry(first, end);
}

template <uint32_t W>
bool BfsGroup<W>::may_push(VertexId first, VertexId end, bool reentry) const {
  if (passes_) return passes_->may_push(first, end, reentry);
  return EdgeJob<BfsGroup<W>, EdgeUse::OutEdges>::may_push(first, end, reentry);
}

// A pass's end: a lane no vertex holds any more is done.
template <uint32_t W>
void BfsGroup<W>::end_pass() {
  const uint32_t round = ++this->rounds_;
  ++pass_rounds_;
  const bool running = finish_lanes(passes_->end_pass(), round);
  this->frontier_ = passes_->frontier();
  this->finished_ = this->converged_ = !running;
}

template <uint32_t W>
bool BfsGroup<W>::finish_lanes(const Lanes& active, uint32_t round) {
  uint64_t still = 0;
  for (uint32_t k = 0; k < W; ++k) {
    for (uint64_t done = running_.word[k] & ~active.word[k]; done; done &= done - 1)
      bfs_[k * 64 + std::countr_zero(done)]->take_outcome(round, true);
    running_.word[k] &= active.word[k];
    still |= running_.word[k];
  }
  return still != 0;
}

template <uint32_t W>
bool BfsGroup<W>::lacks(uint64_t v, Lanes& missing) const {
  const Cell& c = cells_[v];
  uint64_t any = 0;
  for (uint32_t k = 0; k < W; ++k) {
    // Another thread's search of v's edges in another run may be adding arrivals.
    const uint64_t arrived = std::atomic_ref<const uint64_t>(c.arrived[k]).load(std::memory_order_relaxed);
    missing.word[k] = running_.word[k] & ~c.seen[k] & ~arrived;
    any |= missing.word[k];
  }
  return any != 0;
}

template <uint32_t W>
bool BfsGroup<W>::finds_all(VertexId u, const Lanes& missing, Lanes& found) const {
  const Lanes& near = frontier_lanes_[u];
  uint64_t open = 0;
  for (uint32_t k = 0; k < W; ++k) {
    found.word[k] |= near.word[k] & missing.word[k];
    open |= missing.word[k] & ~found.word[k];
  }
  return open == 0;
}

template <uint32_t W>
void BfsGroup<W>::pull(const EdgeRun& run) {
  if (run.reentry) return;
  with_run_edges(run, [&](const auto& edges) {
    edges.for_each_source([&](const SourceEdges& s) {
      Lanes missing;
      if (!this->frontier_.test(s.src) || !lacks(s.src, missing)) return;
      Lanes found{};
      edges.for_each_edge_until(s, [&](VertexId u, Weight) { return finds_all(u, missing, found); });
      uint64_t any = 0;
      for (uint32_t k = 0; k < W; ++k)
        if (found.word[k]) {
          std::atomic_ref<uint64_t>(cells_[s.src].arrived[k]).fetch_or(found.word[k], std::memory_order_relaxed);
          any |= found.word[k];
        }
      if (any) this->next_.set_atomic(s.src);
    });
  });
}

template <uint32_t W>
bool BfsGroup<W>::adjacency_round(const Adjacency& graph) {
  if (passes_) {
    const uint64_t n = graph.vertices();
    passes_->settle([&](uint32_t lane, std::vector<VertexId> pending) {
      return bucket_pass(graph, std::span<uint32_t>(levels_[lane], n), std::move(pending),
                         [](uint32_t level) { return uint64_t{level}; }, [](uint32_t level, Weight) { return level + 1; }, 1);
    });
  } else if (bottom_up_) {
    pull(graph);
  } else {
    push(graph);
  }
  return true;
}

// Top-down: each frontier vertex's lanes go through its edges.
template <uint32_t W>
void BfsGroup<W>::push(const Adjacency& graph) {
  const int64_t words = static_cast<int64_t>((lanes_at_.size() + 63) / 64);
  const uint64_t* frontier = this->frontier_.words();
#pragma omp parallel for num_threads(this->threads_) schedule(dynamic, 256)
  for (int64_t w = 0; w < words; ++w)
    for (uint64_t bits = frontier[w]; bits; bits &= bits - 1) {
      const VertexId u = static_cast<VertexId>(static_cast<uint64_t>(w) * 64 + static_cast<uint64_t>(std::countr_zero(bits)));
      const Lanes lanes = frontier_lanes_[u];
      for (const VertexId v : graph.targets(u))
        if (gather(v, lanes)) this->next_.set_atomic(v);
    }
}

// Bottom-up: each thread takes whole words of searchers, so the cells and the words of next_ it
// writes are its own.
template <uint32_t W>
void BfsGroup<W>::pull(const Adjacency& graph) {
  const int64_t words = static_cast<int64_t>((lanes_at_.size() + 63) / 64);
  const uint64_t* searchers = this->frontier_.words();
  uint64_t* found_words = this->next_.words();
#pragma omp parallel for num_threads(this->threads_) schedule(dynamic, 64)
  for (int64_t w = 0; w < words; ++w) {
    uint64_t found_in_word = 0;
    for (uint64_t bits = searchers[w]; bits; bits &= bits - 1) {
      const int bit = std::countr_zero(bits);
      const uint64_t s = static_cast<uint64_t>(w) * 64 + static_cast<uint64_t>(bit);
      Lanes missing;
      if (!lacks(s, missing)) continue;
      Lanes found{};
      for (const VertexId u : graph.targets(static_cast<VertexId>(s)))
        if (finds_all(u, missing, found)) break;
      if (!found.any()) continue;
      for (uint32_t k = 0; k < W; ++k) cells_[s].arrived[k] |= found.word[k];
      found_in_word |= uint64_t{1} << bit;
    }
    found_words[w] |= found_in_word;
  }
}

template <uint32_t W>
uint64_t BfsGroup<W>::take_searchers() {
  const int64_t words = static_cast<int64_t>(lanes_at_.size() + 63) / 64;
  const int64_t n = static_cast<int64_t>(lanes_at_.size());
  uint64_t edges = 0;
  this->frontier_.clear();
#pragma omp parallel for num_threads(this->threads_) schedule(static) reduction(+ : edges)
  for (int64_t w = 0; w < words; ++w)
    for (int64_t v = w * 64; v < std::min(n, w * 64 + 64); ++v) {
      Lanes missing;
      const uint32_t degree = (*this->degrees_)[v];
      if (degree == 0 || !lacks(static_cast<uint64_t>(v), missing)) continue;
      this->frontier_.set(static_cast<uint64_t>(v));
      edges += degree;
    }
  return edges;
}

// The lanes that arrived at a vertex become its frontier lanes and its seen ones, and give it
// their level; the last round's frontier lanes are cleared. One thread takes whole words of the
// bitmaps, so it alone touches those vertices. The levels go to each member's own array: by 64
// vertices at a time (a bitmap word), the block's lanes are transposed so each lane's levels are
// written together, a few lines of its array, instead of a line of every arriving lane's array
// per vertex (with those writes the round's end took 16% of a 64-BFS group's time on R-MAT 20,
// 10% without). Then the next round's step is chosen.
template <uint32_t W>
void BfsGroup<W>::end_round() {
  if (passes_) return end_pass();
  const uint32_t level = ++this->rounds_;
  const uint64_t* last = lanes_at_.words();
  const uint64_t* arrivals = this->next_.words();
  const int64_t words = static_cast<int64_t>((lanes_at_.size() + 63) / 64);
  Lanes reached{};
  uint64_t arrived_vertices = 0, arrived_edges = 0, searched_edges = 0;
#pragma omp parallel num_threads(this->threads_) reduction(+ : arrived_vertices, arrived_edges, searched_edges)
  {
    Lanes mine{};
    uint64_t block[64];
#pragma omp for schedule(static)
    for (int64_t w = 0; w < words; ++w) {
      const uint64_t first = static_cast<uint64_t>(w) * 64;
      for (uint64_t bits = last[w]; bits; bits &= bits - 1) frontier_lanes_[first + std::countr_zero(bits)] = Lanes{};
      if (!arrivals[w]) continue;
      for (uint32_t k = 0; k < W; ++k) {
        uint64_t any = 0;
        for (uint32_t i = 0; i < 64; ++i) {
          const uint64_t v = first + i;
          if (!((arrivals[w] >> i) & 1)) {
            block[i] = 0;
            continue;
          }
          Cell& c = cells_[v];
          const uint64_t arrived = c.arrived[k];
          block[i] = arrived;
          frontier_lanes_[v].word[k] = arrived;
          c.seen[k] |= arrived;
          c.arrived[k] = 0;
          any |= arrived;
        }
        mine.word[k] |= any;
        transpose64(block);  // block[j]: the vertices lane 64k + j reached
        for (uint64_t lanes = any; lanes; lanes &= lanes - 1) {
          const uint32_t j = static_cast<uint32_t>(std::countr_zero(lanes));
          uint32_t* levels = levels_[k * 64 + j];
          for (uint64_t at = block[j]; at; at &= at - 1) levels[first + std::countr_zero(at)] = level;
        }
      }
      // What the choice of step weighs: the new frontier's out-edges, and those of the vertices
      // that now lack no lane (a bottom-up step no longer searches them).
      for (uint64_t bits = arrivals[w]; bits; bits &= bits - 1) {
        const uint64_t v = first + std::countr_zero(bits);
        const uint32_t degree = (*this->degrees_)[v];
        ++arrived_vertices;
        arrived_edges += degree;
        Lanes missing;
        if (!lacks(v, missing)) searched_edges += degree;
      }
    }
#pragma omp critical(graphso_bfs_group)
    for (uint32_t k = 0; k < W; ++k) reached.word[k] |= mine.word[k];
  }
  edges_unsearched_ -= std::min(edges_unsearched_, searched_edges);
  // A lane that reached nobody this round is done: its member's levels are final.
  const bool running = finish_lanes(reached, level);
  lanes_at_.swap(this->next_);
  this->next_.clear();
  this->finished_ = this->converged_ = !running;
  if (this->finished_) {
    this->frontier_.clear();
    return;
  }
  // Bottom-up when the frontier's edges outweigh those left to search (which only a full count
  // gives exactly: taken whenever a bottom-up step's searchers are), top-down again once the
  // frontier is small.
  if (symmetric_ && !bottom_up_ && arrived_edges * kBottomUpAlpha > edges_unsearched_) bottom_up_ = true;
  else if (bottom_up_ && arrived_vertices * kTopDownBeta < lanes_at_.size()) bottom_up_ = false;
  const bool growing = arrived_edges >= kRoundsWhileGrowing * frontier_edges_;
  frontier_edges_ = arrived_edges;
  // Early only before any bottom-up step: a small world's tail, after them, is a few rounds that
  // cost less bit-parallel than as passes through the chunks (64 BFS on R-MAT 20: 0.017-0.020 s
  // against 0.024-0.036 s a round).
  thin_ = leaves_early_ && bottom_up_rounds_ == 0 && !bottom_up_ && !growing;
  if (level >= passes_after_ || thin_) {
    enter_passes();
  } else if (bottom_up_) {
    edges_unsearched_ = take_searchers();
    ++bottom_up_rounds_;
  } else {
    this->frontier_ = lanes_at_;
  }
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
