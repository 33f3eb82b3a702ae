// Light rounds (base/adjacency.h, Job::adjacency_round): once chunk mode's cache holds the whole
// graph and the budget has room beside it, BFS and SSSP do their rounds over the graph's out-edges
// in memory (an asynchronous pass runs to its fixed point in buckets, jobs/bucket_pass.h). Their
// results are the reference's and those of the same batch through the chunks, in both engines,
// weighted or not, symmetric or not, packed or raw; a graph no job read whole is read once first.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <random>

#include "base/adjacency.h"
#include "base/error.h"
#include "jobs/bfs_group.h"
#include "jobs/bucket_pass.h"
#include "reference/reference.h"
#include "tests/test_graphs.h"

using namespace graphso;
using graphso::testing::kEngines;
using graphso::testing::TempDir;

namespace {

const RunnableOutcome& outcome_of(const BatchReport& report, const std::string& name) {
  for (const RunnableOutcome& r : report.runnables)
    if (r.name == name) return r;
  FAIL("no runnable " << name);
  return report.runnables.front();
}

// Every job's results are the reference's, and a traversal's the same byte for byte with light
// rounds off (PageRank's sums are not exact in any two runs).
void require_same_results(const graphso::testing::Batch& on, const graphso::testing::Batch& off, const EdgeSet& set) {
  for (size_t j = 0; j < on.jobs.size(); ++j) {
    INFO(on.specs[j].name);
    graphso::testing::check_against_reference(on.specs[j], *on.jobs[j], set);
    if (on.specs[j].algo != "pagerank")
      REQUIRE(on.jobs[j]->format_results(OutFormat::Binary, on.order) ==
              off.jobs[j]->format_results(OutFormat::Binary, off.order));
  }
}

}  // namespace

TEST_CASE("light rounds: BFS and SSSP over the graph in memory equal the reference and the chunks' results") {
  const EngineKind engine = GENERATE(from_range(kEngines));
  TempDir dir;
  for (const bool weighted : {false, true})
    for (const bool symmetric : {true, false})
      for (const EdgeEncoding encoding : {EdgeEncoding::Packed, EdgeEncoding::Raw}) {
        EdgeSet set = graphso::testing::rmat_edges(11, 8, weighted, 40 + weighted, dir);
        if (symmetric) {
          EdgeTransforms symmetrize;
          symmetrize.symmetrize = true;
          apply_transforms(set, symmetrize);
        }
        GridPrepOptions options;
        options.partitions = 4;
        options.encoding = encoding;
        const std::string graph = graphso::testing::prepare_graph(
            dir, set, options, fmt::format("g{}{}{}", weighted, symmetric, encoding_name(encoding)));
        const auto [hub, leaf] = graphso::testing::hub_and_leaf(set);
        const std::vector<std::string> jobs = {fmt::format("bfs:source={}", hub), fmt::format("bfs:source={}", leaf),
                                               fmt::format("sssp:source={}", hub), "pagerank:iterations=3"};
        const uint64_t mem = graphso::testing::budget_for(graph, jobs, 16.0, false);
        for (const AsyncPolicy async : {AsyncPolicy::Auto, AsyncPolicy::On, AsyncPolicy::Off}) {
          INFO("engine " << engine_name(engine) << ", weighted " << weighted << ", symmetric " << symmetric << ", "
                         << encoding_name(encoding) << ", async " << static_cast<int>(async));
          const graphso::testing::RunOptions light{.engine = engine, .async = async, .grouping = false};
          graphso::testing::RunOptions heavy = light;
          heavy.light_rounds = LightRounds::Off;
          auto on = graphso::testing::run_batch_on(graph, jobs, Sharing::Chunk, mem, light);
          auto off = graphso::testing::run_batch_on(graph, jobs, Sharing::Chunk, mem, heavy);
          REQUIRE(on.report.graph_resident);
          REQUIRE(on.report.light_rounds.state == "built");
          REQUIRE(off.report.light_rounds.state == "off");
          // No job had read the whole graph before round 0: it was read once, first.
          REQUIRE(on.report.light_rounds.round == 0);
          REQUIRE(on.report.light_rounds.bytes_read > 0);
          REQUIRE(on.report.light_rounds.bytes == Adjacency::bytes_for(set.vertices, set.edges.size(), weighted));
          require_same_results(on, off, set);
          for (const JobSpec& spec : on.specs) REQUIRE(outcome_of(off.report, spec.name).light_rounds == 0);
          const std::string bfs = on.specs[0].name, sssp = on.specs[2].name, pagerank = on.specs[3].name;
          // Every round of a BFS; an SSSP's asynchronous passes only (synchronous rounds go through
          // the chunks); never PageRank's.
          REQUIRE(outcome_of(on.report, bfs).light_rounds == outcome_of(on.report, bfs).rounds);
          if (async == AsyncPolicy::Off) REQUIRE(outcome_of(on.report, sssp).light_rounds == 0);
          else REQUIRE(outcome_of(on.report, sssp).light_rounds == 1);  // one pass to the last distance
          REQUIRE(outcome_of(on.report, pagerank).light_rounds == 0);
        }
      }
}

