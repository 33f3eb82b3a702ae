// A BFS alone, direction-optimising (jobs/bfs.h): on a symmetric graph its synchronous rounds go
// bottom-up when the frontier is large, and its levels equal the reference and those of a BFS in
// passes, in both engines and every sharing mode; never bottom-up without in-edges (a directed
// graph). By default (--async auto) it starts in such rounds only on a graph the run keeps
// resident, and goes to passes once its frontier stops growing (a lattice); out of core it runs
// in passes throughout.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <algorithm>

#include "jobs/bfs.h"
#include "reference/reference.h"
#include "tests/test_graphs.h"

using namespace graphso;
using graphso::testing::kEngines;
using graphso::testing::TempDir;

namespace {

const std::vector<Sharing> kModes = {Sharing::Independent, Sharing::Partition, Sharing::Chunk};

uint64_t count_of(const RunnableOutcome& r, const std::string& key) {
  for (const auto& [name, value] : r.counts)
    if (name == key) return value;
  FAIL("no count " << key << " for " << r.name);
  return 0;
}

void check_against(const graphso::testing::Batch& batch, const ReferenceGraph& reference, uint64_t vertices) {
  const VertexOrder natural = VertexOrder::natural(vertices);
  for (size_t j = 0; j < batch.jobs.size(); ++j) {
    INFO("job " << batch.specs[j].name);
    REQUIRE(batch.jobs[j]->converged());
    const ResultCheck check = check_result(batch.specs[j], *batch.jobs[j], reference, natural);
    INFO(check.detail);
    REQUIRE(check.ok);
  }
}

uint32_t deepest_level(const ReferenceGraph& reference, VertexId source) {
  uint32_t deepest = 0;
  for (uint32_t level : reference::bfs(reference.csr, source))
    if (level != reference::kUnreached) deepest = std::max(deepest, level);
  return deepest;
}

}  // namespace

TEST_CASE("a BFS alone goes bottom-up on a symmetric graph, with the reference's levels, in every engine and mode") {
  const EngineKind engine = GENERATE(from_range(kEngines));
  TempDir dir;
  for (const bool weighted : {false, true}) {
    for (const bool symmetric : {true, false}) {
      EdgeSet set = graphso::testing::rmat_edges(12, 8, weighted, 71 + weighted, dir);
      if (symmetric) {
        EdgeTransforms symmetrize;
        symmetrize.symmetrize = true;
        apply_transforms(set, symmetrize);
      }
      const std::string graph = graphso::testing::prepare_graph(dir, set, 4, fmt::format("g{}{}", weighted, symmetric));
      const ReferenceGraph reference = make_reference_graph(set.vertices, set.edges);
      const auto [hub, leaf] = graphso::testing::hub_and_leaf(set);
      const std::vector<std::string> jobs = {fmt::format("bfs:source={}", hub), fmt::format("bfs:source={}", leaf)};
      for (Sharing mode : kModes) {
        INFO("engine " << engine_name(engine) << ", mode " << sharing_name(mode) << ", weighted " << weighted
                       << ", symmetric " << symmetric);
        const uint64_t mem = graphso::testing::budget_for(graph, jobs, 0.3, false, AsyncPolicy::Off);
        // Alone (grouping off), in rounds; in passes throughout (--async on); by default.
        auto rounds = graphso::testing::run_batch_on(graph, jobs, mode, mem, {.engine = engine, .async = AsyncPolicy::Off, .grouping = false});
        auto passes = graphso::testing::run_batch_on(graph, jobs, mode, mem, {.engine = engine, .async = AsyncPolicy::On, .grouping = false});
        auto automatic = graphso::testing::run_batch_on(graph, jobs, mode, mem, {.engine = engine, .grouping = false});
        check_against(rounds, reference, set.vertices);
        check_against(passes, reference, set.vertices);
        check_against(automatic, reference, set.vertices);
        REQUIRE(rounds.report.runnables.size() == 2);
        for (size_t j = 0; j < jobs.size(); ++j) {
          INFO(jobs[j]);
          const std::string levels = rounds.jobs[j]->format_results(OutFormat::Binary, rounds.order);
          REQUIRE(levels == passes.jobs[j]->format_results(OutFormat::Binary, passes.order));
          REQUIRE(levels == automatic.jobs[j]->format_results(OutFormat::Binary, automatic.order));
          const uint64_t bottom_up = count_of(rounds.report.runnables[j], "bottom_up_rounds");
          // Bottom-up only where out-edges are in-edges; from a hub the frontier is soon large.
          if (!symmetric) REQUIRE(bottom_up == 0);
          else if (j == 0) REQUIRE(bottom_up > 0);
          REQUIRE(bottom_up < rounds.report.runnables[j].rounds);
          REQUIRE(count_of(rounds.report.runnables[j], "pass_rounds") == 0);
          REQUIRE(count_of(passes.report.runnables[j], "bottom_up_rounds") == 0);
          REQUIRE(count_of(passes.report.runnables[j], "pass_rounds") == passes.report.runnables[j].rounds);
          // Level-synchronous either way: as many rounds as levels (the last finds none).
          REQUIRE(rounds.report.jobs[j].rounds == 1 + deepest_level(reference, j == 0 ? hub : leaf));
        }
        // By default, out of core (a budget of 0.3 of the graph, unless chunk mode's cache holds
        // a graph this small whole): passes from the start.
        if (!automatic.report.graph_resident)
          for (const RunnableOutcome& r : automatic.report.runnables) REQUIRE(count_of(r, "pass_rounds") == r.rounds);
        // With the whole graph in the cache (chunk mode, a budget above it): a symmetric graph's
        // BFS starts in rounds and goes bottom-up from the hub; a directed graph's runs in passes.
        if (mode == Sharing::Chunk) {
          const uint64_t above = graphso::testing::budget_for(graph, jobs, 8.0, false, AsyncPolicy::Auto);
          auto resident = graphso::testing::run_batch_on(graph, jobs, mode, above, {.engine = engine, .grouping = false});
          check_against(resident, reference, set.vertices);
          REQUIRE(resident.report.graph_resident);
          for (size_t j = 0; j < jobs.size(); ++j)
            REQUIRE(resident.jobs[j]->format_results(OutFormat::Binary, resident.order) ==
                    rounds.jobs[j]->format_results(OutFormat::Binary, rounds.order));
          const RunnableOutcome& hub_bfs = resident.report.runnables[0];
          if (symmetric) REQUIRE(count_of(hub_bfs, "bottom_up_rounds") > 0);
          else REQUIRE(count_of(hub_bfs, "pass_rounds") == hub_bfs.rounds);
        }
      }
    }
  }
}

