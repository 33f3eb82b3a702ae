// The result checker `run --verify` and the tests share (integrations/result_check.h): it accepts
// every algorithm's correct results and refuses results computed on a slightly different graph,
// naming the first vertex that differs or the bound that was missed.
#include <catch2/catch.hpp>

#include "integrations/result_check.h"
#include "tests/test_graphs.h"

using namespace graphso;
using graphso::testing::TempDir;

TEST_CASE("result check: correct results pass, results of a changed graph are caught") {
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(9, 8, true, 3, dir);
  const std::string graph = graphso::testing::prepare_graph(dir, set);
  const VertexId source = set.edges[10].src;
  const std::vector<std::string> jobs = {"bfs:source=" + std::to_string(source), "sssp:source=" + std::to_string(source),
                                         "wcc", "pagerank:iterations=8", "pagerank-delta:tolerance=1e-5",
                                         "ppr:source=" + std::to_string(source), "kcore", "cdlp:iterations=4", "lcc"};
  auto batch = graphso::testing::run_batch_on(graph, jobs, Sharing::Chunk, 1 << 20);
  const VertexOrder natural = VertexOrder::natural(set.vertices);
  const ReferenceGraph same = make_reference_graph(set.vertices, set.edges);
  // The graph as read back from its directory is the one that went in.
  const ReferenceGraph loaded = load_reference_graph(GridGraph::open(graph));
  REQUIRE(loaded.edges.size() == set.edges.size());
  for (size_t j = 0; j < jobs.size(); ++j) {
    INFO(jobs[j]);
    for (const ReferenceGraph* g : {&same, &loaded}) {
      const ResultCheck ok = check_result(batch.specs[j], *batch.jobs[j], *g, natural);
      INFO(ok.detail);
      REQUIRE(ok.ok);
    }
  }
  // The same results against the graph without the source's out-edges and without every edge of
  // another vertex (isolated now): every job sees a different graph.
  std::vector<WeightedEdge> changed;
  VertexId other = source;
  for (const WeightedEdge& e : set.edges)
    if (e.src != source && e.dst != source) other = e.src;
  for (const WeightedEdge& e : set.edges)
    if (e.src != source && e.src != other && e.dst != other) changed.push_back(e);
  const ReferenceGraph different = make_reference_graph(set.vertices, changed);
  for (size_t j = 0; j < jobs.size(); ++j) {
    INFO(jobs[j]);
    const ResultCheck wrong = check_result(batch.specs[j], *batch.jobs[j], different, natural);
    INFO(wrong.detail);
    REQUIRE_FALSE(wrong.ok);
    const bool exact = batch.specs[j].algo == "bfs" || batch.specs[j].algo == "sssp" || batch.specs[j].algo == "wcc" ||
                       batch.specs[j].algo == "kcore" || batch.specs[j].algo == "cdlp" || batch.specs[j].algo == "lcc";
    if (exact) REQUIRE_THAT(wrong.detail, Catch::Contains("differ from the reference; the first is vertex"));
  }
  REQUIRE_FALSE(has_reference("dfs"));
}