TEST_CASE("light rounds: bit-parallel BFS groups and SSSP lanes over the graph in memory equal the reference and the chunks") {
  const EngineKind engine = GENERATE(from_range(kEngines));
  TempDir dir;
  // A small world, whose BFS group does its rounds over the arrays (top-down and bottom-up), and
  // long lattices, whose groups go to passes and there run each lane to its end on its own; one
  // lattice with real weights.
  EdgeSet world = graphso::testing::rmat_edges(11, 8, true, 23, dir);
  EdgeTransforms symmetrize;
  symmetrize.symmetrize = true;
  apply_transforms(world, symmetrize);
  const EdgeSet lattice = graphso::testing::street_lattice(8, 300);
  EdgeSet real_lattice = graphso::testing::street_lattice(6, 200);
  std::mt19937_64 draw(3);
  for (WeightedEdge& e : real_lattice.edges) e.weight = real_weight_bits(static_cast<float>(draw() % 1000) / 64.0f);
  real_lattice.real_weights = true;
  const std::pair<const char*, const EdgeSet*> graphs[] = {{"world", &world}, {"lattice", &lattice}, {"real", &real_lattice}};
  for (const auto& [name, set] : graphs) {
    const std::string graph = graphso::testing::prepare_graph(dir, *set, 4, name);
    std::vector<std::string> jobs = graphso::testing::jobs_from_sources(*set, "bfs", 20, 1);
    for (const std::string& job : graphso::testing::jobs_from_sources(*set, "sssp", 12, 2)) jobs.push_back(job);
    const uint64_t mem = graphso::testing::budget_for(graph, jobs, 16.0);
    for (const AsyncPolicy async : {AsyncPolicy::Auto, AsyncPolicy::On, AsyncPolicy::Off}) {
      INFO("engine " << engine_name(engine) << ", " << name << ", async " << static_cast<int>(async));
      const graphso::testing::RunOptions light{.chunk_bytes = 4096, .engine = engine, .update_mem_bytes = 1 << 20, .async = async};
      graphso::testing::RunOptions heavy = light;
      heavy.light_rounds = LightRounds::Off;
      auto on = graphso::testing::run_batch_on(graph, jobs, Sharing::Chunk, mem, light);
      auto off = graphso::testing::run_batch_on(graph, jobs, Sharing::Chunk, mem, heavy);
      REQUIRE(on.report.graph_resident);
      require_same_results(on, off, *set);
      REQUIRE(on.report.runnables.size() == 2);
      const RunnableOutcome& bfs = on.report.runnables[0];
      const RunnableOutcome& sssp = on.report.runnables[1];
      REQUIRE(bfs.method == "bit-parallel bfs");
      REQUIRE(sssp.method == "sssp lanes");
      if (async == AsyncPolicy::Off) {
        // Synchronous groups stay in rounds through the chunks: nothing takes the arrays.
        REQUIRE(on.report.light_rounds.state == "not taken");
        continue;
      }
      // The SSSP lanes take the arrays from their first pass, which runs every lane to its end.
      REQUIRE(on.report.light_rounds.state == "built");
      REQUIRE(on.report.light_rounds.round == 0);
      REQUIRE(sssp.light_rounds == 1);
      REQUIRE(sssp.rounds == 1);
      // Every round of the BFS group is over the arrays: a small world's in rounds, bottom-up
      // among them; a lattice's rounds until they stop growing (or none, asked for passes), then
      // one pass in which every lane runs to its end. The real weights differ each way, so that
      // lattice is not symmetric: its rounds stop after kPassesAfter, as out of core.
      REQUIRE(bfs.light_rounds == bfs.rounds);
      const uint64_t bottom_up = bfs.counts.at(0).second, passes = bfs.counts.at(1).second;
      const std::string which = name;
      if (which == "world" && async == AsyncPolicy::Auto) {
        REQUIRE(bottom_up > 0);
      } else if (which != "world") {
        REQUIRE(passes == 1);
        const uint32_t most = async == AsyncPolicy::On ? 1 : which == "lattice" ? 5 : BfsGroup<1>::kPassesAfter + 1;
        REQUIRE(bfs.rounds <= most);
      }
    }
  }
}