TEST_CASE("a BFS alone on a resident lattice goes to passes once its frontier stops growing") {
  const EngineKind engine = GENERATE(from_range(kEngines));
  TempDir dir;
  const EdgeSet set = graphso::testing::street_lattice(8, 300);  // symmetric, about 300 levels
  const std::string graph = graphso::testing::prepare_graph(dir, set, 4, "lattice");
  const ReferenceGraph reference = make_reference_graph(set.vertices, set.edges);
  const std::vector<std::string> jobs = {"bfs:source=3"};
  for (Sharing mode : kModes) {
    INFO("engine " << engine_name(engine) << ", mode " << sharing_name(mode));
    // Chunk mode with the graph resident (a budget above it); the stock modes re-read it.
    const double fraction = mode == Sharing::Chunk ? 8.0 : 0.3;
    const uint64_t mem = graphso::testing::budget_for(graph, jobs, fraction, false, AsyncPolicy::Auto);
    auto automatic = graphso::testing::run_batch_on(graph, jobs, mode, mem, {.chunk_bytes = 4096, .engine = engine});
    auto rounds = graphso::testing::run_batch_on(graph, jobs, mode, mem, {.chunk_bytes = 4096, .engine = engine, .async = AsyncPolicy::Off});
    check_against(automatic, reference, set.vertices);
    check_against(rounds, reference, set.vertices);
    const RunnableOutcome& r = automatic.report.runnables.at(0);
    REQUIRE(automatic.report.graph_resident == (mode == Sharing::Chunk));
    if (mode != Sharing::Chunk) {
      REQUIRE(count_of(r, "pass_rounds") == r.rounds);
      continue;
    }
    // Chunk mode with the cache off (a graph this small fits any budget the run takes): passes
    // from the start, as in the stock modes.
    const uint64_t part = graphso::testing::budget_for(graph, jobs, 0.3, false, AsyncPolicy::Auto);
    auto out_of_core = graphso::testing::run_batch_on(graph, jobs, mode, part, {.chunk_bytes = 4096, .engine = engine, .cache_ratio = 0});
    check_against(out_of_core, reference, set.vertices);
    REQUIRE_FALSE(out_of_core.report.graph_resident);
    REQUIRE(count_of(out_of_core.report.runnables.at(0), "pass_rounds") == out_of_core.report.runnables.at(0).rounds);
    // (In rounds throughout, the rule fires in the tail, where the vertices left have fewer edges
    // than 15 times the frontier's; by default the BFS is in passes long before.)
    REQUIRE(count_of(r, "bottom_up_rounds") == 0);
    // A few rounds while it grows from the corner, then passes, which cross several levels each.
    const uint64_t pass_rounds = count_of(r, "pass_rounds");
    REQUIRE(pass_rounds > 0);
    REQUIRE(r.rounds - pass_rounds <= 8);
    REQUIRE(r.rounds < rounds.report.runnables.at(0).rounds);
    // The late join follows it from the pass it goes to (it may pass: its memory is counted).
    auto joined = graphso::testing::run_batch_on(graph, jobs, mode, mem, {.chunk_bytes = 4096, .engine = engine, .late_join = true});
    check_against(joined, reference, set.vertices);
    REQUIRE(count_of(joined.report.runnables.at(0), "pass_rounds") > 0);
  }
}
