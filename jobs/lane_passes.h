// Asynchronous passes for a group of monotone jobs (BFS levels, SSSP distances), lane by lane:
// what a job alone does in its passes (jobs/edge_job.h, "Asynchronous", "Bounded passes"), for up
// to 64 x W members at once over one walk of each run. A vertex holds the lanes whose value
// changed and was not yet pushed: those it had when the pass began (its frontier lanes) and those
// changed during it (its next lanes, set by gathers). A source pushes, through its edges in a run,
// its frontier lanes and its next lanes within their member's reach, each lane's current value; a
// run that holds all its out-edges takes the next lanes it pushes out of its next lanes first (so
// a change after that is pushed later), others leave them for the next pass to push through every
// edge. A lane beyond its reach waits for the next pass. Only the lanes that changed push, so on a
// graph whose members' frontiers are far apart (a road network) a lane costs what the job costs
// alone, and the pass, its loads and its walk are shared.
//
// A run handed again while still loaded (re-entry, middleware/reentry.h) pushes, as for a job
// alone, the next lanes of the sources it holds all the out-edges of.
//
// The group supplies the values (Policy): for each lane its value at a vertex, what an edge
// carries from it, and a lowering (atomic, or owned); lanes only fall, so any order of pushes
// reaches each member's own values. A lane finishes in the pass after which no vertex holds it.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <vector>

#include "base/bitmap.h"
#include "base/edge_run.h"
#include "base/run_edges.h"
#include "jobs/job.h"

namespace graphso {

// A set of a group's lanes (its members): lane l is bit l % 64 of word l / 64.
template <uint32_t W>
struct LaneBits {
  uint64_t word[W];
  bool any() const {
    uint64_t all = 0;
    for (uint32_t k = 0; k < W; ++k) all |= word[k];
    return all != 0;
  }
  template <typename F>
  void for_each(F&& f) const {
    for (uint32_t k = 0; k < W; ++k)
      for (uint64_t bits = word[k]; bits; bits &= bits - 1) f(k * 64 + static_cast<uint32_t>(std::countr_zero(bits)));
  }
};

// Policy:
//   using Value = ...;                                     an unsigned value, lower is better
//   Value value(uint32_t lane, VertexId v) const;          the lane's current value at v
//   Value carried(Value at_source, Weight w) const;         what an edge carries from it
//   bool lower(uint32_t lane, VertexId v, Value x, bool owned);  lowers v's lane to x; true if it fell
//   static constexpr bool kWeighsEdges;                     carried() reads the weight
template <uint32_t W, typename Policy>
class LanePasses {
 public:
  using Lanes = LaneBits<W>;
  using Value = typename Policy::Value;
  static constexpr uint32_t kLanes = 64 * W;
  // A source pushing at least this many lanes walks its edges once, all lanes at each.
  static constexpr uint32_t kManyLanes = 4;

  // reach_hops: bounded passes' hops (0: none); a hop is one level, or for weighted values the
  // long hop, the mean plus three deviations of the weights pushed so far.
  LanePasses(Policy& policy, uint32_t reach_hops) : policy_(policy), reach_hops_(reach_hops) {}

  static uint64_t state_bytes(uint64_t n) { return 2 * n * sizeof(Lanes) + 2 * Bitmap::bytes_for(n); }
  // Bytes of an update record: the destination, the lane and the value.
  static constexpr uint32_t kRecordBytes = 2 * sizeof(uint32_t) + sizeof(Value);

  // Enters passes over n vertices; pend() then names the lanes pending where.
  void start(uint64_t n, int threads, const std::vector<uint32_t>* degrees) {
    threads_ = threads;
    degrees_ = degrees;
    frontier_lanes_.assign(n, Lanes{});
    next_lanes_.assign(n, Lanes{});
    frontier_ = Bitmap(n);
    next_ = Bitmap(n);
    reach_.assign(kLanes, std::numeric_limits<Value>::max());
  }
  // A pending lane at v (start's frontier).
  void pend(uint64_t v, uint32_t lane) {
    frontier_lanes_[v].word[lane / 64] |= uint64_t{1} << (lane % 64);
    frontier_.set(v);
  }
  // After the pends: the first pass's reach.
  void began() { take_reach(); }

