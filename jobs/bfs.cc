#include "jobs/bfs.h"

#include <algorithm>
#include <atomic>

#include "base/adjacency.h"
#include "jobs/bucket_pass.h"
#include "jobs/results_text.h"

namespace graphso {

void BfsJob::init(const GraphInfo& graph, int threads) {
  threads_ = threads;
  bind(graph);
  const uint64_t n = graph.vertices;
  symmetric_ = graph.symmetric;
  out_edges_ = symmetric_ ? out_edge_total(graph) : 0;
  level_.assign(n, kUnreached);
  level_[source_] = 0;
  frontier_ = Bitmap(n);
  next_ = Bitmap(n);
  frontier_.set(source_);
  bottom_up_ = false;
  bottom_up_rounds_ = pass_rounds_ = 0;
  thin_ = false;
  passes_after_ = kNever;
  parents_ = Bitmap();
  if (!async_) optimise_direction();
  reach_ = reach_after(level_, reach_hops_, reach_hops_);
}

// Direction-optimising needs in-edges: a symmetric graph's out-edges.
void BfsJob::optimise_direction() {
  if (!symmetric_ || !degrees_ || rounds_ != 0) return;
  parents_ = Bitmap(level_.size());
  edges_unreached_ = out_edges_ - (*degrees_)[source_];
  frontier_edges_ = (*degrees_)[source_];
}

// By default, on a resident graph: rounds while the traversal is small-world, then passes.
void BfsJob::graph_resident() {
  if (!symmetric_ || !degrees_ || !async_ || !async_revisable() || rounds_ != 0) return;
  passes_after_ = kBfsPassesAfter;
  async_ = false;
  optimise_direction();
}

std::string BfsJob::signature() const {
  // The reach bounds passes only: synchronous levels are the same whatever it is.
  return async_ ? fmt::format("bfs source={} async reach={}", source_, reach_hops_) : fmt::format("bfs source={}", source_);
}

uint32_t* BfsJob::levels_for_group(uint64_t vertices) {
  level_.assign(vertices, kUnreached);
  level_[source_] = 0;
  return level_.data();
}

void BfsJob::process(const EdgeRun& run) {
  if (bottom_up_) pull(run);
  else EdgeJob::process(run);
}

// Bottom-up, nothing goes through update records: a searcher's search writes what it found.
void BfsJob::scatter_updates(const EdgeRun& run, std::vector<std::byte>& out) {
  if (bottom_up_) pull(run);
  else EdgeJob::scatter_updates(run, out);
}

// A searcher's edges may lie in several runs (a GridGraph block per destination range), searched
// by several threads: one found in another run already (next_) is passed over, and two that find
// it at once write the same level.
void BfsJob::pull(const EdgeRun& run) {
  if (run.reentry) return;
  const uint32_t level = rounds_ + 1;
  // The searchers found, a bitmap word at a time: one atomic or per word, not per searcher (on
  // R-MAT 20, threads setting bits one by one in the words they share took a fifth of a round).
  uint64_t word_at = 0, found_in_word = 0;
  auto flush = [&] {
    if (found_in_word) next_.set_bits_atomic(word_at, found_in_word);
    found_in_word = 0;
  };
  with_run_edges(run, [&](const auto& edges) {
    for_each_marked_source(edges, false, [&](const SourceEdges& s) {
      if (!frontier_.test(s.src) || next_.test_atomic(s.src)) return;
      bool found = false;
      // A decoded group knows its lowest and highest destinations without its deltas: two real
      // neighbours looked at from arrays walked in order, where the first delta of each group is
      // a cache miss (on R-MAT the lowest id is often a hub, reached early).
      if constexpr (requires { edges.destination_bounds(s); }) {
        const auto [lowest, highest] = edges.destination_bounds(s);
        found = parents_.test(lowest) || (highest < parents_.size() && parents_.test(highest));
      }
      if (!found) edges.for_each_edge_until(s, [&](VertexId u, Weight) { return found = parents_.test(u); });
      if (!found) return;
      std::atomic_ref<uint32_t>(level_[s.src]).store(level, std::memory_order_relaxed);
      if (s.src >> 6 != word_at) {
        flush();
        word_at = s.src >> 6;
      }
      found_in_word |= uint64_t{1} << (s.src & 63);
    });
  });
  flush();
}

bool BfsJob::adjacency_round(const Adjacency& graph) {
  if (bottom_up_) {
    pull(graph);
  } else if (!async_) {
    push(graph);
  } else {
    // Levels a level apart are buckets one wide: the pass is a queue BFS from the vertices still
    // to push, and ends with none left (the round's end then finds the traversal done).
    bucket_pass(graph, level_, take_pending(), [](uint32_t level) { return uint64_t{level}; },
                [](uint32_t level, Weight) { return level + 1; }, threads_);
  }
  return true;
}

void BfsJob::push(const Adjacency& graph) {
  const int64_t words = static_cast<int64_t>(Bitmap::bytes_for(level_.size()) / sizeof(uint64_t));
  const uint64_t* frontier = frontier_.words();
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 256)
  for (int64_t w = 0; w < words; ++w)
    for (uint64_t word = frontier[w]; word; word &= word - 1) {
      const VertexId v = static_cast<VertexId>(static_cast<uint64_t>(w) * 64 + static_cast<uint64_t>(std::countr_zero(word)));
      const uint32_t level = level_[v] + 1;
      for (const VertexId u : graph.targets(v))
        if (gather(u, level)) next_.set_atomic(u);
    }
}

