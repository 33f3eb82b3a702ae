// Grouped jobs (jobs/job_groups.h): identical jobs computed once, BFS jobs as bit-parallel groups,
// SSSP and delta-PageRank jobs as lane groups. Every member's results equal the reference and
// the same job run on its own (grouping off), in both engines and every sharing mode, weighted
// and not, on generated and real graphs; groups of every width; arrivals in later rounds; runs
// cut short; and the plan itself.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <map>

#include "jobs/bfs.h"
#include "jobs/bfs_group.h"
#include "jobs/job_groups.h"
#include "jobs/sssp.h"
#include "tests/test_graphs.h"

using namespace graphso;
using graphso::testing::kEngines;
using graphso::testing::TempDir;

namespace {

const std::vector<Sharing> kModes = {Sharing::Independent, Sharing::Partition, Sharing::Chunk};

// Every job's results against the reference, the graph's reference built once.
void check_all(const graphso::testing::Batch& batch, const EdgeSet& set) {
  const ReferenceGraph reference = make_reference_graph(set.vertices, set.edges);
  const VertexOrder natural = VertexOrder::natural(set.vertices);
  for (size_t j = 0; j < batch.jobs.size(); ++j) {
    INFO("job " << batch.specs[j].name << " " << batch.specs[j].origin);
    REQUIRE(batch.jobs[j]->converged());
    const ResultCheck check = check_result(batch.specs[j], *batch.jobs[j], reference, natural);
    INFO(check.detail);
    REQUIRE(check.ok);
  }
}

// The runnables of a report by method ("" for lone jobs): how many, and the jobs they computed.
std::map<std::string, std::pair<uint32_t, uint32_t>> methods(const BatchReport& report) {
  std::map<std::string, std::pair<uint32_t, uint32_t>> out;
  for (const RunnableOutcome& r : report.runnables) {
    out[r.method].first += 1;
    out[r.method].second += r.jobs;
  }
  return out;
}

std::string binary_results(const Job& job, const VertexOrder& order) { return job.format_results(OutFormat::Binary, order); }

}  // namespace

TEST_CASE("grouped jobs equal the reference and the jobs run alone, in every engine and sharing mode") {
  const EngineKind engine = GENERATE(from_range(kEngines));
  TempDir dir;
  // Directed, unweighted and weighted, and symmetric (where the BFS group's rounds may go bottom-up).
  for (int kind : {0, 1, 2}) {
    const bool weighted = kind == 1;
    EdgeSet set = graphso::testing::rmat_edges(11, 8, weighted, 41 + kind, dir);
    if (kind == 2) {
      EdgeTransforms symmetrize;
      symmetrize.symmetrize = true;
      apply_transforms(set, symmetrize);
    }
    const std::string graph = graphso::testing::prepare_graph(dir, set, 4, fmt::format("g{}", kind));
    // 70 BFS: a group of two lane words. Then SSSP, PPR and delta-PageRank groups, and identical
    // jobs among them.
    std::vector<std::string> jobs = graphso::testing::jobs_from_sources(set, "bfs", 70, 1);
    for (const std::string& job : graphso::testing::jobs_from_sources(set, "sssp", 10, 2)) jobs.push_back(job);
    for (const std::string& job : graphso::testing::jobs_from_sources(set, "ppr", 5, 3)) jobs.push_back(job + ":tolerance=1e-5");
    for (const char* job : {"pagerank-delta:tolerance=1e-4", "pagerank-delta:tolerance=1e-5", "wcc", "wcc", "kcore",
                            "pagerank:iterations=6", "pagerank:iterations=6"})
      jobs.push_back(job);
    jobs.push_back(jobs[3]);  // a BFS twice
    for (Sharing mode : kModes) {
      INFO("engine " << engine_name(engine) << ", mode " << sharing_name(mode) << ", graph " << kind);
      const double fraction = mode == Sharing::Chunk ? 0.4 : 0.15;
      const uint64_t mem = graphso::testing::budget_for(graph, jobs, fraction, true, AsyncPolicy::Off);
      const uint64_t alone_mem = graphso::testing::budget_for(graph, jobs, fraction, false, AsyncPolicy::Off);
      // The X-Stream engine stages the groups' wide update records: a larger least update budget.
      auto grouped = graphso::testing::run_batch_on(graph, jobs, mode, mem,
                                                    {.engine = engine, .update_mem_bytes = 1 << 20, .async = AsyncPolicy::Off});
      auto alone = graphso::testing::run_batch_on(graph, jobs, mode, alone_mem,
                                                  {.engine = engine, .async = AsyncPolicy::Off, .grouping = false});
      check_all(grouped, set);
      const auto by_method = methods(grouped.report);
      REQUIRE(by_method.at("bit-parallel bfs") == std::pair<uint32_t, uint32_t>(1, 71));  // the twin rides with its first
      REQUIRE(by_method.at("sssp lanes") == std::pair<uint32_t, uint32_t>(1, 10));
      REQUIRE(by_method.at("delta-pagerank lanes") == std::pair<uint32_t, uint32_t>(2, 7));
      REQUIRE(by_method.at("identical jobs") == std::pair<uint32_t, uint32_t>(2, 4));  // wcc, pagerank
      REQUIRE(methods(alone.report).size() == 1);
      for (const RunnableOutcome& r : grouped.report.runnables)
        if (r.method == "bit-parallel bfs") {
          REQUIRE(r.counts.at(0).first == "bottom_up_rounds");
          if (kind == 2) REQUIRE(r.counts[0].second > 0);  // some rounds went bottom-up
          else REQUIRE(r.counts[0].second == 0);            // not without in-edges
          REQUIRE(r.counts.at(1) == std::pair<std::string, uint64_t>("pass_rounds", 0));  // --async off: rounds
        }
      for (size_t j = 0; j < jobs.size(); ++j) {
        INFO("job " << jobs[j]);
        const std::string& algo = grouped.specs[j].algo;
        // Exact algorithms: byte for byte. The rank sums within their bounds (checked above): the
        // order the engines add a vertex's shares in is not fixed (X-Stream's gathers, shared
        // destination ranges), alone or not.
        if (algo == "bfs" || algo == "sssp" || algo == "wcc" || algo == "kcore")
          REQUIRE(binary_results(*grouped.jobs[j], grouped.order) == binary_results(*alone.jobs[j], alone.order));
        // Synchronous rounds both ways: the same rounds.
        REQUIRE(grouped.report.jobs[j].rounds == alone.report.jobs[j].rounds);
      }
      // One pass over the edges serves every member: far fewer edges handed to jobs.
      REQUIRE(grouped.report.counters.edges_processed * 3 < alone.report.counters.edges_processed);
    }
  }
}

