#include "engine/edge_processor.h"

#include <omp.h>

#include <algorithm>
#include <cstring>

#include "base/error.h"

namespace graphso {
namespace {
// Runs up to this many edges go to the threads together (process_small); larger ones one at a
// time, each shared by all threads (process_large).
constexpr uint64_t kSmallRunEdges = 1 << 17;
}  // namespace

void EdgeProcessor::grow(uint32_t job) {
  if (job >= job_seconds_.size()) {
    job_seconds_.resize(job + 1, 0.0);
    job_edges_.resize(job + 1, 0);
  }
}

// One pass without a branch per edge: the range check and the active-edge count (a bit test of
// each endpoint's frontier word) are both sums.
template <typename Record>
static void count_run(const Record* edges, int64_t count, const StaticPartition& part, const ActiveSets& sets,
                      uint64_t& misplaced, uint64_t& active) {
  const uint32_t src_span = part.src_end - part.src_begin, dst_span = part.dst_end - part.dst_begin;
  auto outside_of = [&](VertexId src, VertexId dst) {
    return (static_cast<uint32_t>(src - part.src_begin) >= src_span) | (static_cast<uint32_t>(dst - part.dst_begin) >= dst_span);
  };
  uint64_t outside = 0, counted = 0;
  if (!sets.sources && !sets.destinations) {
    for (int64_t e = 0; e < count; ++e) outside += outside_of(edges[e].src, edges[e].dst);
  } else {
    // A null set tests as empty; ids are tested only once known to be inside the graph.
    static const uint64_t kNone = 0;
    const uint64_t* src_words = sets.sources ? sets.sources->words() : &kNone;
    const uint64_t* dst_words = sets.destinations ? sets.destinations->words() : &kNone;
    const uint64_t src_mask = sets.sources ? ~uint64_t{0} : 0, dst_mask = sets.destinations ? ~uint64_t{0} : 0;
    for (int64_t e = 0; e < count; ++e) {
      const VertexId src = edges[e].src, dst = edges[e].dst;
      const bool out = outside_of(src, dst);
      outside += out;
      const uint64_t s = src_words[(src >> 6) & src_mask & (out ? 0 : ~uint64_t{0})] >> (src & 63);
      const uint64_t d = dst_words[(dst >> 6) & dst_mask & (out ? 0 : ~uint64_t{0})] >> (dst & 63);
      counted += (s | d) & 1 & !out;
    }
  }
  misplaced += outside;
  active += counted;
}

uint64_t EdgeProcessor::check_run(const EdgeRun& run, bool parallel) const {
  const bool counted = run.counted_active != EdgeRun::kUncounted;
  if (run.checked && counted) return run.counted_active;
  // A run whose count the loader gave is only range-checked.
  const ActiveSets sets = counted ? ActiveSets{} : run.accounting;
  const StaticPartition& part = layout_.partitions[run.partition];
  const int64_t count = static_cast<int64_t>(run.count);
  const int pieces = parallel ? threads_ : 1;
  uint64_t misplaced = 0, active = 0;
#pragma omp parallel for num_threads(threads_) reduction(+ : misplaced, active) if (pieces > 1)
  for (int t = 0; t < pieces; ++t) {
    const int64_t first = count * t / pieces, last = count * (t + 1) / pieces;
    if (run.weighted)
      count_run(reinterpret_cast<const WeightedEdge*>(run.data) + first, last - first, part, sets, misplaced, active);
    else
      count_run(reinterpret_cast<const Edge*>(run.data) + first, last - first, part, sets, misplaced, active);
  }
  if (misplaced)
    fail("{} holds {} edges outside its vertex ranges (corrupt graph file; `graphso inspect --verify` checks "
         "every block)",
         name_(run), misplaced);
  return counted ? run.counted_active : active;
}

double EdgeProcessor::theta(uint32_t job) const {
  if (job < job_edges_.size() && job_edges_[job]) return job_seconds_[job] / static_cast<double>(job_edges_[job]);
  double known = 0;  // a job not measured yet is assumed as slow as the slowest measured one
  for (size_t k = 0; k < job_edges_.size(); ++k)
    if (job_edges_[k]) known = std::max(known, job_seconds_[k] / static_cast<double>(job_edges_[k]));
  return known > 0 ? known : 1e-9;
}

bool EdgeProcessor::failed(uint32_t job) const {
  for (const auto& f : failures_)
    if (f.first == job) return true;
  return false;
}

void EdgeProcessor::process(std::span<const EdgeRun> runs) {
  for (const EdgeRun& run : runs)
    for (uint32_t j : run.jobs) grow(j);
  bool packed = false;
  for (const EdgeRun& run : runs) packed |= run.packed;
  if (packed) process_packed(runs);
  else process_records(runs);
}

// Slices of the load's pages, each decoded on the threads (pieces of up to kDecodePages pages)
// into decoded_, then processed as records. A slice ends on a run's page boundary once it holds
// decode_edges_ edges, so the buffer never holds more.
void EdgeProcessor::process_packed(std::span<const EdgeRun> runs) {
  constexpr uint64_t kDecodePages = 16;
  const uint32_t record = edge_bytes(runs.front().weighted);
  struct Task {
    size_t run;           // index into runs
    uint64_t page;        // first page of the run
    uint64_t pages;
    uint64_t out;         // first record in decoded_
  };
  std::vector<Task> tasks;
  std::vector<EdgeRun> slice;
  std::vector<uint64_t> slice_at;  // each slice run's first record in decoded_
  uint64_t slice_edges = 0;
  auto flush = [&] {
    if (slice.empty()) return;
    if (decoded_.size() < slice_edges * record) decoded_.resize(std::max(slice_edges, decode_edges_) * record);
    for (size_t r = 0; r < slice.size(); ++r) slice[r].data = decoded_.data() + slice_at[r] * record;
    const int64_t count = static_cast<int64_t>(tasks.size());
    std::string error;
    double seconds = 0;
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 1) reduction(+ : seconds) if (count > 1)
    for (int64_t t = 0; t < count; ++t) {
      const double began = omp_get_wtime();
      const Task& task = tasks[t];
      const EdgeRun& run = runs[task.run];
      PackedPageProblem problem;
      const auto pages = std::span<const std::byte>(run.data + task.page * kPackedPageBytes, task.pages * kPackedPageBytes);
      if (decode_packed_pages(pages, run.weighted, decoded_.data() + task.out * record, &problem) < 0) {
#pragma omp critical(graphso_engine_errors)
        if (error.empty())
          error = fmt::format("{}: page {} of the edges read is malformed: {} (corrupt graph file; `graphso inspect "
                              "--verify` checks every block)",
                              name_(run), task.page + problem.page, problem.what);
      }
      seconds += omp_get_wtime() - began;
    }
    if (!error.empty()) throw Error(error);
    counters_.decode_seconds += seconds;
    counters_.edges_decoded += slice_edges;
    process_records(slice, false);
    tasks.clear();
    slice.clear();
    slice_at.clear();
    slice_edges = 0;
  };
  // A run is counted once, however many slices it was handed over in.
  for (const EdgeRun& run : runs) counters_.runs += !run.reentry;
  for (size_t k = 0; k < runs.size(); ++k) {
    const EdgeRun& run = runs[k];
    if (!run.packed) fail("a load mixes packed and raw runs");
    const uint64_t pages = run.packed_bytes / kPackedPageBytes;
    uint64_t page = 0, first_edge = 0;  // where the run's next slice starts
    while (page < pages) {
      // The pages of this run that the slice takes: as many as fit decode_edges_, at least one.
      uint64_t end = page, edges = 0;
      std::vector<std::pair<uint64_t, uint64_t>> pieces;  // (first page, edges before it in the slice)
      while (end < pages) {
        const uint64_t n = packed_page_edges(run.data + end * kPackedPageBytes);
        if (end > page && slice_edges + edges + n > decode_edges_) break;
        if ((end - page) % kDecodePages == 0) pieces.emplace_back(end, edges);
        edges += n;
        ++end;
      }
      for (size_t p = 0; p < pieces.size(); ++p) {
        const uint64_t last = p + 1 < pieces.size() ? pieces[p + 1].first : end;
        tasks.push_back({k, pieces[p].first, last - pieces[p].first, slice_edges + pieces[p].second});
      }
      EdgeRun r = run;
      r.packed = false;
      r.packed_bytes = 0;
      r.data = nullptr;  // set in flush, once decoded_ is sized
      r.count = edges;
      r.first_edge = run.first_edge + first_edge;
      if (first_edge != 0) {
        r.active_edges = {};
        if (r.counted_active != EdgeRun::kUncounted) r.counted_active = 0;
      }
      slice.push_back(r);
      slice_at.push_back(slice_edges);
      slice_edges += edges;
      first_edge += edges;
      page = end;
      if (slice_edges >= decode_edges_) flush();
    }
  }
  flush();
}