TEST_CASE("light rounds: a BFS joining after the graph was read takes it from the cache, reading nothing more") {
  const EngineKind engine = GENERATE(from_range(kEngines));
  TempDir dir;
  const EdgeSet set = graphso::testing::street_lattice(8, 300);  // about 300 levels
  const std::string graph = graphso::testing::prepare_graph(dir, set, 4, "lattice");
  const std::vector<std::string> jobs = {"pagerank:iterations=1", "bfs:source=3", "sssp:source=3"};
  const uint64_t mem = graphso::testing::budget_for(graph, jobs, 16.0, false);
  graphso::testing::RunOptions options{.chunk_bytes = 4096, .engine = engine, .grouping = false};
  options.arrive_after = {0, 1, 1};
  auto on = graphso::testing::run_batch_on(graph, jobs, Sharing::Chunk, mem, options);
  options.light_rounds = LightRounds::Off;
  auto off = graphso::testing::run_batch_on(graph, jobs, Sharing::Chunk, mem, options);
  REQUIRE(on.report.light_rounds.state == "built");
  REQUIRE(on.report.light_rounds.round == 1);
  REQUIRE(on.report.light_rounds.bytes_read == 0);
  REQUIRE(on.report.io.bytes_read == off.report.io.bytes_read);
  require_same_results(on, off, set);
  // Through the chunks a lattice takes a pass per few levels; in memory the BFS's pass runs to
  // its end (after a round or two while it grows) and the SSSP's first pass does.
  const RunnableOutcome& bfs = outcome_of(on.report, on.specs[1].name);
  REQUIRE(bfs.rounds <= 4);
  REQUIRE(bfs.rounds < outcome_of(off.report, off.specs[1].name).rounds);
  REQUIRE(outcome_of(on.report, on.specs[2].name).rounds == 1);
  // A batch whose jobs take no light rounds builds nothing.
  auto pagerank = graphso::testing::run_batch_on(graph, {"pagerank:iterations=2"}, Sharing::Chunk, mem,
                                                 {.chunk_bytes = 4096, .engine = engine});
  REQUIRE(pagerank.report.light_rounds.state == "not taken");
  REQUIRE(pagerank.report.light_rounds.bytes == 0);
}