  const Bitmap& frontier() const { return frontier_; }
  // The vertices with lanes changed this pass (the late join follows them: Job::pass_changes).
  const Bitmap& changed() const { return next_; }
  bool wants_reentry(VertexId first, VertexId end) const { return next_.any_in(first, end); }
  bool may_push(VertexId first, VertexId end, bool reentry) const {
    if (reentry) return wants_reentry(first, end);
    return frontier_.any_in(first, end) || next_.any_in(first, end);
  }

  // What a run handed again found and pushed (Job::count_sweep).
  using Sweep = Job::Sweep;
  Sweep process(const EdgeRun& run) {
    return walk(run, [&](uint32_t lane, VertexId v, Value x) {
      if (policy_.lower(lane, v, x, run.owns_destinations)) mark_changed(lane, v);
    });
  }
  Sweep scatter_updates(const EdgeRun& run, std::vector<std::byte>& out, uint32_t record_bytes) {
    return walk(run, [&](uint32_t lane, VertexId v, Value x) {
      const size_t at = out.size();
      out.resize(at + record_bytes);
      std::memcpy(out.data() + at, &v, sizeof(v));
      std::memcpy(out.data() + at + sizeof(v), &lane, sizeof(lane));
      std::memcpy(out.data() + at + 2 * sizeof(uint32_t), &x, sizeof(x));
    });
  }
  void gather_updates(std::span<const std::byte> updates, uint32_t record_bytes) {
    for (size_t at = 0; at + record_bytes <= updates.size(); at += record_bytes) {
      VertexId v;
      uint32_t lane;
      Value x;
      std::memcpy(&v, updates.data() + at, sizeof(v));
      std::memcpy(&lane, updates.data() + at + sizeof(v), sizeof(lane));
      std::memcpy(&x, updates.data() + at + 2 * sizeof(uint32_t), sizeof(x));
      if (policy_.lower(lane, v, x, false)) mark_changed(lane, v);
    }
  }

  // Ends a pass: the lanes changed and not pushed become the next pass's frontier lanes. Returns
  // the lanes still pending anywhere.
  Lanes end_pass() {
    uint64_t* last = frontier_.words();
    uint64_t* changed = next_.words();
    const int64_t words = static_cast<int64_t>((frontier_.size() + 63) / 64);
    Lanes pending{};
#pragma omp parallel num_threads(threads_)
    {
      Lanes mine{};
#pragma omp for schedule(static)
      for (int64_t w = 0; w < words; ++w) {
        const uint64_t first = static_cast<uint64_t>(w) * 64;
        uint64_t still = 0;
        for (uint64_t bits = last[w] | changed[w]; bits; bits &= bits - 1) {
          const uint32_t i = static_cast<uint32_t>(std::countr_zero(bits));
          Lanes& lanes = frontier_lanes_[first + i];
          Lanes& next = next_lanes_[first + i];
          lanes = next;
          next = Lanes{};
          for (uint32_t k = 0; k < W; ++k) mine.word[k] |= lanes.word[k];
          still |= uint64_t{lanes.any()} << i;
        }
        // The frontier's words, from the vertices with lanes left (one thread per word).
        last[w] = still;
        changed[w] = 0;
      }
#pragma omp critical(graphso_lane_passes)
      for (uint32_t k = 0; k < W; ++k) pending.word[k] |= mine.word[k];
    }
    take_reach();
    return pending;
  }