void EdgeProcessor::process_records(std::span<const EdgeRun> runs, bool count_runs) {
  // Consecutive small runs go to the threads together; large runs one at a time.
  size_t k = 0;
  while (k < runs.size()) {
    if (runs[k].count > kSmallRunEdges) {
      process_large(runs[k], count_runs);
      ++k;
      continue;
    }
    size_t end = k;
    while (end < runs.size() && runs[end].count <= kSmallRunEdges) ++end;
    process_small(runs.subspan(k, end - k), count_runs);
    k = end;
  }
}

// The work of a load of small runs, for the threads to take dynamically. When the runs fall into
// enough destination ranges of even size (a GridGraph load holds blocks of several columns), an
// item is every run of one range, and the thread that takes it owns those destinations: its jobs
// update them without atomics. Otherwise (one thread aside) items are pieces of runs of about an
// eighth of a thread's share, so a load of few runs still keeps every thread busy.
std::vector<EdgeProcessor::WorkItem> EdgeProcessor::plan_small(std::span<const EdgeRun> runs) const {
  std::vector<WorkItem> items;
  uint64_t total = 0;
  for (const EdgeRun& run : runs) total += run.count;
  if (threads_ == 1) {
    for (size_t k = 0; k < runs.size(); ++k) items.push_back({{{k, 0, runs[k].count}}, true});
    return items;
  }
  std::vector<size_t> order(runs.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  auto range = [&](size_t k) {
    const StaticPartition& p = layout_.partitions[runs[k].partition];
    return std::pair(p.dst_begin, p.dst_end);
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return range(a) < range(b); });
  uint64_t largest = 0;
  bool disjoint = true;  // ranges that overlap without being equal cannot be owned apart
  VertexId covered = 0;
  for (size_t k = 0; k < order.size();) {
    WorkItem item{{}, true};
    uint64_t edges = 0;
    const auto r = range(order[k]);
    if (!items.empty() && r.first < covered) disjoint = false;
    covered = std::max(covered, r.second);
    for (; k < order.size() && range(order[k]) == r; ++k) {
      item.pieces.push_back({order[k], 0, runs[order[k]].count});
      edges += runs[order[k]].count;
    }
    largest = std::max(largest, edges);
    items.push_back(std::move(item));
  }
  const uint64_t share = total / static_cast<uint64_t>(threads_);
  if (disjoint && items.size() >= 2 * static_cast<size_t>(threads_) && largest <= share) return items;

  items.clear();
  const uint64_t piece = std::max<uint64_t>(kMinPieceEdges, share / 8);
  for (size_t k = 0; k < runs.size(); ++k)
    for (uint64_t first = 0; first < runs[k].count; first += piece)
      items.push_back({{{k, first, std::min(piece, runs[k].count - first)}}, false});
  return items;
}