TEST_CASE("light rounds, auto: built once the rounds without them have cost what building them would, or when a job asks") {
  const EngineKind engine = GENERATE(from_range(kEngines));
  TempDir dir;
  // A long lattice: hundreds of thin passes through the chunks, well past the price of a small
  // graph's adjacency.
  const EdgeSet long_one = graphso::testing::street_lattice(4, 3000);
  const std::string lattice = graphso::testing::prepare_graph(dir, long_one, 4, "lattice");
  graphso::testing::RunOptions options{.chunk_bytes = 4096, .engine = engine, .grouping = false};
  options.light_rounds = LightRounds::Auto;
  // An SSSP runs in passes from its first round and never asks: the rent decides.
  const std::vector<std::string> sssp = {"sssp:source=1"};
  auto rented = graphso::testing::run_batch_on(lattice, sssp, Sharing::Chunk, graphso::testing::budget_for(lattice, sssp, 16.0), options);
  REQUIRE(rented.report.light_rounds.state == "built");
  REQUIRE_FALSE(rented.report.light_rounds.asked);
  REQUIRE(rented.report.light_rounds.round > 0);  // after some rounds through the chunks
  REQUIRE(rented.report.light_rounds.rent_seconds >= static_cast<double>(rented.report.light_rounds.bytes) / kLightRoundsBuildRate);
  REQUIRE(outcome_of(rented.report, rented.specs[0].name).light_rounds > 0);
  graphso::testing::check_against_reference(rented.specs[0], *rented.jobs[0], long_one);
  // A BFS, and a group of them, whose rounds stop growing before any bottom-up step ask for it
  // as they go to passes: built a few rounds in, whatever the rent (which on a slow machine, a
  // sanitizer build, may have been paid by then too), then one pass to the end.
  const std::vector<std::string> bfs = {"bfs:source=1", "bfs:source=6001", "bfs:source=11998"};
  for (const bool grouping : {false, true}) {
    INFO("grouping " << grouping);
    options.grouping = grouping;
    const std::vector<std::string> jobs(bfs.begin(), bfs.begin() + (grouping ? 3 : 1));
    auto asked = graphso::testing::run_batch_on(lattice, jobs, Sharing::Chunk, graphso::testing::budget_for(lattice, jobs, 16.0), options);
    REQUIRE(asked.report.light_rounds.state == "built");
    REQUIRE(asked.report.light_rounds.round <= 5);
    // A group pays no rent in its rounds (it takes the arrays only in passes), so only its asking
    // builds them; a BFS alone pays rent from its first round, and on a slow machine (a sanitizer
    // build) that rent may reach the price before it asks.
    if (grouping) REQUIRE(asked.report.light_rounds.asked);
    else REQUIRE((asked.report.light_rounds.asked || asked.report.light_rounds.rent_seconds >=
                  static_cast<double>(asked.report.light_rounds.bytes) / kLightRoundsBuildRate));
    REQUIRE(asked.report.runnables.size() == 1);
    // Then light rounds to the end: the group's pass right away; a BFS built for by rent may take
    // a light round or two before it goes to passes.
    REQUIRE(asked.report.runnables[0].rounds <= asked.report.light_rounds.round + (grouping ? 1 : 3));
    REQUIRE(asked.report.runnables[0].light_rounds > 0);
    for (size_t j = 0; j < jobs.size(); ++j) graphso::testing::check_against_reference(asked.specs[j], *asked.jobs[j], long_one);
  }
}

TEST_CASE("light rounds are off out of core and in the stock modes") {
  TempDir dir;
  const EdgeSet set = graphso::testing::street_lattice(8, 100);
  const std::string graph = graphso::testing::prepare_graph(dir, set, 4, "lattice");
  const std::vector<std::string> jobs = {"bfs:source=3"};
  for (Sharing mode : {Sharing::Independent, Sharing::Partition}) {
    auto batch = graphso::testing::run_batch_on(graph, jobs, mode, graphso::testing::budget_for(graph, jobs, 16.0));
    REQUIRE(batch.report.light_rounds.state == "not resident");
    graphso::testing::check_against_reference(batch.specs[0], *batch.jobs[0], set);
  }
  auto out_of_core = graphso::testing::run_batch_on(graph, jobs, Sharing::Chunk, graphso::testing::budget_for(graph, jobs, 0.3),
                                                    {.chunk_bytes = 4096, .cache_ratio = 0});
  REQUIRE(out_of_core.report.light_rounds.state == "not resident");
  REQUIRE(outcome_of(out_of_core.report, out_of_core.specs[0].name).light_rounds == 0);
}