  // Light rounds (base/adjacency.h), at a pass's boundary: every lane pending anywhere is run to
  // its fixed point by settle_lane(lane, the vertices it pends at), a bucket pass over the graph in
  // memory (jobs/bucket_pass.h) that writes only that lane's values, the lanes spread over the
  // threads. A road network's lanes, far apart, then each cost a queue traversal alone, every
  // core busy, where passes through the chunks took hundreds of rounds. Nothing pends after (the
  // next end_pass() finds every lane done); returns the pushes.
  template <typename SettleLane>
  uint64_t settle(SettleLane&& settle_lane) {
    std::vector<std::vector<VertexId>> pending(kLanes);
    auto collect = [&](uint64_t v) {
      Lanes& lanes = frontier_lanes_[v];
      Lanes& next = next_lanes_[v];
      for (uint32_t k = 0; k < W; ++k) lanes.word[k] |= next.word[k];
      lanes.for_each([&](uint32_t lane) { pending[lane].push_back(static_cast<VertexId>(v)); });
      lanes = next = Lanes{};
    };
    frontier_.for_each(collect);
    next_.for_each(collect);
    frontier_.clear();
    next_.clear();
    uint64_t pushed = 0;
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 1) reduction(+ : pushed)
    for (uint32_t lane = 0; lane < kLanes; ++lane)
      if (!pending[lane].empty()) pushed += settle_lane(lane, std::move(pending[lane]));
    return pushed;
  }

 private:
  struct WeightTally {
    uint64_t edges = 0;
    double sum = 0, squares = 0;
  };

  void mark_changed(uint32_t lane, VertexId v) {
    std::atomic_ref<uint64_t> word(next_lanes_[v].word[lane / 64]);
    const uint64_t bit = uint64_t{1} << (lane % 64);
    if (!(word.load(std::memory_order_relaxed) & bit)) word.fetch_or(bit, std::memory_order_relaxed);
    next_.set_atomic(v);
  }

  // A run's pushes: each source's lanes (a run handed again: the whole sources' next lanes, found
  // from the next bits over its source range).
  template <typename Emit>
  Sweep walk(const EdgeRun& run, Emit&& emit) {
    WeightTally tally;
    Sweep sweep;
    with_run_edges(run, [&](const auto& edges) {
      if (!run.reentry) {
        edges.for_each_source([&](const SourceEdges& s) {
          Lanes lanes = frontier_.test(s.src) ? frontier_lanes_[s.src] : Lanes{};
          if (next_.test(s.src)) add_ready(lanes, s.src, whole(s));
          push(edges, s, lanes, tally, emit);
        });
        return;
      }
      if (edges.size() == 0 || !degrees_) return;
      uint64_t cursor = 0;
      next_.for_each_in(edges.first_source(), uint64_t{edges.last_source()} + 1, [&](uint64_t v) {
        const uint64_t degree = (*degrees_)[v];
        if (degree == 0) return;
        ++sweep.changed;
        if (degree > edges.size()) return;
        const SourceEdges s = edges.find_source(static_cast<VertexId>(v), cursor);
        if (s.count() != degree) return;
        Lanes lanes{};
        add_ready(lanes, s.src, true);
        if (!lanes.any()) return;
        push(edges, s, lanes, tally, emit);
        ++sweep.pushed;
        sweep.edges += s.count();
      });
    });
    add(tally);
    return sweep;
  }

  bool whole(const SourceEdges& s) const { return degrees_ && (*degrees_)[s.src] == s.count(); }

  // A source changed this pass: its next lanes within their reach push now. When the run holds
  // all its out-edges (whole) they are taken out of its next lanes before their values are read
  // (a change after that sets them again).
  void add_ready(Lanes& lanes, VertexId u, bool whole) {
    for (uint32_t k = 0; k < W; ++k) {
      std::atomic_ref<uint64_t> word(next_lanes_[u].word[k]);
      uint64_t ready = 0;
      for (uint64_t bits = word.load(std::memory_order_relaxed); bits; bits &= bits - 1) {
        const uint32_t lane = k * 64 + static_cast<uint32_t>(std::countr_zero(bits));
        if (policy_.value(lane, u) <= reach_[lane]) ready |= bits & -bits;
      }
      if (ready && whole) word.fetch_and(~ready, std::memory_order_acq_rel);
      lanes.word[k] |= ready;
    }
  }