TEST_CASE("PageRank's damping factor: each variant, alone and as lanes of one group, equals the reference at its d") {
  const EngineKind engine = GENERATE(from_range(kEngines));
  TempDir dir;
  const EdgeSet set = graphso::testing::rmat_edges(10, 8, false, 53, dir);
  const std::string graph = graphso::testing::prepare_graph(dir, set, 4, "g");
  const std::string source = graphso::testing::jobs_from_sources(set, "ppr", 1, 7).at(0);
  // Each at the default and at another d; the delta forms' lanes share one group whatever their d.
  const std::vector<std::string> jobs = {"pagerank:iterations=8", "pagerank:iterations=8:damping=0.5",
                                         "pagerank:iterations=8:variant=graphalytics:damping=0.6",
                                         "pagerank-delta:tolerance=1e-6", "pagerank-delta:tolerance=1e-6:damping=0.6",
                                         source + ":tolerance=1e-6", source + ":tolerance=1e-6:damping=0.7"};
  for (Sharing mode : kModes) {
    INFO("engine " << engine_name(engine) << ", mode " << sharing_name(mode));
    const uint64_t mem = graphso::testing::budget_for(graph, jobs, 0.3, true, AsyncPolicy::Off);
    auto grouped = graphso::testing::run_batch_on(graph, jobs, mode, mem,
                                                  {.engine = engine, .update_mem_bytes = 1 << 20, .async = AsyncPolicy::Off});
    auto alone = graphso::testing::run_batch_on(graph, jobs, mode, graphso::testing::budget_for(graph, jobs, 0.3, false),
                                                {.engine = engine, .grouping = false});
    check_all(grouped, set);  // each against the reference at its own d
    check_all(alone, set);
    REQUIRE(methods(grouped.report).at("delta-pagerank lanes") == std::pair<uint32_t, uint32_t>(2, 4));
    // A different d is a different answer (the reference checks would pass an ignored d only if
    // the answers were equal).
    REQUIRE(binary_results(*grouped.jobs[0], grouped.order) != binary_results(*grouped.jobs[1], grouped.order));
    REQUIRE(binary_results(*grouped.jobs[3], grouped.order) != binary_results(*grouped.jobs[4], grouped.order));
    REQUIRE(binary_results(*grouped.jobs[5], grouped.order) != binary_results(*grouped.jobs[6], grouped.order));
  }
}