TEST_CASE("the adjacency refuses runs that do not add up to the out-degrees") {
  const std::vector<uint32_t> degrees = {2, 0, 1};
  const std::vector<Edge> records = {{0, 1}, {0, 2}, {2, 0}};
  auto run_of = [](const std::vector<Edge>& edges) {
    EdgeRun run;
    run.data = reinterpret_cast<const std::byte*>(edges.data());
    run.count = edges.size();
    return run;
  };
  Adjacency whole(degrees, false);
  REQUIRE(whole.add(run_of(records)).empty());
  whole.finish();
  REQUIRE(whole.degree(0) == 2);
  REQUIRE(std::vector<VertexId>(whole.targets(2).begin(), whole.targets(2).end()) == std::vector<VertexId>{0});

  Adjacency extra(degrees, false);
  const std::vector<Edge> too_many = {{2, 0}, {2, 1}};
  REQUIRE_THAT(extra.add(run_of(too_many)), Catch::Matchers::Contains("vertex 2 has more edges than its out-degree 1"));
  Adjacency outside(degrees, false);
  const std::vector<Edge> far = {{0, 7}};
  REQUIRE_THAT(outside.add(run_of(far)), Catch::Matchers::Contains("destination 7 is outside the graph's 3 vertices"));
  Adjacency short_of(degrees, false);
  REQUIRE(short_of.add(run_of({records[0], records[2]})).empty());
  REQUIRE_THROWS_WITH(short_of.finish(), Catch::Matchers::Contains("vertex 0 has 1 edges where its out-degree is 2"));
}

TEST_CASE("a bucket pass equals Dijkstra with weights beyond its window of buckets, serial and parallel") {
  // A path of light edges with heavy shortcuts: the mean weight is small, so a heavy edge lands
  // far past the buckets kept at once and waits in the far pile.
  EdgeSet set;
  set.vertices = 3000;
  set.weighted = true;
  std::mt19937_64 draw(9);
  for (VertexId v = 0; v + 1 < set.vertices; ++v) {
    set.edges.push_back({v, v + 1, static_cast<Weight>(1 + draw() % 3)});
    set.edges.push_back({v + 1, v, static_cast<Weight>(1 + draw() % 3)});
    if (v % 97 == 0) set.edges.push_back({v, static_cast<VertexId>(draw() % set.vertices), 50'000'000});
  }
  std::sort(set.edges.begin(), set.edges.end(), [](const WeightedEdge& a, const WeightedEdge& b) { return a.src < b.src; });
  std::vector<uint32_t> degrees(set.vertices, 0);
  for (const WeightedEdge& e : set.edges) ++degrees[e.src];
  EdgeRun run;
  run.data = reinterpret_cast<const std::byte*>(set.edges.data());
  run.count = set.edges.size();
  run.weighted = true;
  Adjacency graph(degrees, true);
  REQUIRE(graph.add(run).empty());
  graph.finish();
  const ReferenceGraph reference = make_reference_graph(set.vertices, set.edges);
  const std::vector<uint64_t> expected = reference::sssp(reference.csr, 0);
  for (const int threads : {1, 2}) {
    std::vector<uint64_t> dist(set.vertices, UINT64_MAX);
    dist[0] = 0;
    // Every bucket on every thread when there are two (the atomic path), to check it too.
    bucket_pass(graph, dist, {0}, [](uint64_t d) { return d / 2; }, [](uint64_t d, Weight w) { return d + w; }, threads, 1);
    REQUIRE(dist == expected);
  }
}