// Each thread takes whole words of searchers, so the words of next_ it sets are its own.
void BfsJob::pull(const Adjacency& graph) {
  const uint32_t level = rounds_ + 1;
  const int64_t words = static_cast<int64_t>(Bitmap::bytes_for(level_.size()) / sizeof(uint64_t));
  const uint64_t* searchers = frontier_.words();
  uint64_t* found = next_.words();
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 64)
  for (int64_t w = 0; w < words; ++w) {
    uint64_t found_in_word = 0;
    for (uint64_t word = searchers[w]; word; word &= word - 1) {
      const int bit = std::countr_zero(word);
      const VertexId s = static_cast<VertexId>(static_cast<uint64_t>(w) * 64 + static_cast<uint64_t>(bit));
      for (const VertexId u : graph.targets(s))
        if (parents_.test(u)) {
          level_[s] = level;
          found_in_word |= uint64_t{1} << bit;
          break;
        }
    }
    found[w] |= found_in_word;
  }
}

void BfsJob::take_searchers() {
  frontier_.assign_where(threads_, [this](uint64_t v) { return level_[v] == kUnreached && (*degrees_)[v] != 0; });
}

void BfsJob::choose_step() {
  uint64_t arrived = 0, arrived_edges = 0;
  next_.for_each([&](uint64_t v) {
    ++arrived;
    arrived_edges += (*degrees_)[v];
  });
  edges_unreached_ -= std::min(edges_unreached_, arrived_edges);
  if (arrived == 0) {
    frontier_.clear();
    finished_ = converged_ = true;
    return;
  }
  const bool was_bottom_up = bottom_up_;
  const bool growing = arrived_edges >= kRoundsWhileGrowing * frontier_edges_;
  frontier_edges_ = arrived_edges;
  if (!bottom_up_ && arrived_edges * kBottomUpAlpha > edges_unreached_) bottom_up_ = true;
  else if (bottom_up_ && arrived * kTopDownBeta < level_.size()) bottom_up_ = false;
  // The rest in passes, from this round's arrivals: after kBfsPassesAfter rounds, or once a
  // top-down traversal stops growing fast (a road network from its first rounds, a small world
  // in its tail), where bottom-up steps will not come and passes take fewer rounds.
  if (rounds_ >= passes_after_ || (passes_after_ != kNever && !bottom_up_ && !growing)) {
    thin_ = bottom_up_rounds_ == 0 && !growing;
    bottom_up_ = false;
    async_ = true;
    parents_ = Bitmap();
    frontier_.swap(next_);
    next_.clear();
    reach_ = reach_after(level_, reach_hops_, reach_hops_);
  } else if (bottom_up_) {
    // Bottom-up again: the searchers are the last ones less those found.
    if (was_bottom_up) frontier_.and_not(next_);
    else take_searchers();
    parents_.swap(next_);
    next_.clear();
    ++bottom_up_rounds_;
  } else {
    frontier_.swap(next_);
    next_.clear();
  }
}

void BfsJob::end_round() {
  ++rounds_;
  if (async_) {
    ++pass_rounds_;
    promote_changed(frontier_, next_, finished_, converged_);
    reach_ = reach_after(level_, reach_hops_, reach_hops_);
  } else if (parents_.size() != 0) {
    choose_step();
  } else {
    promote_changed(frontier_, next_, finished_, converged_);
  }
}

std::vector<std::pair<std::string, uint64_t>> BfsJob::counts() const {
  return {{"bottom_up_rounds", bottom_up_rounds_}, {"pass_rounds", pass_rounds_}};
}

void BfsJob::write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const {
  const std::string_view unreached = format == OutFormat::Graphalytics ? "9223372036854775807" : "-1";
  write_vertex_values(level_, format, order, sink, [unreached](fmt::memory_buffer& out, uint32_t level) {
    if (level == kUnreached) out.append(unreached);
    else fmt::format_to(std::back_inserter(out), "{}", level);
  });
}

}  // namespace graphso
