#include "integrations/batch_runner.h"

#include <omp.h>
#include <sys/resource.h>

#include <chrono>

#include "engine/common/error.h"
#include "engine/common/json_writer.h"
#include "engine/common/progress.h"

namespace graphso {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The graph layout's own order for a round: when every non-empty block is wanted the round is
// dense and streams column by column (a destination range stays in cache, GridGraph's choice);
// otherwise row by row, so a skipped source range is one skipped run of the row file.
GridOrder order_for(const GridMeta& m, const std::vector<bool>& wanted) {
  for (uint64_t b = 0; b < m.num_blocks(); ++b)
    if (m.block_edges[b] > 0 && !wanted[b]) return GridOrder::Row;
  return GridOrder::Column;
}

template <typename Visit>
void for_each_block(const GridMeta& m, GridOrder order, Visit&& visit) {
  for (uint32_t a = 0; a < m.partitions; ++a)
    for (uint32_t b = 0; b < m.partitions; ++b) {
      if (order == GridOrder::Row) visit(a, b);
      else visit(b, a);
    }
}

}  // namespace

Sharing parse_sharing(const std::string& name) {
  if (name == "independent") return Sharing::Independent;
  if (name == "partition") return Sharing::Partition;
  if (name == "chunk") return Sharing::Chunk;
  fail("unknown sharing mode '{}' (expected independent, partition or chunk)", name);
}

const char* sharing_name(Sharing sharing) {
  switch (sharing) {
    case Sharing::Independent: return "independent";
    case Sharing::Partition: return "partition";
    case Sharing::Chunk: return "chunk";
  }
  return "?";
}

uint64_t peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_maxrss) * 1024;
}

BatchReport run_batch(const BatchConfig& config, const GridGraph& graph,
                      std::vector<std::unique_ptr<Job>>& jobs, ReaderFactory& readers) {
  if (config.sharing == Sharing::Chunk)
    fail("--sharing chunk needs the GraphSO chunk middleware, which this build does not have yet");
  if (jobs.empty()) fail("no jobs to run");
  const GridMeta& m = graph.meta();
  const uint64_t n = m.vertices;
  const int threads = config.threads > 0 ? config.threads : omp_get_num_procs();

  BatchReport report;
  report.mode = sharing_name(config.sharing);
  report.graph_dir = graph.dir();
  report.vertices = n;
  report.edges = m.edges;
  report.partitions = m.partitions;
  report.threads = threads;

  // Vertex state first: every job's arrays and frontiers, the shared out-degrees, the two
  // union bitmaps used for accounting.
  uint64_t vertex_state = n * sizeof(uint32_t) + 2 * ((n + 63) / 64 * 8);
  for (const auto& job : jobs) vertex_state += job->state_bytes(n);
  report.vertex_state_bytes = vertex_state;
  const uint64_t mem = config.graph_mem_bytes ? vertex_state + config.graph_mem_bytes : config.mem_bytes;
  report.mem_bytes = mem;
  constexpr uint64_t kMinGraphBudget = 8 * kDirectAlignment;
  if (vertex_state + kMinGraphBudget > mem)
    fail("--mem {} is too small: the vertex state of {} jobs over {} vertices needs {}, and graph "
         "data needs at least {} more",
         human_bytes(static_cast<double>(mem)), jobs.size(), n,
         human_bytes(static_cast<double>(vertex_state)), human_bytes(kMinGraphBudget));
  report.graph_budget_bytes = mem - vertex_state;

  GraphInfo info{n, m.weighted, &graph.out_degrees()};
  for (auto& job : jobs) job->init(info, threads);

  // Two read buffers; no point in buffers larger than the largest block.
  uint64_t largest_block = 0;
  for (uint64_t b = 0; b < m.num_blocks(); ++b) largest_block = std::max(largest_block, m.block_edges[b]);
  uint64_t buffer = std::min(report.graph_budget_bytes / 2,
                             std::max(align_up(largest_block * m.edge_size(), kDirectAlignment) + 2 * kDirectAlignment,
                                      kMinGraphBudget / 2));
  buffer = align_down(buffer, kDirectAlignment);
  report.buffer_bytes = buffer;
  GridEngine engine(graph, readers, buffer);

  std::vector<Job*> job_ptrs;
  for (auto& job : jobs) job_ptrs.push_back(job.get());
  report.jobs.resize(jobs.size());
  for (size_t j = 0; j < jobs.size(); ++j) {
    report.jobs[j].name = jobs[j]->name();
    report.jobs[j].algo = jobs[j]->algo();
  }
  std::vector<double> compute(jobs.size(), 0.0);

  Bitmap union_sources(n), union_both(n);
  Progress progress("run", 0, "");
  const auto start = Clock::now();
  for (uint32_t round = 0;; ++round) {
    std::vector<uint32_t> running;
    for (uint32_t j = 0; j < jobs.size(); ++j)
      if (!jobs[j]->finished()) running.push_back(j);
    if (running.empty()) break;
    if (config.max_rounds && round >= config.max_rounds) break;

    const auto round_start = Clock::now();
    const EngineCounters before = engine.counters();
    const uint64_t bytes_before = engine.io_stats().bytes_read;
    std::vector<LoadUnit> units;
    if (config.sharing == Sharing::Independent) {
      for (uint32_t j : running) {
        const Job& job = *jobs[j];
        std::vector<bool> wanted = engine.active_blocks(job);
        Activity activity{&job.frontier(), job.direction() == Direction::Both ? &job.frontier() : nullptr};
        GridOrder order = order_for(m, wanted);
        for_each_block(m, order, [&](uint32_t i, uint32_t k) {
          if (wanted[m.block_index(i, k)]) engine.add_block_units(i, k, order, {j}, activity, units);
        });
      }
    } else {
      union_sources.clear();
      union_both.clear();
      bool any_both = false;
      std::vector<std::vector<bool>> wanted;
      std::vector<bool> any_wanted(m.num_blocks(), false);
      for (uint32_t j : running) {
        union_sources.or_with(jobs[j]->frontier());
        if (jobs[j]->direction() == Direction::Both) {
          union_both.or_with(jobs[j]->frontier());
          any_both = true;
        }
        wanted.push_back(engine.active_blocks(*jobs[j]));
        for (uint64_t b = 0; b < m.num_blocks(); ++b)
          if (wanted.back()[b]) any_wanted[b] = true;
      }
      Activity activity{&union_sources, any_both ? &union_both : nullptr};
      GridOrder order = order_for(m, any_wanted);
      for_each_block(m, order, [&](uint32_t i, uint32_t k) {
        uint64_t b = m.block_index(i, k);
        if (!any_wanted[b]) return;
        std::vector<uint32_t> related;
        for (size_t r = 0; r < running.size(); ++r)
          if (wanted[r][b]) related.push_back(running[r]);
        engine.add_block_units(i, k, order, std::move(related), activity, units);
      });
    }
    engine.stream(units, job_ptrs);

    for (uint32_t j : running) {
      auto t = Clock::now();
      jobs[j]->end_round();
      compute[j] += seconds_since(t);
      if (jobs[j]->finished()) report.jobs[j].seconds = seconds_since(start);
    }

    const EngineCounters& after = engine.counters();
    RoundRecord record;
    record.round = round;
    record.active_jobs = static_cast<uint32_t>(running.size());
    record.units_loaded = after.units - before.units;
    record.bytes_read = engine.io_stats().bytes_read - bytes_before;
    record.edges_loaded = after.edges_loaded - before.edges_loaded;
    record.active_edges_loaded = after.active_edges_loaded - before.active_edges_loaded;
    record.seconds = seconds_since(round_start);
    report.rounds.push_back(record);
    if (config.show_progress)
      progress.status(fmt::format("round {}, {} active jobs, {} units, {} read", round, running.size(),
                                  record.units_loaded,
                                  human_bytes(static_cast<double>(engine.io_stats().bytes_read))));
  }
  progress.finish();

  report.wall_seconds = seconds_since(start);
  report.io = engine.io_stats();
  report.io_backend = engine.backend();
  report.counters = engine.counters();
  for (size_t j = 0; j < jobs.size(); ++j) {
    JobOutcome& outcome = report.jobs[j];
    outcome.rounds = jobs[j]->rounds();
    outcome.converged = jobs[j]->converged();
    if (!jobs[j]->finished()) outcome.seconds = report.wall_seconds;
    outcome.round_end_seconds = compute[j];
  }
  report.peak_rss_bytes = peak_rss_bytes();
  return report;
}