void EdgeProcessor::process_small(std::span<const EdgeRun> runs, bool count_runs) {
  const std::vector<WorkItem> items = plan_small(runs);
  const int64_t count = static_cast<int64_t>(items.size());
  uint64_t edges_loaded = 0, active_edges = 0, edges_processed = 0;
  std::vector<double> seconds(job_seconds_.size(), 0.0);
  std::vector<uint64_t> job_edges(job_seconds_.size(), 0);
  std::vector<std::pair<uint32_t, std::string>> errors;
  std::string check_error;
  const std::vector<std::pair<uint32_t, std::string>> failed_before = failures_;
  auto skip = [&](uint32_t j) {
    for (const auto& f : failed_before)
      if (f.first == j) return true;
    return false;
  };
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 1) \
    reduction(+ : edges_loaded, active_edges, edges_processed) if (count > 1)
  for (int64_t u = 0; u < count; ++u) {
    for (const Piece& p : items[u].pieces) {
      EdgeRun run = runs[p.run].piece(p.first, p.count);
      run.owns_destinations = items[u].owns_destinations;
      try {
        active_edges += check_run(run, false);
      } catch (const std::exception& e) {
#pragma omp critical(graphso_engine_errors)
        if (check_error.empty()) check_error = e.what();
        break;
      }
      if (!run.reentry) edges_loaded += run.count;
      for (uint32_t j : run.jobs) {
        if (skip(j)) continue;
        double began = omp_get_wtime();
        try {
          action_(j, run);
        } catch (const std::exception& e) {
#pragma omp critical(graphso_engine_errors)
          errors.emplace_back(j, e.what());
        }
        double took = omp_get_wtime() - began;
#pragma omp atomic
        seconds[j] += took;
#pragma omp atomic
        job_edges[j] += run.count;
        edges_processed += run.count;
      }
    }
  }
  if (!check_error.empty()) throw Error(check_error);
  if (count_runs)
    for (const EdgeRun& run : runs) counters_.runs += !run.reentry;
  counters_.edges_loaded += edges_loaded;
  counters_.active_edges_loaded += active_edges;
  counters_.edges_processed += edges_processed;
  for (size_t j = 0; j < seconds.size(); ++j) {
    job_seconds_[j] += seconds[j];
    job_edges_[j] += job_edges[j];
  }
  for (auto& e : errors)
    if (!failed(e.first)) failures_.push_back(std::move(e));
}