TEST_CASE("grouped BFS and SSSP in passes (--async auto and on) equal the reference on a long lattice, in every engine and mode") {
  const EngineKind engine = GENERATE(from_range(kEngines));
  TempDir dir;
  // Long and narrow: hundreds of levels, so an auto BFS group goes from rounds to passes.
  const EdgeSet set = graphso::testing::street_lattice(8, 300);
  const std::string graph = graphso::testing::prepare_graph(dir, set, 4, "lattice");
  std::vector<std::string> jobs = graphso::testing::jobs_from_sources(set, "bfs", 20, 6);
  for (const std::string& job : graphso::testing::jobs_from_sources(set, "sssp", 12, 7)) jobs.push_back(job);
  jobs.push_back("bfs:source=5:reach=0");  // a reach of its own: a group of its own
  jobs.push_back("bfs:source=9:reach=0");
  const ReferenceGraph reference = make_reference_graph(set.vertices, set.edges);
  for (AsyncPolicy async : {AsyncPolicy::Auto, AsyncPolicy::On}) {
    for (Sharing mode : kModes) {
      INFO("engine " << engine_name(engine) << ", mode " << sharing_name(mode) << ", async " << static_cast<int>(async));
      const uint64_t mem = graphso::testing::budget_for(graph, jobs, 0.3, true, async);
      auto batch = graphso::testing::run_batch_on(graph, jobs, mode, mem,
                                                  {.chunk_bytes = 4096, .engine = engine, .update_mem_bytes = 1 << 20, .async = async});
      check_all(batch, set);
      if (mode == Sharing::Chunk) {  // chunks a group's changed lanes reach join the pass
        auto joined = graphso::testing::run_batch_on(
            graph, jobs, mode, mem,
            {.chunk_bytes = 4096, .engine = engine, .update_mem_bytes = 1 << 20, .async = async, .late_join = true});
        check_all(joined, set);
        uint64_t late = 0;
        for (const RoundRecord& round : joined.report.rounds) late += round.late_chunks;
        REQUIRE(late > 0);
      }
      REQUIRE(batch.report.runnables.size() == 3);  // BFS, BFS with reach 0, SSSP
      for (const RunnableOutcome& r : batch.report.runnables) {
        INFO(r.name);
        REQUIRE(r.jobs > 1);
        if (r.method == "bit-parallel bfs") {
          // In passes: from the start when asked, after the rounds the group allows otherwise, or
          // sooner on a resident graph, once its rounds stop growing (a lattice: within a few).
          const uint64_t pass_rounds = r.counts.at(1).second;
          REQUIRE(pass_rounds > 0);
          if (async == AsyncPolicy::On) REQUIRE(pass_rounds == r.rounds);
          else if (!batch.report.graph_resident) REQUIRE(pass_rounds == r.rounds - BfsGroup<1>::kPassesAfter);
          else REQUIRE(r.rounds - pass_rounds <= 4);
        }
      }
      // Passes travel: far fewer than the lattice's levels.
      REQUIRE(batch.report.rounds.size() < 250);
    }
  }
}

TEST_CASE("grouped delta-PageRank lanes add what each job adds alone, in the same order on one thread") {
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(10, 8, false, 43, dir);
  const std::string graph = graphso::testing::prepare_graph(dir, set, 4);
  std::vector<std::string> jobs = graphso::testing::jobs_from_sources(set, "ppr", 9, 4);  // 16 lanes
  jobs.push_back("pagerank-delta:tolerance=1e-4");
  jobs.push_back("pagerank-delta:tolerance=1e-6:max_iterations=4");  // stops unconverged
  for (Sharing mode : {Sharing::Independent, Sharing::Partition}) {  // a fixed order of loads
    const uint64_t mem = std::max(graphso::testing::budget_for(graph, jobs, 0.3, false, AsyncPolicy::Off),
                                  graphso::testing::budget_for(graph, jobs, 0.3, true, AsyncPolicy::Off));
    auto grouped = graphso::testing::run_batch_on(graph, jobs, mode, mem, {.async = AsyncPolicy::Off, .threads = 1});
    auto alone = graphso::testing::run_batch_on(graph, jobs, mode, mem, {.async = AsyncPolicy::Off, .threads = 1, .grouping = false});
    for (size_t j = 0; j < jobs.size(); ++j) {
      INFO(sharing_name(mode) << ": job " << jobs[j]);
      REQUIRE(grouped.jobs[j]->converged() == alone.jobs[j]->converged());
      REQUIRE(grouped.jobs[j]->rounds() == alone.jobs[j]->rounds());
      REQUIRE(binary_results(*grouped.jobs[j], grouped.order) == binary_results(*alone.jobs[j], alone.order));
    }
    REQUIRE_FALSE(grouped.jobs.back()->converged());
    REQUIRE(grouped.jobs.back()->rounds() == 4);
  }
}

