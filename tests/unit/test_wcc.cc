// Union-find WCC's last step: every vertex pointed at its root on several threads at once, while
// their walks to the roots share the same chains. And by sampling (Afforest) on a resident
// symmetric graph: components joined only by edges the sample passed over come out whole.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <string>
#include <vector>

#include "jobs/wcc.h"
#include "tests/test_graphs.h"

using namespace graphso;
using graphso::testing::kEngines;
using graphso::testing::TempDir;

TEST_CASE("union-find WCC: pointing every vertex at its root on two threads leaves no vertex short of it") {
  // One chain n-1 -> n-2 -> ... -> 0, built by uniting (k, k+1) from the top down: each union
  // links a root under the next, so every walk to the root 0 is long and the threads' walks
  // cross each other's vertices. A walk that shortens a path as it goes (path halving) must not
  // write an ancestor short of the root over a vertex another thread already pointed at it.
  const uint32_t n = 1 << 20;
  std::vector<Edge> edges;
  for (uint32_t k = n - 1; k-- > 0;) edges.push_back({k, k + 1});
  for (int attempt = 0; attempt < 4; ++attempt) {
    INFO("attempt " << attempt);
    WccUnionFindJob job("wcc");
    std::vector<uint32_t> degrees(n, 1);
    degrees[n - 1] = 0;
    job.init(GraphInfo{n, false, false, &degrees}, 2);
    for (const Edge& e : edges) {  // one edge a run, in the order above
      EdgeRun run;
      run.data = reinterpret_cast<const std::byte*>(&e);
      run.count = 1;
      job.process(run);
    }
    job.end_round();
    const std::string text = job.format_results(OutFormat::Binary, VertexOrder());
    REQUIRE(text.size() == uint64_t{n} * sizeof(uint32_t));
    const auto* labels = reinterpret_cast<const uint32_t*>(text.data());
    uint64_t wrong = 0;
    for (uint32_t v = 0; v < n; ++v) wrong += labels[v] != 0;
    REQUIRE(wrong == 0);
  }
}

namespace {

uint64_t sampled_vertices(const graphso::testing::Batch& batch) {
  for (const auto& [name, value] : batch.report.runnables.at(0).counts)
    if (name == "sampled_component_vertices") return value;
  FAIL("no count sampled_component_vertices");
  return 0;
}

// 5,000 vertices: a ladder 100..3999 (each vertex joined to the next two: the largest component,
// whose first two neighbours the sample unites), and gadgets whose joining edge is the third
// neighbour of both its ends, which the sample passes over:
//   10, 11, 4300: a triangle, and 4300 - 1500 into the ladder (10 and 11 come first in 4300's)
//   4100, 4101, 4103 and 4098, 4099, 4200: two triangles, joined by 4103 - 4200 (GridGraph
//   cuts a source's edges by destination range, and those four ends lie in one)
// Vertices 4500 on have no edges. Symmetric unless `one_way`.
EdgeSet gadget_graph(bool one_way) {
  EdgeSet set;
  set.vertices = 5000;
  auto edge = [&](VertexId a, VertexId b) {
    set.edges.push_back({a, b, 1});
    if (!one_way) set.edges.push_back({b, a, 1});
  };
  for (VertexId v = 100; v < 4000; ++v) {
    if (v + 1 < 4000) edge(v, v + 1);
    if (v + 2 < 4000) edge(v, v + 2);
  }
  edge(10, 11), edge(10, 4300), edge(11, 4300), edge(4300, 1500);
  edge(4100, 4101), edge(4100, 4103), edge(4101, 4103);
  edge(4098, 4099), edge(4098, 4200), edge(4099, 4200), edge(4103, 4200);
  return set;
}

}  // namespace

TEST_CASE("union-find WCC by sampling on a resident symmetric graph: the reference's components, in both engines") {
  const EngineKind engine = GENERATE(from_range(kEngines));
  TempDir dir;
  for (const bool one_way : {false, true}) {
    INFO("engine " << engine_name(engine) << ", one way " << one_way);
    const EdgeSet set = gadget_graph(one_way);
    const std::string graph = graphso::testing::prepare_graph(dir, set, 4, fmt::format("gadgets{}", one_way));
    const std::vector<std::string> jobs = {"wcc"};
    const uint64_t above = graphso::testing::budget_for(graph, jobs, 8.0);
    auto resident = graphso::testing::run_batch_on(graph, jobs, Sharing::Chunk, above, {.chunk_bytes = 4096, .engine = engine});
    REQUIRE(resident.report.graph_resident);
    graphso::testing::check_against_reference(resident.specs[0], *resident.jobs[0], set, &resident.order);
    const std::string labels = resident.jobs[0]->format_results(OutFormat::Binary, resident.order);
    if (one_way) {
      // Out-edges are not all edges: no sampling.
      REQUIRE(sampled_vertices(resident) == 0);
      REQUIRE(resident.report.runnables.at(0).rounds == 1);
    } else {
      // The ladder was elected and its edges passed over (with 10, 11 and 4300 too when a
      // GridGraph block holds 1500's edge to 4300 alone); a second round joined the gadgets.
      const uint64_t sampled = sampled_vertices(resident);
      REQUIRE(sampled >= 3900);
      REQUIRE(sampled <= 3903);
      if (engine == EngineKind::XStream) REQUIRE(sampled == 3900);
      REQUIRE(resident.report.runnables.at(0).rounds == 2);
      const auto* label = reinterpret_cast<const uint32_t*>(labels.data());
      REQUIRE(label[4300] == 10);
      REQUIRE(label[1500] == 10);
      REQUIRE(label[4103] == 4098);
      REQUIRE(label[4200] == 4098);
      REQUIRE(label[4999] == 4999);
    }
    // Out of core (no cache) and in the stock modes: one round over every edge, the same labels.
    const uint64_t part = graphso::testing::budget_for(graph, jobs, 0.3);
    for (Sharing mode : {Sharing::Independent, Sharing::Partition, Sharing::Chunk}) {
      auto whole = graphso::testing::run_batch_on(graph, jobs, mode, part, {.chunk_bytes = 4096, .engine = engine, .cache_ratio = 0});
      REQUIRE_FALSE(whole.report.graph_resident);
      REQUIRE(sampled_vertices(whole) == 0);
      REQUIRE(whole.jobs[0]->format_results(OutFormat::Binary, whole.order) == labels);
    }
  }
}