void EdgeProcessor::process_large(const EdgeRun& run, bool count_runs) {
  const uint64_t active = check_run(run, true);
  if (!run.reentry) {
    counters_.runs += count_runs;
    counters_.edges_loaded += run.count;
    counters_.active_edges_loaded += active;
  }

  // The run's live jobs and their estimated loads L_j = theta_j x active edges.
  std::vector<uint32_t> live;
  std::vector<double> load;
  for (size_t k = 0; k < run.jobs.size(); ++k) {
    uint32_t j = run.jobs[k];
    if (failed(j)) continue;
    double edges = run.active_edges.empty() ? static_cast<double>(run.count) : static_cast<double>(run.active_edges[k]);
    live.push_back(j);
    load.push_back(theta(j) * std::max(edges, 1.0));
  }
  if (live.empty()) return;
  double total = 0;
  std::vector<double> start(live.size());
  for (size_t k = 0; k < live.size(); ++k) {
    start[k] = total;
    total += load[k];
  }

  // Thread t takes the slice [t, t+1) * total / T of the jobs' loads laid end to end: a job with
  // twice the load gets twice the threads, and every edge of every job is processed exactly once.
  std::vector<double> seconds(live.size(), 0.0);
  std::vector<std::string> errors(live.size());
#pragma omp parallel num_threads(threads_)
  {
    const int t = omp_get_thread_num(), T = omp_get_num_threads();
    const double lo = total * t / T, hi = total * (t + 1) / T;
    for (size_t k = 0; k < live.size(); ++k) {
      double a = std::max(lo, start[k]), b = std::min(hi, start[k] + load[k]);
      if (a >= b) continue;
      uint64_t first = static_cast<uint64_t>((a - start[k]) / load[k] * static_cast<double>(run.count));
      uint64_t last = b >= start[k] + load[k] ? run.count
                                              : static_cast<uint64_t>((b - start[k]) / load[k] * static_cast<double>(run.count));
      if (first >= last) continue;
      double began = omp_get_wtime();
      try {
        action_(live[k], run.piece(first, last - first));
      } catch (const std::exception& e) {
#pragma omp critical(graphso_engine_errors)
        if (errors[k].empty()) errors[k] = e.what();
      }
      double took = omp_get_wtime() - began;
#pragma omp atomic
      seconds[k] += took;
    }
  }
  for (size_t k = 0; k < live.size(); ++k) {
    job_seconds_[live[k]] += seconds[k];
    job_edges_[live[k]] += run.count;
    counters_.edges_processed += run.count;
    if (!errors[k].empty()) failures_.emplace_back(live[k], errors[k]);
  }
}

}  // namespace graphso
