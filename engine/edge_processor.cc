#include "engine/edge_processor.h"

#include <omp.h>

#include <algorithm>
#include <tuple>

#include "base/error.h"
#include "base/run_edges.h"

namespace graphso {
namespace {
// Runs up to this many edges go to the threads together (process_small); larger ones one at a
// time, each shared by all threads (process_large).
constexpr uint64_t kSmallRunEdges = 1 << 17;
// The most of a thread's share of a load one destination range may hold and stay one owned item:
// a range cut into pieces is updated by every thread at once, and where a hub's lines are shared
// that contention costs more than the imbalance of one thread taking the range alone. At one share,
// soc-slashdot's PageRank (a block of 57% of the edges) took 2.1-2.3x one thread's time on two; at 1.5,
// 0.36x of that, W1 0.64x (R-MAT 20 at 1/4 0.86x, 8 PPR 0.92x, road-FLA W1 1.01x; alternated).
constexpr double kSharesAlone = 1.5;
}  // namespace

SourceFilter page_filter(std::span<Job* const> jobs, const DecodeOptions& options) {
  if (!options.pass_over_pages) return {};
  return [jobs](uint32_t j, VertexId first, VertexId end, bool reentry) { return jobs[j]->may_push(first, end, reentry); };
}

WindowFilter window_filter(std::span<Job* const> jobs) {
  return [jobs](uint32_t j, bool reentry) { return jobs[j]->takes_windows(reentry); };
}

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

// The same for decoded source groups: a source is checked and tested once for its edges, and
// its destinations by the bounds the decoder found (GroupEdges::destination_bounds); only
// destinations counted against a set are visited one by one.
template <typename Groups>
static void count_groups(const Groups& edges, const StaticPartition& part, const ActiveSets& sets, uint64_t& misplaced,
                         uint64_t& active) {
  const uint32_t src_span = part.src_end - part.src_begin;
  edges.for_each_source([&](const SourceEdges& s) {
    if (static_cast<uint32_t>(s.src - part.src_begin) >= src_span) {
      misplaced += s.count();
      return;
    }
    const auto [lowest, highest] = edges.destination_bounds(s);
    if (lowest < part.dst_begin || highest >= part.dst_end) {  // an error: count them for its message
      uint64_t outside = 0;
      edges.for_each_edge(s, [&](VertexId dst, Weight) { outside += dst < part.dst_begin || dst >= part.dst_end; });
      misplaced += std::max<uint64_t>(outside, 1);  // bounds past 32 bits: the deltas wrapped
      return;
    }
    if (sets.sources && sets.sources->test(s.src)) {
      active += s.count();
    } else if (sets.destinations) {
      edges.for_each_edge(s, [&](VertexId dst, Weight) { active += sets.destinations->test(dst); });
    }
  });
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
  if (run.grouped()) {  // decoded on this thread: never checked in parallel
    if (run.weighted) count_groups(GroupEdges<true>(run), part, sets, misplaced, active);
    else count_groups(GroupEdges<false>(run), part, sets, misplaced, active);
  } else {
#pragma omp parallel for num_threads(threads_) reduction(+ : misplaced, active) if (pieces > 1)
    for (int t = 0; t < pieces; ++t) {
      const int64_t first = count * t / pieces, last = count * (t + 1) / pieces;
      if (run.weighted)
        count_run(reinterpret_cast<const WeightedEdge*>(run.data) + first, last - first, part, sets, misplaced, active);
      else
        count_run(reinterpret_cast<const Edge*>(run.data) + first, last - first, part, sets, misplaced, active);
    }
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
  // Consecutive small runs go to the threads together; large runs one at a time. A packed run is
  // always "small": it is decoded piece by piece on the thread that takes it, never whole. So is a
  // decoded one (the chunk cache's groups): taken whole by the thread that owns its destinations,
  // or in pieces, as process_small plans, not sliced among the threads with every update atomic
  // (R-MAT 20 resident, 512 KiB chunks of some 160 K edges each: PageRank's rounds took 107 ms,
  // 68% of it in atomic adds, against 30 ms with 256 KiB chunks).
  auto small = [](const EdgeRun& run) { return run.packed || run.grouped() || run.count <= kSmallRunEdges; };
  size_t k = 0;
  while (k < runs.size()) {
    if (!small(runs[k])) {
      process_large(runs[k]);
      ++k;
      continue;
    }
    size_t end = k;
    while (end < runs.size() && small(runs[end])) ++end;
    process_small(runs.subspan(k, end - k));
    k = end;
  }
}

// The header of a packed run's page.
static PackedPageHeader page_header(const EdgeRun& run, uint64_t page) {
  return packed_page_header(run.data + page * kPackedPageBytes);
}

// A packed run's pages from `page` on (before `end`), as many as hold `edges` edges (at least one
// page): where a piece or a decode of it ends, and the edges it holds. It ends where a source
// does when it can: a source cut between two decodes is not `whole` in either (jobs/edge_job.h),
// and what an asynchronous job does would then depend on the decode buffer's size. It ends
// sooner at the first page after `page` that starts a source and for which stop_before(page) says
// so (a page no job wants, which the caller then passes over).
template <typename StopBefore>
static std::pair<uint64_t, uint64_t> pages_holding(const EdgeRun& run, uint64_t page, uint64_t end, uint64_t edges,
                                                   StopBefore stop_before) {
  uint64_t stop = page, held = 0;
  std::pair<uint64_t, uint64_t> between_sources{0, 0};  // the last end found so far that splits no source
  VertexId last_src = 0;
  while (stop < end) {
    const PackedPageHeader h = page_header(run, stop);
    if (stop > page && h.first_src != last_src) {
      if (stop_before(stop)) return {stop, held};
      between_sources = {stop, held};
    }
    if (stop > page && held + h.edges > edges) return between_sources.first > page ? between_sources : std::pair(stop, held);
    held += h.edges;
    last_src = h.last_src;
    ++stop;
  }
  return {stop, held};
}

// The work of a load of small runs, for the threads to take dynamically. When the runs fall into
// enough destination ranges of even size (a GridGraph load holds blocks of several columns), an
// item is every run of one range, and the thread that takes it owns those destinations: its jobs
// update them without atomics. Otherwise (one thread aside) items are pieces of runs of about an
// eighth of a thread's share, so a load of few runs still keeps every thread busy.
// Splits each run's jobs into those that take destination windows now and the others; whether
// any job takes them.
bool EdgeProcessor::split_window_jobs(std::span<const EdgeRun> runs) {
  if (!takes_windows_ || threads_ < 2) return false;
  // Windows are for source groups (base/run_edges.h): a load of records is cut as before.
  for (const EdgeRun& run : runs)
    if (!run.packed && !run.grouped()) return false;
  window_jobs_.assign(runs.size(), {});
  other_jobs_.assign(runs.size(), {});
  bool any = false;
  for (size_t k = 0; k < runs.size(); ++k)
    for (uint32_t j : runs[k].jobs) {
      const bool takes = takes_windows_(j, runs[k].reentry);
      (takes ? window_jobs_ : other_jobs_)[k].push_back(j);
      any |= takes;
    }
  return any;
}

std::pair<VertexId, uint64_t> EdgeProcessor::window(int w) const {
  const WindowCuts& c = window_cuts_[cuts_in_use_];
  const uint64_t begin = c.range.first, span = c.range.second - c.range.first;
  auto at = [&](int k) {
    if (k == 0) return begin;
    if (k == threads_) return uint64_t{c.range.second};
    return std::clamp<uint64_t>(begin + align_up(static_cast<uint64_t>(c.cuts[k] * static_cast<double>(span)), 64), begin,
                                c.range.second);
  };
  const uint64_t first = at(w), end = std::max(first, at(w + 1));
  return {static_cast<VertexId>(first), end - first};
}

// The cuts move halfway toward those that would have given each window equal time, the work
// taken as spread evenly within each window (a step, not a jump: one load's times are noisy).
void EdgeProcessor::move_cuts(std::span<const double> seconds) {
  std::vector<double>& cuts = window_cuts_[cuts_in_use_].cuts;
  double total = 0;
  for (double t : seconds) total += t;
  if (total <= 0) return;
  std::vector<double> target(cuts.size());
  target.front() = 0;
  target.back() = 1;
  double before = 0;  // work of the windows before w
  int w = 0;
  for (int k = 1; k < threads_; ++k) {
    const double want = total * k / threads_;
    while (w < threads_ - 1 && before + seconds[w] < want) before += seconds[w++];
    const double width = cuts[w + 1] - cuts[w];
    target[k] = cuts[w] + (seconds[w] > 0 ? (want - before) / seconds[w] * width : 0);
  }
  for (int k = 1; k < threads_; ++k) cuts[k] = std::clamp(0.5 * cuts[k] + 0.5 * target[k], cuts[k - 1], 1.0);
}

std::vector<EdgeProcessor::WorkItem> EdgeProcessor::plan_small(std::span<const EdgeRun> runs) {
  std::vector<WorkItem> items;
  uint64_t total = 0;
  for (const EdgeRun& run : runs) total += run.count;
  // A whole run: its edges, or its pages when packed.
  auto whole = [&](size_t k) { return Piece{k, 0, runs[k].packed ? pages_of(runs[k]) : runs[k].count, 0}; };
  std::vector<size_t> order(runs.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  auto range = [&](size_t k) {
    const StaticPartition& p = layout_.partitions[runs[k].partition];
    return std::pair(p.dst_begin, p.dst_end);
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return range(a) < range(b); });
  if (threads_ == 1) {  // one destination range after another, so its values stay in the cache
    for (size_t k : order) items.push_back({{whole(k)}, true});
    return items;
  }
  bool disjoint = true;  // ranges that overlap without being equal cannot be owned apart
  VertexId covered = 0;
  std::vector<std::pair<size_t, size_t>> groups;  // [first, end) of `order`: one destination range each
  for (size_t k = 0; k < order.size();) {
    const auto r = range(order[k]);
    if (!groups.empty() && r.first < covered) disjoint = false;
    covered = std::max(covered, r.second);
    const size_t first = k;
    while (k < order.size() && range(order[k]) == r) ++k;
    groups.emplace_back(first, k);
  }
  const uint64_t share = total / static_cast<uint64_t>(threads_);
  const uint64_t piece = std::max<uint64_t>(kMinPieceEdges, share / 8);
  // Pieces of run k, not owned: another thread may hold a piece of the same destinations.
  auto cut = [&](size_t k) {
    if (!runs[k].packed) {
      for (uint64_t first = 0; first < runs[k].count; first += piece)
        items.push_back({{{k, first, std::min(piece, runs[k].count - first), 0}}, false});
      return;
    }
    const uint64_t pages = pages_of(runs[k]);
    for (uint64_t page = 0, before = 0; page < pages;) {
      const auto [end, edges] = pages_holding(runs[k], page, pages, piece, [](uint64_t) { return false; });
      items.push_back({{{k, page, end - page, before}}, false});
      before += edges;
      page = end;
    }
  };
  if (groups.size() == 1 && split_window_jobs(runs)) {
    // One destination range: every thread takes the whole load with a window of it, owned, for
    // the jobs that take windows; the others' edges are cut into pieces, as below.
    const auto r = range(order[0]);
    auto known = std::find_if(window_cuts_.begin(), window_cuts_.end(), [&](const WindowCuts& c) { return c.range == r; });
    if (known == window_cuts_.end()) {
      WindowCuts fresh{r, std::vector<double>(static_cast<size_t>(threads_) + 1)};
      for (int k = 0; k <= threads_; ++k) fresh.cuts[k] = static_cast<double>(k) / threads_;
      known = window_cuts_.insert(window_cuts_.end(), std::move(fresh));
    }
    cuts_in_use_ = static_cast<size_t>(known - window_cuts_.begin());
    for (int w = 0; w < threads_; ++w) {
      WorkItem item{{}, true, w, w == 0, &window_jobs_};
      for (size_t k : order)
        if (!window_jobs_[k].empty()) item.pieces.push_back(whole(k));
      items.push_back(std::move(item));
    }
    const size_t windows = items.size();
    for (size_t k = 0; k < runs.size(); ++k)
      if (!other_jobs_[k].empty()) cut(k);
    // A run no window holds is loaded by its pieces.
    for (size_t i = windows; i < items.size(); ++i) {
      items[i].jobs = &other_jobs_;
      items[i].counts_load = window_jobs_[items[i].pieces[0].run].empty();
    }
    return items;
  }
  if (!disjoint || groups.size() < 2) {
    for (size_t k = 0; k < runs.size(); ++k) cut(k);
    return items;
  }
  // Each destination range is one owned item, but a range with more than kSharesAlone of a
  // thread's share of the load is cut into pieces (not owned), so that a skewed load (hubs' column
  // on a power-law graph) keeps every thread busy; the others keep their updates free of atomics.
  // Atomic adds where the hubs' lines are shared cost most (delta-PageRank in degree order: 65% of a
  // batch's CPU when every item was a piece), so only the ranges that must be shared are.
  for (const auto& [first, end] : groups) {
    uint64_t edges = 0;
    for (size_t i = first; i < end; ++i) edges += runs[order[i]].count;
    if (static_cast<double>(edges) > kSharesAlone * static_cast<double>(share)) {
      for (size_t i = first; i < end; ++i) cut(order[i]);
      continue;
    }
    WorkItem item{{}, true};
    for (size_t i = first; i < end; ++i) item.pieces.push_back(whole(order[i]));
    items.push_back(std::move(item));
  }
  // Large items first, so that the dynamic schedule ends on small ones (a piece counts pages of a
  // packed run, edges of records: one graph has one kind).
  auto size = [](const WorkItem& w) {
    uint64_t units = 0;
    for (const Piece& p : w.pieces) units += p.count;
    return units;
  };
  std::stable_sort(items.begin(), items.end(), [&](const WorkItem& x, const WorkItem& y) { return size(x) > size(y); });
  return items;
}

void EdgeProcessor::process_small(std::span<const EdgeRun> runs) {
  const std::vector<WorkItem> items = plan_small(runs);
  const int64_t count = static_cast<int64_t>(items.size());
  uint64_t edges_loaded = 0, active_edges = 0, edges_processed = 0, edges_decoded = 0, edges_passed_over = 0;
  double decode_seconds = 0;
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
  if (decode_buffers_.size() < static_cast<size_t>(threads_)) decode_buffers_.resize(threads_);
  // Windowed, each window's time moves the cuts.
  const bool windowed = !items.empty() && items[0].window >= 0;
  std::vector<double> window_seconds(windowed ? static_cast<size_t>(threads_) : 0, 0.0);
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 1) \
    reduction(+ : edges_loaded, active_edges, edges_processed, edges_decoded, edges_passed_over, decode_seconds) \
    if (count > 1)
  for (int64_t u = 0; u < count; ++u) {
    const WorkItem& item = items[u];
    const double item_began = windowed ? omp_get_wtime() : 0;
    // A load's edges and decodes are counted once (not by a second window, nor by the pieces of
    // a run the windows hold too), a job's edges once (not by a second window).
    const bool counts = item.counts_load;
    const bool counts_jobs = item.window <= 0;
    auto jobs_of = [&](const EdgeRun& whole, size_t k) {
      return item.jobs ? std::span<const uint32_t>((*item.jobs)[k]) : whole.jobs;
    };
    // Records to every job of the run; false once the check failed (the load is an error).
    auto hand = [&](EdgeRun& run) {
      run.owns_destinations = item.owns_destinations;
      if (item.window >= 0) std::tie(run.window_begin, run.window_span) = window(item.window);
      try {
        const uint64_t active = check_run(run, false);
        if (counts) active_edges += active;
      } catch (const std::exception& e) {
#pragma omp critical(graphso_engine_errors)
        if (check_error.empty()) check_error = e.what();
        return false;
      }
      if (counts && !run.reentry) edges_loaded += run.count;
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
        if (!counts_jobs) continue;
#pragma omp atomic
        job_edges[j] += run.count;
        edges_processed += run.count;
      }
      return true;
    };
    // Whether some job of a packed run may push a source of its page p (SourceFilter). A page
    // whose header's sources are not its partition's is decoded, so the decoder names the damage.
    auto wanted = [&](const EdgeRun& whole, std::span<const uint32_t> jobs, uint64_t p) {
      if (!may_push_) return true;
      const PackedPageHeader h = page_header(whole, p);
      const StaticPartition& part = layout_.partitions[whole.partition];
      if (h.first_src > h.last_src || h.first_src < part.src_begin || h.last_src >= part.src_end) return true;
      for (uint32_t j : jobs)
        if (!skip(j) && may_push_(j, h.first_src, h.last_src + 1, whole.reentry)) return true;
      return false;
    };
    // A packed piece: its pages a buffer's worth at a time, decoded into this thread's buffer
    // and handed on while they are in this core's cache; pages no job wants are passed over.
    auto hand_packed = [&](const EdgeRun& whole, const Piece& p) {
      const std::span<const uint32_t> jobs = jobs_of(whole, p.run);
      DecodedGroups& buffer = decode_buffers_[omp_get_thread_num()];
      const uint64_t end = p.first + p.count;
      for (uint64_t page = p.first, before = p.first_edge; page < end;) {
        // Pages no job may push from: loaded and counted, with the run's count of active edges if
        // they start it (they hold none of them), but not decoded.
        const uint64_t from = before;
        for (; page < end && !wanted(whole, jobs, page); ++page) before += page_header(whole, page).edges;
        if (before > from && counts) {
          if (!whole.reentry) edges_loaded += before - from;
          if (from == 0 && whole.counted_active != EdgeRun::kUncounted) active_edges += whole.counted_active;
          edges_passed_over += before - from;
        }
        if (page == end) break;
        const double began = omp_get_wtime();
        // A buffer's worth, ending where a source does when it can; it stops short at a page that
        // starts a source and has none to push, so that one is passed over and no source is cut.
        const auto [stop, edges] =
            pages_holding(whole, page, end, decode_edges_, [&](uint64_t q) { return !wanted(whole, jobs, q); });
        PackedPageProblem problem;
        const auto pages = std::span<const std::byte>(whole.data + page * kPackedPageBytes, (stop - page) * kPackedPageBytes);
        if (decode_packed_groups(pages, whole.weighted, buffer, &problem) < 0) {
#pragma omp critical(graphso_engine_errors)
          if (check_error.empty())
            check_error = fmt::format("{}: page {} of the edges read is malformed: {} (corrupt graph file; `graphso "
                                      "inspect --verify` checks every block)",
                                      name_(whole), page + problem.page, problem.what);
          return false;
        }
        decode_seconds += omp_get_wtime() - began;
        if (counts) edges_decoded += edges;
        EdgeRun run = whole.decoded(buffer.view(), before, edges);
        run.jobs = jobs;
        if (!hand(run)) return false;
        page = stop;
        before += edges;
      }
      return true;
    };
    for (const Piece& p : items[u].pieces) {
      const EdgeRun& whole = runs[p.run];
      if (whole.packed) {
        if (!hand_packed(whole, p)) break;
        continue;
      }
      EdgeRun run = whole.piece(p.first, p.count);
      run.jobs = jobs_of(whole, p.run);
      if (!hand(run)) break;
    }
    if (item.window >= 0) window_seconds[u] = omp_get_wtime() - item_began;
  }
  if (!check_error.empty()) throw Error(check_error);
  if (windowed) move_cuts(window_seconds);
  for (const EdgeRun& run : runs) counters_.runs += !run.reentry;
  counters_.edges_loaded += edges_loaded;
  counters_.active_edges_loaded += active_edges;
  counters_.edges_processed += edges_processed;
  counters_.edges_decoded += edges_decoded;
  counters_.edges_passed_over += edges_passed_over;
  counters_.decode_seconds += decode_seconds;
  for (size_t j = 0; j < seconds.size(); ++j) {
    job_seconds_[j] += seconds[j];
    job_edges_[j] += job_edges[j];
  }
  for (auto& e : errors)
    if (!failed(e.first)) failures_.push_back(std::move(e));
}

void EdgeProcessor::process_large(const EdgeRun& run) {
  const uint64_t active = check_run(run, true);
  if (!run.reentry) {
    counters_.runs += 1;
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