TEST_CASE("bit-parallel BFS groups of one to eight lane words, on a real graph, staggered and cut short") {
  const EdgeSet set = graphso::testing::load_dataset("email-enron-u.el.gz");
  TempDir dir;
  const std::string graph = graphso::testing::prepare_graph(dir, set, 0, "enron");
  for (size_t count : {2, 64, 65, 200, 300, 513}) {
    INFO(count << " BFS jobs");
    const std::vector<std::string> jobs = graphso::testing::jobs_from_sources(set, "bfs", count, count);
    auto batch = graphso::testing::run_batch_on(graph, jobs, Sharing::Chunk, graphso::testing::budget_for(graph, jobs, 0.3),
                                                {.chunk_bytes = 65536});
    check_all(batch, set);
    // The fewest groups of at most 512 lanes, of even sizes, each as wide as its members need.
    const size_t groups = (count + 511) / 512;
    REQUIRE(batch.report.runnables.size() == groups);
    for (const RunnableOutcome& r : batch.report.runnables) {
      REQUIRE(r.method == "bit-parallel bfs");
      REQUIRE(r.lanes >= r.jobs);
      REQUIRE(r.lanes < 2 * r.jobs + 64);
      REQUIRE(r.counts.at(0).second > 0);  // a small-world graph's middle rounds go bottom-up
    }
  }
  // Arrivals: jobs arriving in one round form a group; a later one joins none already running.
  std::vector<std::string> jobs = graphso::testing::jobs_from_sources(set, "bfs", 12, 9);
  std::vector<JobSpec> specs;
  std::vector<std::unique_ptr<Job>> made;
  for (size_t i = 0; i < jobs.size(); ++i) specs.push_back(parse_job_argument(jobs[i], i));
  name_jobs(specs);
  for (const JobSpec& s : specs) made.push_back(make_job(s, set.vertices));
  GridGraph opened = GridGraph::open(graph);
  BatchConfig config;
  config.sharing = Sharing::Chunk;
  config.graph_mem_bytes = 1 << 20;
  config.threads = 2;
  config.show_progress = false;
  config.arrive_after = {0, 0, 0, 0, 0, 3, 3, 3, 3, 5, 5, 7};
  ReaderFactory readers{ReaderOptions{}};
  const BatchReport report = run_batch(config, opened, made, readers);
  const ReferenceGraph reference = make_reference_graph(set.vertices, set.edges);
  for (size_t j = 0; j < made.size(); ++j) {
    REQUIRE(check_result(specs[j], *made[j], reference, opened.order()).ok);
    REQUIRE(report.jobs[j].arrived_round == config.arrive_after[j]);
  }
  REQUIRE(report.runnables.size() == 4);  // rounds 0, 3 and 5 each a group; round 7 one job alone
  REQUIRE(report.runnables[3].method.empty());
  REQUIRE(report.runnables[1].arrived_round == 3);
  // Cut short: the members did not converge, and say how many rounds they ran.
  config.arrive_after.clear();
  config.max_rounds = 2;
  made.clear();
  for (const JobSpec& s : specs) made.push_back(make_job(s, set.vertices));
  const BatchReport cut = run_batch(config, opened, made, readers);
  size_t stopped = 0;
  for (const JobOutcome& j : cut.jobs) {
    REQUIRE(j.rounds <= 2);
    if (!j.converged) REQUIRE(j.rounds == 2);
    stopped += !j.converged;
  }
  REQUIRE(stopped > 0);
}

