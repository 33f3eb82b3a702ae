#include "integrations/batch_runner.h"

#include <omp.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdlib>
#include <fstream>

#include "base/bitmap_rank.h"
#include "base/error.h"
#include "base/json_writer.h"
#include "base/progress.h"
#include "engine/edge_processor.h"
#include "middleware/graphso.h"
#include "jobs/job_groups.h"
#include "middleware/sharing_mode.h"

namespace graphso {
namespace {

using Clock = std::chrono::steady_clock;

// The stock modes' load per thread (README, memory budget; docs/middleware.md, chunk-synchronous
// processing): enough blocks for every thread to own a destination range, and rows enough that
// each range's values serve several blocks while they are in the cache (8 MiB took 1.25x the
// time of 32 MiB on R-MAT 22 PageRank, 2 threads), small enough that reading the next load
// overlaps processing this one.
constexpr uint64_t kStockLoadBytesPerThread = 32 << 20;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The process's processor time so far, user and system, every thread's.
double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

}  // namespace

// The process image's own high-water mark (VmHWM). getrusage's ru_maxrss also keeps the peak of
// the image before exec, which for a process started by a large parent (a test binary) is the
// parent's size, not graphso's.
uint64_t peak_rss_bytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_maxrss) * 1024;
}

BatchReport run_batch(const BatchConfig& config, const GridGraph& graph,
                      std::vector<std::unique_ptr<Job>>& jobs, ReaderFactory& readers) {
  std::unique_ptr<Engine> engine = make_engine(config.engine, graph, readers);
  return run_batch(config, graph, *engine, jobs, readers);
}