std::string report_json(const BatchReport& r) {
  JsonWriter w;
  w.begin_object();
  w.field("mode", r.mode);
  w.field("engine", "gridgraph");
  w.field("graph", r.graph_dir);
  w.field("vertices", r.vertices);
  w.field("edges", r.edges);
  w.field("partitions", r.partitions);
  w.field("threads", r.threads);
  w.field("io_backend", r.io_backend);
  w.field("wall_seconds", r.wall_seconds);
  w.field("bytes_read", r.io.bytes_read);
  w.field("bytes_from_cache", r.bytes_from_cache);
  w.field("io_requests", r.io.requests);
  w.field("io_wait_seconds", r.io.wait_seconds);
  w.field("units_loaded", r.counters.units);
  w.field("edges_loaded", r.counters.edges_loaded);
  w.field("active_edges_loaded", r.counters.active_edges_loaded);
  w.field("active_edge_ratio", r.counters.edges_loaded
                                   ? static_cast<double>(r.counters.active_edges_loaded) /
                                         static_cast<double>(r.counters.edges_loaded)
                                   : 0.0);
  w.field("edges_processed", r.counters.edges_processed);
  w.field("mem_bytes", r.mem_bytes);
  w.field("vertex_state_bytes", r.vertex_state_bytes);
  w.field("graph_budget_bytes", r.graph_budget_bytes);
  w.field("buffer_bytes", r.buffer_bytes);
  w.field("peak_rss_bytes", r.peak_rss_bytes);
  w.field("rounds_total", static_cast<uint64_t>(r.rounds.size()));
  w.begin_array("jobs");
  for (const JobOutcome& j : r.jobs) {
    w.begin_object();
    w.field("name", j.name);
    w.field("algo", j.algo);
    w.field("iterations", j.rounds);
    w.field("seconds", j.seconds);
    w.field("round_end_seconds", j.round_end_seconds);
    w.field("converged", j.converged);
    w.end_object();
  }
  w.end_array();
  w.begin_array("rounds");
  for (const RoundRecord& rr : r.rounds) {
    w.begin_object();
    w.field("round", rr.round);
    w.field("active_jobs", rr.active_jobs);
    w.field("units_loaded", rr.units_loaded);
    w.field("bytes_read", rr.bytes_read);
    w.field("edges_loaded", rr.edges_loaded);
    w.field("active_edges_loaded", rr.active_edges_loaded);
    w.field("seconds", rr.seconds);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.text();
}

}  // namespace graphso