TEST_CASE("the plan: identical jobs once, groups by algorithm, arrival and setting") {
  auto make = [](const std::vector<std::string>& args, AsyncPolicy async) {
    std::vector<JobSpec> specs;
    for (size_t i = 0; i < args.size(); ++i) specs.push_back(parse_job_argument(args[i], i));
    name_jobs(specs);
    std::vector<std::unique_ptr<Job>> jobs;
    for (const JobSpec& s : specs) jobs.push_back(make_job(s, 1000, nullptr, async));
    return jobs;
  };
  const std::vector<std::string> args = {"bfs:source=1", "bfs:source=2", "bfs:source=1", "sssp:source=1", "wcc",
                                         "wcc:method=label", "wcc", "pagerank", "bfs:source=3"};
  {
    auto jobs = make(args, AsyncPolicy::Auto);
    const BatchPlan plan = plan_batch(jobs, {}, 1000, true);
    // bfs 1, 2, 3 in one group (the twin of 1 rides with it); sssp, wcc, wcc:label, pagerank alone.
    REQUIRE(plan.runnables.size() == 5);
    REQUIRE(plan.same_as == std::vector<int64_t>{-1, -1, 0, -1, -1, -1, 4, -1, -1});
    REQUIRE(plan.group(0) != nullptr);
    REQUIRE(plan.group(0)->members().size() == 3);
    REQUIRE(plan.runnable_of[8] == 0);
    REQUIRE(plan.runnable_of[6] == plan.runnable_of[4]);
    // Arrivals: the same jobs apart in time share nothing.
    const std::vector<uint32_t> arrivals = {0, 1, 2, 0, 0, 0, 1, 0, 0};
    const BatchPlan apart = plan_batch(jobs, arrivals, 1000, true);
    REQUIRE(apart.same_as[2] == -1);
    REQUIRE(apart.same_as[6] == -1);
    REQUIRE(apart.group(0) != nullptr);  // bfs 1 and 3, both at round 0
    REQUIRE(apart.group(0)->members().size() == 2);
    // Grouping off: every job on its own.
    const BatchPlan off = plan_batch(jobs, {}, 1000, false);
    REQUIRE(off.runnables.size() == args.size());
    for (uint32_t r = 0; r < off.runnables.size(); ++r) REQUIRE(off.group(r) == nullptr);
  }
  {
    // --async on forces passes: BFS and SSSP groups run in passes; delta-PageRank groups, in
    // rounds only, take none of them; identical jobs are still computed once. A job asked to run
    // in passes is grouped with no job that runs in rounds, nor with one of another reach.
    auto jobs = make({"bfs:source=1", "bfs:source=2", "bfs:source=1", "ppr:source=1", "ppr:source=2",
                      "bfs:source=3:reach=5", "bfs:source=4:reach=5"}, AsyncPolicy::On);
    const BatchPlan plan = plan_batch(jobs, {}, 1000, true);
    REQUIRE(plan.same_as[2] == 0);
    REQUIRE(plan.runnables.size() == 4);  // bfs 1, 2 (and the twin); ppr, ppr; bfs 3, 4
    REQUIRE(plan.group(0)->members().size() == 2);
    REQUIRE(plan.group(1) == nullptr);
    REQUIRE(plan.group(2) == nullptr);
    REQUIRE(plan.group(3)->members().size() == 2);
    jobs[1]->set_async(false);  // a job file's async = false
    REQUIRE(plan_batch(jobs, {}, 1000, true).group(0) == nullptr);
  }
  {
    // SSSP lanes hold distances below 2^62: not on graphs of more than 2^30 vertices.
    auto jobs = make({"sssp:source=1", "sssp:source=2"}, AsyncPolicy::Off);
    REQUIRE(plan_batch(jobs, {}, 1000, true).runnables.size() == 1);
    REQUIRE(plan_batch(jobs, {}, (uint64_t{1} << 30) + 1, true).runnables.size() == 2);
  }
}

TEST_CASE("a batch whose vertex state does not fit says how many of its jobs do, before any work") {
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(10, 8, false, 44, dir);
  const std::string graph = graphso::testing::prepare_graph(dir, set, 4);
  const std::vector<std::string> jobs = graphso::testing::jobs_from_sources(set, "bfs", 40, 5);
  auto first = [&](size_t k) { return std::vector<std::string>(jobs.begin(), jobs.begin() + static_cast<int64_t>(k)); };
  // Room for the state of 20 of them, and the least graph data.
  const uint64_t mem = graphso::testing::budget_for(graph, first(20), 0);
  const std::string error = graphso::testing::error_of([&] { graphso::testing::run_batch_on(graph, jobs, Sharing::Partition, mem); });
  INFO(error);
  REQUIRE_THAT(error, Catch::Contains("is too small: the vertex state of 40 jobs"));
  const size_t at = error.find("the first ");
  REQUIRE(at != std::string::npos);
  const size_t fit = std::stoul(error.substr(at + 10));
  REQUIRE(fit >= 20);
  REQUIRE(fit < 40);
  // And so they do: that many run, one more is refused.
  graphso::testing::run_batch_on(graph, first(fit), Sharing::Partition, mem);
  REQUIRE_THAT(graphso::testing::error_of([&] { graphso::testing::run_batch_on(graph, first(fit + 1), Sharing::Partition, mem); }),
               Catch::Contains(fmt::format("the first {} of them fit", fit)));
}