BatchReport run_batch(const BatchConfig& config, const GridGraph& graph, Engine& engine,
                      std::vector<std::unique_ptr<Job>>& jobs, ReaderFactory& readers) {
  if (jobs.empty()) fail("no jobs to run");
  if (!config.arrive_after.empty() && config.arrive_after.size() != jobs.size())
    fail("arrive_after has {} entries for {} jobs", config.arrive_after.size(), jobs.size());
  if (config.cache_ratio < 0 || config.cache_ratio >= 1) fail("--cache-ratio {} is outside [0, 1)", config.cache_ratio);
  const GridMeta& m = graph.meta();
  const uint64_t n = m.vertices;
  const int threads = config.threads > 0 ? config.threads : omp_get_num_procs();

  BatchReport report;
  report.mode = sharing_name(config.sharing);
  report.graph_dir = graph.dir();
  report.order = graph.order().name();
  report.vertices = n;
  report.edges = m.edges;
  report.partitions = m.partitions;
  report.threads = threads;
  const char* wait_policy = std::getenv("OMP_WAIT_POLICY");
  report.omp_wait_policy = wait_policy ? wait_policy : "";
  const char* spin_count = std::getenv("GOMP_SPINCOUNT");
  report.gomp_spincount = spin_count ? spin_count : "";

  if (!config.job_views.empty() && config.job_views.size() != jobs.size())
    fail("job_views has {} entries for {} jobs", config.job_views.size(), jobs.size());
  for (size_t j = 0; j < config.job_views.size(); ++j) {
    if (config.job_views[j] >= config.views.size()) fail("internal: job {} runs on graph {} of {}", j, config.job_views[j], config.views.size());
    jobs[j]->set_view(config.job_views[j]);
  }
  // The jobs as they run: groups and lone jobs (jobs/job_groups.h).
  BatchPlan plan = plan_batch(jobs, config.arrive_after, n, config.grouping);
  std::vector<Job*>& runnables = plan.runnables;
  report.grouping = config.grouping;

  // Vertex state first: every runnable's arrays and frontiers (a group's include its members'
  // results), the shared out-degrees, the vertex order's two id maps (a relabelled graph), the
  // two union bitmaps used for accounting, and in chunk mode the ranks of every frontier
  // GetActiveChunks tests (the runnables' and the union's). The late join's bitmaps: what it
  // has seen of each asynchronous runnable's changes, and the difference it takes with its rank
  // (middleware/late_join.h).
  // (Over several graphs, each graph's out-degrees beside their union's; a layout in layers, each
  // layer's: EngineLayout::layer_degrees.)
  uint64_t degree_arrays = 1 + (config.views.size() > 1 ? config.views.size() : 0);
  for (const std::vector<uint32_t>* layer : engine.layout().layer_degrees) degree_arrays += layer != nullptr;
  auto state_of = [&](std::span<Job* const> run) {
    uint64_t bytes = degree_arrays * n * sizeof(uint32_t) + graph.order().memory_bytes() + 2 * Bitmap::bytes_for(n);
    for (const Job* job : run) bytes += job->state_bytes(n);
    if (config.sharing == Sharing::Chunk) bytes += (run.size() + 1) * BitmapRank::bytes_for(n);
    if (config.sharing == Sharing::Chunk && config.late_join) {
      uint64_t followed = 0;
      for (const Job* job : run) followed += job->may_pass();
      if (followed) bytes += (followed + 1) * Bitmap::bytes_for(n) + BitmapRank::bytes_for(n);
    }
    return bytes;
  };
  const uint64_t vertex_state = state_of(runnables);
  report.vertex_state_bytes = vertex_state;
  // The page checksums every read is verified with, loaded (and so checked) before anything runs.
  const EngineLayout& layout = engine.layout();
  for (const std::string& file : layout.files)
    if (auto sums = readers.page_sums(file)) report.page_sums_bytes += sums->memory_bytes();
  const uint64_t fixed = vertex_state + report.page_sums_bytes;
  const uint64_t mem = config.graph_mem_bytes ? fixed + config.graph_mem_bytes : config.mem_bytes;
  report.mem_bytes = mem;
  constexpr uint64_t kMinGraphBudget = 8 * kDirectAlignment;
  if (config.graph_mem_bytes && config.graph_mem_bytes < kMinGraphBudget)
    fail("--graph-mem {} is too small: graph data needs at least {}", human_bytes(static_cast<double>(config.graph_mem_bytes)),
         human_bytes(kMinGraphBudget));
  if (fixed + kMinGraphBudget > mem) {
    // How many of the batch's jobs, taken in order, would fit: the most whose plan leaves the
    // graph data its least.
    auto fits = [&](size_t k) {
      const BatchPlan part = plan_batch(std::span(jobs).first(k),
                                        config.arrive_after.empty() ? std::span<const uint32_t>() : std::span(config.arrive_after).first(k),
                                        n, config.grouping);
      return state_of(part.runnables) + report.page_sums_bytes + kMinGraphBudget <= mem;
    };
    size_t most = 0;
    for (size_t low = 1, high = jobs.size(); low <= high;) {
      const size_t mid = low + (high - low) / 2;
      if (fits(mid)) most = mid, low = mid + 1;
      else high = mid - 1;
    }
    fail("--mem {} is too small: the vertex state of {} jobs over {} vertices needs {}{}, and graph "
         "data needs at least {} more; {}",
         human_bytes(static_cast<double>(mem)), jobs.size(), n, human_bytes(static_cast<double>(vertex_state)),
         report.page_sums_bytes ? fmt::format(", the page checksums {}", human_bytes(static_cast<double>(report.page_sums_bytes)))
                                : std::string(),
         human_bytes(kMinGraphBudget),
         most ? fmt::format("the first {} of them fit", most) : std::string("not even the first of them fits"));
  }
  report.graph_budget_bytes = mem - fixed;
  // Results are written after the run, when the graph data's memory is free again: what writing
  // them needs (a piece of output, WCC's relabelling table) must fit where the graph data was.
  if (config.writes_results) {
    uint64_t output = 0;
    for (const auto& job : jobs) output = std::max(output, job->output_bytes(n, graph.order()));
    output += std::min<uint64_t>(Job::kResultPieceBytes, n * 64);  // a piece, or the whole output (a line < 64 bytes)
    if (output > report.graph_budget_bytes)
      fail("--mem {} is too small: writing the results takes {} after the run, the graph-data budget is {}",
           human_bytes(static_cast<double>(mem)), human_bytes(static_cast<double>(output)),
           human_bytes(static_cast<double>(report.graph_budget_bytes)));
  }

  GraphInfo info{n, m.weighted, m.symmetric, &graph.out_degrees()};
  info.out_edges = out_edge_total(info);  // once, not once per job
  info.order = &graph.order();
  info.real_weights = m.real_weights;
  std::vector<GraphInfo> view_info;  // per graph of the layout, when it holds several
  for (const BatchConfig::GraphView& v : config.views) {
    view_info.push_back(info);
    view_info.back().out_degrees = v.out_degrees;
    view_info.back().out_edges = v.edges;
  }
  for (Job* job : runnables) job->init(view_info.empty() ? info : view_info[job->view()], threads);

  // Graph data: the engine's update budget first (an update-streaming engine), then its two read
  // buffers (no larger than the largest partition needs), or the middleware's table, cache and
  // partition buffers.
  report.engine = layout.name;
  uint64_t data_budget = report.graph_budget_bytes;
  const std::vector<Job*>& job_ptrs = runnables;
  if (const uint64_t least_update = engine.min_update_bytes(threads, job_ptrs)) {
    // A budget the user gave is taken as given (the engine rejects one too small); the default
    // is a quarter of the graph-data budget, but no less than the engine accepts.
    report.update_budget_bytes = config.update_mem_bytes ? config.update_mem_bytes
                                                         : std::max(data_budget / 4, least_update);
    if (report.update_budget_bytes + kMinGraphBudget > data_budget) {
      // The least graph-data budget that leaves room: with the default update budget, a quarter
      // of it once that is above the engine's least, so at least 4/3 of the edges' least.
      const uint64_t least = config.update_mem_bytes
                                 ? config.update_mem_bytes + kMinGraphBudget
                                 : std::max(least_update + kMinGraphBudget, (4 * kMinGraphBudget + 2) / 3);
      fail("the graph-data budget of {} leaves no room for edges after an update budget of {}; the least that does is "
           "{} ({} bytes; raise --mem or --graph-mem{})",
           human_bytes(static_cast<double>(data_budget)), human_bytes(static_cast<double>(report.update_budget_bytes)),
           human_bytes(static_cast<double>(least)), least, config.update_mem_bytes ? ", or lower --update-mem" : "");
    }
    data_budget -= report.update_budget_bytes;
  } else if (config.update_mem_bytes) {
    fail("--update-mem applies to the xstream engine only");
  }
  std::unique_ptr<GraphSO> middleware;
  std::unique_ptr<SharingMode> sharing;
  uint64_t buffer = 0;
  if (config.sharing == Sharing::Chunk) {
    GraphSOConfig gc;
    gc.chunk_bytes = config.chunk_bytes;
    gc.graph_budget_bytes = data_budget;
    gc.cache_ratio = config.cache_ratio;
    gc.threads = threads;
    gc.granularity = config.granularity;
    gc.cache_form = config.cache_form;
    gc.pass_order = config.pass_order;
    gc.extent_bytes = config.extent_bytes;
    const auto init_began = std::chrono::steady_clock::now();
    middleware = GraphSO::Init(layout, gc, readers);
    report.init_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - init_began).count();
    if (middleware->device()) report.device = *middleware->device();
    buffer = middleware->partition_bytes();
    report.chunk_bytes = middleware->table().chunk_bytes();
    report.chunk_size_basis = middleware->chunk_size_basis();
    report.chunks = middleware->table().chunks().size();
    report.tchunk_bytes = middleware->table().memory_bytes();
    report.tchunk_index_bytes = middleware->table().index_bytes();
    report.cache_bytes = middleware->cache_capacity();
    report.cache_form = middleware->cache_form();
    sharing = make_chunk_mode(*middleware, config.reentry, config.late_join);
    report.graph_resident = middleware->holds_whole_graph();
    if (report.graph_resident)
      for (Job* job : runnables) job->graph_resident();
  } else {
    // Each of the two buffers holds a whole partition if the budget allows, and up to
    // kStockLoadBytesPerThread per thread of the graph: a load of one small block would leave
    // every thread but one idle, and a buffer beyond the graph would only hold air.
    uint64_t largest = 0, graph_bytes = 0;
    for (uint32_t k = 0; k < layout.partitions.size(); ++k) {
      largest = std::max(largest, layout.partition_bytes(k));
      graph_bytes += layout.partition_bytes(k);
    }
    const uint64_t load = std::min(kStockLoadBytesPerThread * static_cast<uint64_t>(threads), graph_bytes);
    buffer = std::min(data_budget / 2, std::max({align_up(largest, kDirectAlignment) + 2 * kDirectAlignment,
                                                 align_up(load, kDirectAlignment) + 2 * kDirectAlignment, kMinGraphBudget / 2}));
    buffer = align_down(buffer, kDirectAlignment);
    sharing = make_stock_mode(config.sharing, layout, readers, std::max(buffer, kMinGraphBudget / 2), threads,
                              config.reentry);
  }
  // Light rounds: the adjacency takes what the cache, the table and the two buffers leave of the
  // budget.
  const uint64_t taken = report.cache_bytes + report.tchunk_bytes + 2 * buffer;
  ResidentAdjacency resident(config.views.size() > 1 ? LightRounds::Off : config.light_rounds, middleware.get(), report.graph_resident,
                             data_budget > taken ? data_budget - taken : 0, n, info.out_edges, m.weighted,
                             layout.stored_bytes());
  report.buffer_bytes = buffer;
  report.encoding = encoding_name(layout.encoding);
  report.bytes_per_edge = layout.edges ? static_cast<double>(layout.stored_bytes()) / static_cast<double>(layout.edges) : 0;
  if (layout.packed()) {
    // Per thread, an eighth of its share of the graph budget, between a piece's worth (80 KiB,
    // weighted 96 KiB) and 256 KiB: enough edges to amortise a hand-over, few enough that they are still in
    // the core's cache when the jobs read them.
    const uint64_t per_thread = std::clamp<uint64_t>(report.graph_budget_bytes / 8 / static_cast<uint64_t>(threads),
                                                     EdgeProcessor::piece_decode_bytes(layout.weighted), 256 << 10);
    report.decode_buffer_bytes = per_thread * static_cast<uint64_t>(threads);
    report.pass_over_pages = config.pass_over_pages;
    engine.set_decode({per_thread, config.pass_over_pages});
  }

  engine.set_scratch_parent(config.spill_dir);
  engine.set_update_overflow(config.update_overflow);
  engine.start(job_ptrs, report.update_budget_bytes, threads);
  if (config.on_start) config.on_start();
  // Per runnable: when it arrived, whether it failed, the batch's jobs it computes.
  const size_t R = runnables.size();
  std::vector<std::optional<Clock::time_point>> arrival(R);  // unset until it arrives
  std::vector<bool> failed(R, false);
  std::vector<std::string> errors(R);
  std::vector<double> round_end_seconds(R, 0.0);
  std::vector<std::vector<uint32_t>> computes(R);
  for (uint32_t j = 0; j < jobs.size(); ++j) computes[plan.runnable_of[j]].push_back(j);
  // The job whose results and outcome job j takes: itself, or the identical job computed once.
  auto computed = [&](size_t j) -> const Job& {
    return plan.same_as[j] >= 0 ? *jobs[static_cast<size_t>(plan.same_as[j])] : *jobs[j];
  };
  report.jobs.resize(jobs.size());
  std::vector<bool> timed(jobs.size(), false);
  for (size_t j = 0; j < jobs.size(); ++j) {
    report.jobs[j].name = jobs[j]->name();
    report.jobs[j].algo = jobs[j]->algo();
    report.jobs[j].async = runnables[plan.runnable_of[j]]->async();
    report.jobs[j].arrived_round = config.arrive_after.empty() ? 0 : config.arrive_after[j];
    report.jobs[j].runnable = plan.runnable_of[j];
    if (!config.views.empty()) report.jobs[j].version = config.views[jobs[j]->view()].version;
  }
  // After runnable r's round: the time of each of its jobs that has just finished.
  auto time_finished = [&](uint32_t r) {
    for (uint32_t j : computes[r])
      if (!timed[j] && (failed[r] || computed(j).finished())) {
        report.jobs[j].seconds = seconds_since(*arrival[r]);
        timed[j] = true;
      }
  };
  // A job its init() finished (a PPR from a vertex without out-edges) took no time.
  for (size_t j = 0; j < jobs.size(); ++j) timed[j] = computed(j).finished();
  auto io_bytes = [&]() { return sharing->io_stats().bytes_read; };

  Bitmap union_sources(n), union_both(n);
  Progress progress("run", 0, "");
  const auto start = Clock::now();
  const double cpu_at_start = cpu_seconds();
  std::vector<uint32_t> light_rounds(R, 0);
  // Whether a job that would do light rounds (and one that wants them now) runs in this round.
  auto any_running = [&](uint32_t round, bool (Job::*which)() const) {
    for (uint32_t r = 0; r < R; ++r)
      if (!failed[r] && !runnables[r]->finished() && plan.arrive_after[r] <= round && (runnables[r]->*which)())
        return true;
    return false;
  };
  for (uint32_t round = 0;; ++round) {
    // Built before the round's arrivals are timed: their time, like a textbook kernel's, starts
    // with the graph in memory (the report gives the build's own).
    const bool light_takers = any_running(round, &Job::takes_adjacency);
    const Adjacency* adjacency = resident.before_round(round, light_takers, any_running(round, &Job::wants_adjacency_now),
                                                       engine, io_bytes, graph.out_degrees());
    std::vector<uint32_t> running;
    bool waiting = false;
    for (uint32_t r = 0; r < R; ++r) {
      if (failed[r] || runnables[r]->finished()) continue;
      if (plan.arrive_after[r] > round) {
        waiting = true;
        continue;
      }
      if (plan.arrive_after[r] == round) arrival[r] = Clock::now();
      running.push_back(r);
    }
    if (running.empty() && !waiting) break;
    if (config.max_rounds && round >= config.max_rounds) break;
    if (running.empty()) {
      // Nothing runs until the next arrival: go straight to it instead of iterating empty rounds.
      uint32_t next = UINT32_MAX;
      for (uint32_t r = 0; r < R; ++r)
        if (!failed[r] && !runnables[r]->finished() && plan.arrive_after[r] > round) next = std::min(next, plan.arrive_after[r]);
      round = next - 1;
      continue;
    }

    const auto round_start = Clock::now();
    RoundRecord record;
    // Light rounds first: the jobs that do this round over the graph in memory leave the engine's
    // round to the others (all of them: the engine's round is skipped).
    std::vector<uint32_t> on_engine;
    for (uint32_t r : running) {
      bool light = false;
      if (adjacency) {
        try {
          light = runnables[r]->adjacency_round(*adjacency);
        } catch (const std::exception& e) {
          failed[r] = true;
          errors[r] = e.what();
          time_finished(r);
          continue;
        }
      }
      if (light) {
        ++light_rounds[r];
        ++record.light_runnables;
      } else {
        on_engine.push_back(r);
      }
    }
    const EngineCounters before = engine.counters();
    const UpdateCounters updates_before = engine.updates();
    const uint64_t bytes_before = io_bytes();
    const GraphSOStats mw_before = middleware ? middleware->stats() : GraphSOStats{};
    const uint64_t sweeps_before = sharing->reentries().sweeps, swept_edges_before = sharing->reentries().edges;
    // Shared loads are counted against the union of the running jobs' frontiers (independent
    // mode counts each job's loads against its own). The union of one frontier is that frontier,
    // not a copy: chunk mode then recognises it as the job's and counts it once.
    ActiveSets accounting{&union_sources, nullptr};
    if (on_engine.size() == 1) {
      const Job& only = *runnables[on_engine[0]];
      accounting = {&only.frontier(), only.edge_use() == EdgeUse::BothWays ? &only.frontier() : nullptr};
    } else if (config.sharing != Sharing::Independent) {
      union_sources.clear();
      union_both.clear();
      for (uint32_t r : on_engine) {
        union_sources.or_with(runnables[r]->frontier());
        if (runnables[r]->edge_use() == EdgeUse::BothWays) {
          union_both.or_with(runnables[r]->frontier());
          accounting.destinations = &union_both;
        }
      }
    }
    if (!on_engine.empty()) {
      RoundStats round_stats = sharing->round(engine, job_ptrs, on_engine, accounting);
      record.active_chunks = round_stats.active_chunks;
      record.late_chunks = round_stats.late_chunks;
    }

    for (const auto& [r, message] : engine.failures())
      if (!failed[r]) {
        failed[r] = true;
        errors[r] = message;
        time_finished(r);
      }
    for (uint32_t r : running) {
      if (failed[r]) continue;
      auto t = Clock::now();
      try {
        runnables[r]->end_round();
      } catch (const std::exception& e) {
        failed[r] = true;
        errors[r] = e.what();
      }
      round_end_seconds[r] += seconds_since(t);
      time_finished(r);
    }

    const EngineCounters after = engine.counters();
    record.update_bytes_written = engine.updates().bytes_written - updates_before.bytes_written;
    record.round = round;
    record.active_jobs = 0;
    for (uint32_t r : running) record.active_jobs += static_cast<uint32_t>(computes[r].size());
    record.units_loaded = after.runs - before.runs;
    record.bytes_read = io_bytes() - bytes_before;
    record.edges_loaded = after.edges_loaded - before.edges_loaded;
    record.active_edges_loaded = after.active_edges_loaded - before.active_edges_loaded;
    record.reentries = sharing->reentries().sweeps - sweeps_before;
    record.reentry_edges = sharing->reentries().edges - swept_edges_before;
    if (middleware) {
      GraphSOStats now = middleware->stats();
      record.chunks_loaded = now.chunks_loaded - mw_before.chunks_loaded;
      record.cache_hits = now.cache.hits - mw_before.cache.hits;
      record.bytes_from_cache = now.cache.bytes_hit - mw_before.cache.bytes_hit;
    }
    record.seconds = seconds_since(round_start);
    resident.after_round(record.seconds, light_takers);
    report.rounds.push_back(record);
    if (config.show_progress) {
      std::string line = fmt::format("round {}, {} active jobs, {} {} loaded, {} read", round, record.active_jobs,
                                     middleware ? record.chunks_loaded : record.units_loaded,
                                     middleware ? "chunks" : "units", human_bytes(static_cast<double>(io_bytes())));
      if (middleware) {
        const CacheStats& c = middleware->stats().cache;
        line += fmt::format(", cache hit rate {:.1f}%", c.hits + c.misses ? 100.0 * c.hits / (c.hits + c.misses) : 0.0);
      }
      progress.status(line);
    }
  }
  progress.finish();

  report.light_rounds = resident.report();
  report.wall_seconds = seconds_since(start);
  report.cpu_seconds = cpu_seconds() - cpu_at_start;
  report.counters = engine.counters();
  report.updates = engine.updates();
  if (middleware) {
    GraphSOStats s = middleware->stats();
    report.io = s.io;
    report.chunk_stats = s;
    report.granularity = granularity_name(middleware->granularity());
    report.pass_order = pass_order_name(middleware->pass_order());
    report.extent_bytes = middleware->extent_bytes();
    report.late_join = config.late_join;
    report.cache_used_bytes = middleware->cache_used();
    report.cached_chunks = middleware->cached_chunks();
  } else {
    report.io = sharing->io_stats();
  }
  report.io_backend = sharing->backend();
  report.reads_verified = readers.options().verify_reads;
  const ReentryCounts& reentries = sharing->reentries();
  // Empty when no load was considered for re-entry (`--reentry 0`, or no load at all).
  auto of_runnable = [](uint32_t r, const std::vector<uint64_t>& counts) { return r < counts.size() ? counts[r] : 0; };
  const std::vector<double> edge_seconds = engine.job_seconds();
  for (uint32_t r = 0; r < R; ++r) {
    const Job& runner = *runnables[r];
    RunnableOutcome outcome;
    outcome.name = runner.name();
    outcome.algo = runner.algo();
    if (const JobGroup* group = plan.group(r)) {
      outcome.method = group->method();
      outcome.lanes = group->lanes();
    } else if (computes[r].size() > 1) {
      outcome.method = "identical jobs";
    }
    outcome.counts = runner.counts();
    outcome.jobs = static_cast<uint32_t>(computes[r].size());
    outcome.arrived_round = plan.arrive_after[r];
    outcome.rounds = runner.rounds();
    outcome.edge_seconds = r < edge_seconds.size() ? edge_seconds[r] : 0.0;
    outcome.round_end_seconds = round_end_seconds[r];
    outcome.light_rounds = light_rounds[r];
    outcome.failed = failed[r];
    report.runnables.push_back(outcome);
  }
  for (size_t j = 0; j < jobs.size(); ++j) {
    const uint32_t r = plan.runnable_of[j];
    const Job& runner = *runnables[r];
    JobOutcome& outcome = report.jobs[j];
    // A member the batch stopped before it finished (--max-rounds) ran as many rounds as its
    // group; a job identical to one computed takes that one's outcome and results.
    if (plan.same_as[j] < 0 && jobs[j].get() != &runner && !jobs[j]->finished()) jobs[j]->take_outcome(runner.rounds(), false);
    if (plan.same_as[j] >= 0) {
      const Job* first = &computed(j);
      jobs[j]->take_outcome(first->rounds(), first->converged());
      jobs[j]->ran_by([first](OutFormat format, const VertexOrder& order, const Job::ResultSink& sink) {
        first->write_results(format, order, sink);
      });
    }
    outcome.failed = failed[r];
    outcome.error = errors[r];
    outcome.rounds = computed(j).rounds();
    outcome.sync_from_round = runner.sync_from_round();
    outcome.async_extra_edges = runner.async_extra_edges();
    outcome.reentries = of_runnable(r, reentries.job_sweeps);
    outcome.reentry_loads_sat_out = of_runnable(r, reentries.job_loads_sat_out);
    outcome.reentry_edges = runner.reentry_edges();
    outcome.round_end_seconds = round_end_seconds[r];
    outcome.converged = !failed[r] && computed(j).converged();
    if (!timed[j] && arrival[r]) outcome.seconds = seconds_since(*arrival[r]);
  }
  report.peak_rss_bytes = peak_rss_bytes();
  return report;
}