  // Each of the lanes' current value at s.src through s's edges: lane after lane when few push
  // (each walk is short and its values stay in cache), edge after edge when many do (a
  // destination's lanes are then visited together).
  template <typename Edges, typename Emit>
  void push(const Edges& edges, const SourceEdges& s, const Lanes& lanes, WeightTally& tally, Emit& emit) {
    const VertexId u = s.src;
    auto weigh = [&tally](Weight w, uint64_t times) {
      if constexpr (Policy::kWeighsEdges) {
        tally.edges += times;
        tally.sum += static_cast<double>(w) * static_cast<double>(times);
        tally.squares += static_cast<double>(w) * w * static_cast<double>(times);
      }
    };
    uint32_t count = 0;
    for (uint32_t k = 0; k < W; ++k) count += static_cast<uint32_t>(std::popcount(lanes.word[k]));
    if (count < kManyLanes) {
      lanes.for_each([&](uint32_t lane) {
        const Value at = policy_.value(lane, u);
        edges.for_each_edge(s, [&](VertexId v, Weight w) {
          emit(lane, v, policy_.carried(at, w));
          weigh(w, 1);
        });
      });
      return;
    }
    uint32_t ids[kLanes];
    Value at[kLanes];
    count = 0;
    lanes.for_each([&](uint32_t lane) {
      ids[count] = lane;
      at[count++] = policy_.value(lane, u);
    });
    edges.for_each_edge(s, [&](VertexId v, Weight w) {
      for (uint32_t i = 0; i < count; ++i) emit(ids[i], v, policy_.carried(at[i], w));
      weigh(w, count);
    });
  }

  void add(const WeightTally& tally) {
    if (!tally.edges) return;
    std::atomic_ref<uint64_t>(weighed_).fetch_add(tally.edges, std::memory_order_relaxed);
    std::atomic_ref<double>(sum_).fetch_add(tally.sum, std::memory_order_relaxed);
    std::atomic_ref<double>(squares_).fetch_add(tally.squares, std::memory_order_relaxed);
  }

  // Each running lane's reach: its least pending value plus reach_hops hops.
  void take_reach() {
    constexpr Value kMost = std::numeric_limits<Value>::max();
    std::fill(reach_.begin(), reach_.end(), kMost);
    if (reach_hops_ == 0) return;
    double hop = 1;
    if constexpr (Policy::kWeighsEdges) {
      if (weighed_) {
        const double mean = sum_ / static_cast<double>(weighed_);
        hop = mean + 3 * std::sqrt(std::max(0.0, squares_ / static_cast<double>(weighed_) - mean * mean));
      }
    }
    const Value span = static_cast<Value>(std::min<double>(static_cast<double>(reach_hops_) * hop, static_cast<double>(kMost / 2)));
    std::vector<Value> least(kLanes, kMost);
    frontier_.for_each([&](uint64_t v) {
      frontier_lanes_[v].for_each([&](uint32_t lane) { least[lane] = std::min(least[lane], policy_.value(lane, v)); });
    });
    for (uint32_t lane = 0; lane < kLanes; ++lane)
      reach_[lane] = least[lane] > kMost - span ? kMost : least[lane] + span;
  }

  Policy& policy_;
  uint32_t reach_hops_;
  int threads_ = 1;
  const std::vector<uint32_t>* degrees_ = nullptr;
  std::vector<Lanes> frontier_lanes_;
  std::vector<Lanes> next_lanes_;
  Bitmap frontier_;
  Bitmap next_;
  std::vector<Value> reach_;
  uint64_t weighed_ = 0;
  double sum_ = 0, squares_ = 0;
};

}  // namespace graphso
