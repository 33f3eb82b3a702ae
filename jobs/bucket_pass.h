// An asynchronous pass over the graph in memory (base/adjacency.h), run to its fixed point in
// buckets of values: delta-stepping (Meyer and Sanders, 2003; GAP's sssp), of which BFS is the
// case of buckets one level wide. The vertices whose values must still be pushed are put in the
// bucket of their value; the lowest bucket is emptied, its vertices pushing through every edge,
// and what they lower goes to the bucket of its new value (the same one again, for an edge lighter
// than the width), until no bucket holds anything. A pass through the chunks cannot do this: a
// change reaches only edges that have not gone by, so a road network's BFS takes hundreds of
// passes; here it takes one, and pushes each vertex about once.
//
// Values only fall (a monotone job: levels, distances), so the answer is the one the job's rounds
// reach, whatever the width. A bucket with many vertices is pushed on every thread (atomic
// lowering, each thread's arrivals kept apart and merged after); a small one on the calling thread
// alone, as a textbook queue would, where a parallel region would cost more than its edges.
#pragma once

#include <omp.h>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "base/adjacency.h"
#include "jobs/atomics.h"

namespace graphso {

// Buckets with fewer vertices are pushed on one thread.
inline constexpr uint64_t kParallelBucket = 8192;
// Buckets kept at once: a vertex whose value lands further on waits in a far pile, taken up when
// these are done (one heavy edge would otherwise allocate a bucket per width it spans).
inline constexpr uint64_t kBucketWindow = uint64_t{1} << 16;

// values: the job's, per vertex (a vector, or any view whose values[v] is a reference: a group's
// lane); pending: the vertices to push (any values); bucket(value): its
// bucket, not decreasing in the value; extend(value, weight): what an edge carries to its
// destination (weight 1 on an unweighted graph); parallel_from: the least bucket pushed on every
// thread. Returns the pushes (a vertex lowered twice within its bucket may push twice).
template <typename Values, typename Bucket, typename Extend>
uint64_t bucket_pass(const Adjacency& graph, Values&& values, std::vector<VertexId> pending, Bucket&& bucket,
                     Extend&& extend, int threads, uint64_t parallel_from = kParallelBucket) {
  using T = std::remove_cvref_t<decltype(values[0])>;
  std::vector<std::vector<VertexId>> buckets;
  std::vector<VertexId> far;
  uint64_t base = 0;  // the bucket buckets[0] stands for
  auto put = [&](uint64_t b, VertexId v) {
    if (b - base >= kBucketWindow) return far.push_back(v);
    if (b - base >= buckets.size()) buckets.resize(b - base + 1);
    buckets[b - base].push_back(v);
  };
  uint64_t pushed = 0;
  std::vector<VertexId> current;
  std::vector<std::vector<std::pair<uint64_t, VertexId>>> arrivals(static_cast<size_t>(std::max(threads, 1)));
  // Pushes v's value through its edges if it is still in bucket b, lowering on this thread alone.
  auto push_serial = [&](VertexId v, uint64_t b) {
    const T value = values[v];
    if (bucket(value) != b) return;  // lowered since it was put here: pushed from its new bucket
    const auto targets = graph.targets(v);
    const auto weights = graph.weights(v);
    for (size_t e = 0; e < targets.size(); ++e) {
      const T carried = extend(value, weights.empty() ? Weight{1} : weights[e]);
      if (carried < values[targets[e]]) {
        values[targets[e]] = carried;
        put(bucket(carried), targets[e]);
      }
    }
  };
  while (!pending.empty()) {
    base = UINT64_MAX;
    for (VertexId v : pending) base = std::min<uint64_t>(base, bucket(values[v]));
    buckets.clear();
    for (VertexId v : pending) put(bucket(values[v]), v);
    pending.clear();
    for (uint64_t i = 0; i < buckets.size(); ++i) {
      const uint64_t b = base + i;
      while (!buckets[i].empty()) {
        current.swap(buckets[i]);
        buckets[i].clear();
        pushed += current.size();
        if (threads > 1 && current.size() >= parallel_from) {
          const int64_t count = static_cast<int64_t>(current.size());
#pragma omp parallel num_threads(threads)
          {
            auto& mine = arrivals[static_cast<size_t>(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 256)
            for (int64_t k = 0; k < count; ++k) {
              const VertexId v = current[static_cast<size_t>(k)];
              const T value = std::atomic_ref<T>(values[v]).load(std::memory_order_relaxed);
              if (bucket(value) != b) continue;
              const auto targets = graph.targets(v);
              const auto weights = graph.weights(v);
              for (size_t e = 0; e < targets.size(); ++e) {
                const T carried = extend(value, weights.empty() ? Weight{1} : weights[e]);
                // Most edges lower nothing: a plain load turns them away before the exchange loop.
                if (carried < std::atomic_ref<T>(values[targets[e]]).load(std::memory_order_relaxed) &&
                    atomic_min(values[targets[e]], carried))
                  mine.emplace_back(bucket(carried), targets[e]);
              }
            }
          }
          for (auto& mine : arrivals) {
            for (const auto& [to, u] : mine) put(to, u);
            mine.clear();
          }
        } else {
          for (const VertexId v : current) push_serial(v, b);
        }
        current.clear();
      }
    }
    // The far pile's vertices not lowered into the window since (those were pushed there).
    const uint64_t window_end = base + buckets.size();
    for (VertexId v : far)
      if (bucket(values[v]) >= window_end) pending.push_back(v);
    far.clear();
  }
  return pushed;
}

}  // namespace graphso