std::string report_json(const BatchReport& r) {
  JsonWriter w;
  w.begin_object();
  if (!r.run_id.empty()) w.field("run_id", r.run_id);
  w.field("mode", r.mode);
  w.field("engine", r.engine);
  w.field("graph", r.graph_dir);
  if (r.store) {
    w.begin_object("store");
    w.field("path", r.store->path);
    w.field("mode", r.store->mode);
    w.field("version", r.store->version);
    w.field("checkpoint", r.store->checkpoint_seq);
    w.field("edges", r.store->edges);
    w.field("pages_in_place", r.store->pages_in_place);
    w.field("pages_rewritten", r.store->pages_rewritten);
    if (r.store->versions.size() > 1) {
      w.begin_array("versions");
      for (uint64_t v : r.store->versions) w.field("", v);
      w.end_array();
    }
    w.field("edges_inserted_apart", r.store->edges_inserted_apart);
    w.field("insertion_pages", r.store->insertion_pages);
    w.field("open_seconds", r.store->open_seconds);
    w.field("traversal_seconds", r.store->traversal_seconds);
    w.field("lists_read", r.store->lists_read);
    w.field("store_pages_read", r.store->store_pages_read);
    w.field("replaced", r.store->replaced);
    w.end_object();
  }
  w.field("order", r.order);
  w.field("vertices", r.vertices);
  w.field("edges", r.edges);
  w.field("partitions", r.partitions);
  w.field("encoding", r.encoding);
  w.field("bytes_per_edge", r.bytes_per_edge);
  w.field("decode_buffer_bytes", r.decode_buffer_bytes);
  w.field("threads", r.threads);
  w.field("omp_wait_policy", r.omp_wait_policy);
  w.field("gomp_spincount", r.gomp_spincount);
  w.field("io_backend", r.io_backend);
  w.field("wall_seconds", r.wall_seconds);
  w.field("cpu_seconds", r.cpu_seconds);
  w.field("bytes_read", r.io.bytes_read);
  w.field("bytes_from_cache", r.chunk_stats.cache.bytes_hit);
  w.field("io_requests", r.io.requests);
  w.field("io_wait_seconds", r.io.wait_seconds);
  w.field("io_retries", r.io.retries);
  w.field("reads_verified", r.reads_verified);
  w.field("units_loaded", r.counters.runs);
  w.field("edges_loaded", r.counters.edges_loaded);
  w.field("active_edges_loaded", r.counters.active_edges_loaded);
  w.field("active_edge_ratio", r.counters.edges_loaded
                                   ? static_cast<double>(r.counters.active_edges_loaded) /
                                         static_cast<double>(r.counters.edges_loaded)
                                   : 0.0);
  w.field("edges_processed", r.counters.edges_processed);
  w.field("edges_decoded", r.counters.edges_decoded);
  w.field("pass_over_pages", r.pass_over_pages);
  w.field("edges_passed_over", r.counters.edges_passed_over);
  w.field("decode_seconds", r.counters.decode_seconds);
  w.field("chunk_bytes", r.chunk_bytes);
  w.field("chunk_size_basis", r.chunk_size_basis);
  w.field("chunks", r.chunks);
  w.field("chunks_loaded", r.chunk_stats.chunks_loaded);
  w.field("cache_hits", r.chunk_stats.cache.hits);
  w.field("cache_misses", r.chunk_stats.cache.misses);
  w.field("logical_partitions", r.chunk_stats.logical_partitions);
  w.field("granularity", r.granularity);
  w.field("pass_order", r.pass_order);
  w.field("extent_bytes", r.extent_bytes);
  w.field("late_join", r.late_join);
  w.field("chunks_by_pages", r.chunk_stats.chunks_by_pages);
  w.field("whole_chunk_bytes", r.chunk_stats.whole_bytes);
  w.field("page_bytes", r.chunk_stats.page_bytes);
  w.field("page_requests", r.chunk_stats.page_requests);
  w.field("device_sequential_bytes_per_second", r.device.sequential_bytes_per_second);
  w.field("device_random_reads_per_second", r.device.random_reads_per_second);
  w.field("device_measure_seconds", r.device.seconds_spent);
  w.field("mem_bytes", r.mem_bytes);
  w.field("vertex_state_bytes", r.vertex_state_bytes);
  w.field("page_sums_bytes", r.page_sums_bytes);
  w.field("graph_budget_bytes", r.graph_budget_bytes);
  w.field("tchunk_bytes", r.tchunk_bytes);
  w.field("tchunk_index_bytes", r.tchunk_index_bytes);
  w.field("tchunk_index_bytes_read", r.chunk_stats.index_bytes_read);
  w.field("init_seconds", r.init_seconds);
  w.field("cache_bytes", r.cache_bytes);
  w.field("cache_form", r.cache_form);
  w.field("graph_resident", r.graph_resident);
  w.field("light_rounds", r.light_rounds.state);
  w.field("adjacency_bytes", r.light_rounds.bytes);
  w.field("adjacency_seconds", r.light_rounds.seconds);
  w.field("adjacency_bytes_read", r.light_rounds.bytes_read);
  w.field("light_rent_seconds", r.light_rounds.rent_seconds);
  w.field("adjacency_asked", r.light_rounds.asked);
  w.field("adjacency_round", r.light_rounds.round);
  w.field("cache_used_bytes", r.cache_used_bytes);
  w.field("cached_chunks", r.cached_chunks);
  w.field("buffer_bytes", r.buffer_bytes);
  w.field("update_budget_bytes", r.update_budget_bytes);
  w.field("updates", r.updates.records);
  w.field("update_bytes", r.updates.bytes);
  w.field("update_bytes_written", r.updates.bytes_written);
  w.field("update_bytes_read", r.updates.bytes_read);
  w.field("update_spills", r.updates.spills);
  w.field("update_bytes_applied_early", r.updates.applied_early);
  w.field("peak_rss_bytes", r.peak_rss_bytes);
  w.field("rounds_total", static_cast<uint64_t>(r.rounds.size()));
  uint64_t reentries = 0, reentry_edges = 0, late_chunks = 0;
  for (const RoundRecord& rr : r.rounds) {
    reentries += rr.reentries;
    reentry_edges += rr.reentry_edges;
    late_chunks += rr.late_chunks;
  }
  w.field("reentries", reentries);
  w.field("reentry_edges", reentry_edges);
  w.field("late_chunks", late_chunks);
  w.begin_array("jobs");
  for (const JobOutcome& j : r.jobs) {
    w.begin_object();
    w.field("name", j.name);
    w.field("algo", j.algo);
    if (j.version) w.field("version", *j.version);
    w.field("runnable", j.runnable);
    w.field("arrive_after", j.arrived_round);
    w.field("async", j.async);
    w.field("sync_from_round", j.sync_from_round);
    w.field("async_extra_edges", j.async_extra_edges);
    w.field("iterations", j.rounds);
    w.field("reentries", j.reentries);
    w.field("reentry_loads_sat_out", j.reentry_loads_sat_out);
    w.field("reentry_edges", j.reentry_edges);
    w.field("seconds", j.seconds);
    w.field("round_end_seconds", j.round_end_seconds);
    w.field("converged", j.converged);
    w.field("failed", j.failed);
    if (j.failed) w.field("error", j.error);
    if (!j.verification.empty()) w.field("verification", j.verification);
    w.end_object();
  }
  w.end_array();
  w.field("grouping", r.grouping);
  w.begin_array("runnables");
  for (const RunnableOutcome& g : r.runnables) {
    w.begin_object();
    w.field("name", g.name);
    w.field("algo", g.algo);
    w.field("method", g.method);
    w.field("jobs", g.jobs);
    w.field("lanes", g.lanes);
    w.field("arrive_after", g.arrived_round);
    w.field("iterations", g.rounds);
    w.field("edge_seconds", g.edge_seconds);
    w.field("round_end_seconds", g.round_end_seconds);
    w.field("light_rounds", g.light_rounds);
    for (const auto& [key, value] : g.counts) w.field(key, value);
    w.field("failed", g.failed);
    w.end_object();
  }
  w.end_array();
  if (!r.trials.empty()) {
    w.begin_array("trials");
    for (const TrialRecord& t : r.trials) {
      w.begin_object();
      w.field("wall_seconds", t.wall_seconds);
      w.field("bytes_read", t.bytes_read);
      w.end_object();
    }
    w.end_array();
  }
  if (!r.results_dir.empty()) {
    w.field("results_dir", r.results_dir);
    w.begin_array("result_files");
    for (const auto& [name, crc] : r.result_files) {
      w.begin_object();
      w.field("file", name);
      w.field("crc32c", fmt::format("{:08x}", crc));
      w.end_object();
    }
    w.end_array();
  }
  w.begin_array("rounds");
  for (const RoundRecord& rr : r.rounds) {
    w.begin_object();
    w.field("round", rr.round);
    w.field("active_jobs", rr.active_jobs);
    w.field("active_chunks", rr.active_chunks);
    w.field("units_loaded", rr.units_loaded);
    w.field("chunks_loaded", rr.chunks_loaded);
    w.field("cache_hits", rr.cache_hits);
    w.field("bytes_read", rr.bytes_read);
    w.field("bytes_from_cache", rr.bytes_from_cache);
    w.field("edges_loaded", rr.edges_loaded);
    w.field("active_edges_loaded", rr.active_edges_loaded);
    w.field("update_bytes_written", rr.update_bytes_written);
    w.field("reentries", rr.reentries);
    w.field("reentry_edges", rr.reentry_edges);
    w.field("late_chunks", rr.late_chunks);
    w.field("light_runnables", rr.light_runnables);
    w.field("seconds", rr.seconds);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.text();
}

}  // namespace graphso
