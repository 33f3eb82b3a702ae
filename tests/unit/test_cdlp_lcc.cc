// CDLP and LCC (jobs/cdlp.h, jobs/lcc.h): vertex ranges that fit their buffer, runs cut anywhere
// (an edge's copies split between runs count once for LCC), self-loops, isolated vertices, and
// ties broken on the user's ids whatever the vertex order; each against the reference.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <numeric>

#include "jobs/registry.h"
#include "jobs/vertex_ranges.h"
#include "reference/reference.h"
#include "tests/test_graphs.h"

using namespace graphso;

namespace {

// The edges sorted by (source, destination), as prep stores them, handed in runs of `cut`
// edges (the last shorter), each round, on one thread.
uint32_t run_in_pieces(Job& job, std::vector<WeightedEdge> edges, uint64_t cut) {
  std::sort(edges.begin(), edges.end(), [](const WeightedEdge& a, const WeightedEdge& b) {
    return a.src != b.src ? a.src < b.src : a.dst < b.dst;
  });
  while (!job.finished()) {
    for (uint64_t first = 0; first < edges.size(); first += cut) {
      EdgeRun run;
      run.data = reinterpret_cast<const std::byte*>(edges.data() + first);
      run.count = std::min<uint64_t>(cut, edges.size() - first);
      run.weighted = true;
      job.process(run);
    }
    job.end_round();
  }
  return job.rounds();
}

std::unique_ptr<Job> started(const std::string& arg, const EdgeSet& set, const std::vector<uint32_t>& degrees,
                             bool symmetric, const VertexOrder* order = nullptr) {
  std::unique_ptr<Job> job = make_job(parse_job_argument(arg, 0), set.vertices);
  GraphInfo info{set.vertices, true, symmetric, &degrees};
  info.order = order;
  job->init(info, 2);
  return job;
}

std::vector<uint32_t> out_degrees(const EdgeSet& set) {
  std::vector<uint32_t> d(set.vertices, 0);
  for (const WeightedEdge& e : set.edges) ++d[e.src];
  return d;
}

template <typename T>
std::vector<T> values(const Job& job, const VertexOrder& order) {
  std::vector<T> out(order.vertices());
  std::string bytes = job.format_results(OutFormat::Binary, order);
  REQUIRE(bytes.size() == out.size() * sizeof(T));
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

}  // namespace

TEST_CASE("vertex ranges: contiguous, within the buffer, and a vertex above it is an error naming the parameter") {
  const std::vector<uint64_t> counts = {3, 0, 5, 2, 2, 6, 1, 0, 0, 4};
  auto count = [&](VertexId v) { return counts[v]; };
  const std::vector<VertexRange> ranges = plan_ranges(counts.size(), count, 6, "x:slots");
  REQUIRE(ranges.front().begin == 0);
  REQUIRE(ranges.back().end == counts.size());
  for (size_t r = 0; r < ranges.size(); ++r) {
    if (r) REQUIRE(ranges[r].begin == ranges[r - 1].end);
    uint64_t held = 0;
    for (VertexId v = ranges[r].begin; v < ranges[r].end; ++v) held += counts[v];
    REQUIRE(held <= 6);
    // Greedy: the next range's first vertex would not have fitted.
    if (r + 1 < ranges.size()) REQUIRE(held + counts[ranges[r + 1].begin] > 6);
  }
  REQUIRE_THAT(graphso::testing::error_of([&] { plan_ranges(counts.size(), count, 5, "x:slots"); }),
               Catch::Contains("a vertex has 6 incident edges, more than the 5 values the job holds at once; raise x:slots"));
  Bitmap bits(200);
  set_range(bits, {3, 131});
  REQUIRE(bits.count() == 128);
  REQUIRE(bits.count_in(3, 131) == 128);
}

TEST_CASE("LCC: copies of an edge count once wherever runs are cut; self-loops never") {
  graphso::testing::TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(8, 8, true, 5, dir);  // R-MAT repeats edges
  // Many copies of a few edges in a row, and self-loops.
  for (int copy = 0; copy < 9; ++copy) set.edges.push_back({1, 2, 1}), set.edges.push_back({2, 3, 1});
  set.edges.push_back({3, 1, 1});
  set.edges.push_back({4, 4, 1});
  set.edges.push_back({4, 4, 1});
  // The same graph stored both ways: a symmetric graph's triangles are counted once, from their
  // lowest corner, and add to all three (copies cut apart still count once).
  EdgeSet both = set;
  for (const WeightedEdge& e : set.edges) both.edges.push_back({e.dst, e.src, e.weight});
  const VertexOrder natural = VertexOrder::natural(set.vertices);
  for (bool symmetric : {false, true}) {
    const EdgeSet& graph = symmetric ? both : set;
    const std::vector<double> want = reference::lcc(graph.vertices, graph.edges);
    REQUIRE(std::count_if(want.begin(), want.end(), [](double c) { return c > 0; }) > 20);
    const std::vector<uint32_t> degrees = out_degrees(graph);
    for (uint64_t cut : {1, 2, 3, 7, 1000000}) {
      for (const char* arg : {"lcc", "lcc:slots=2"}) {
        INFO(arg << " in runs of " << cut << (symmetric ? ", symmetric" : ", directed"));
        std::unique_ptr<Job> job = started(arg, graph, degrees, symmetric);
        run_in_pieces(*job, graph.edges, cut);
        REQUIRE(values<double>(*job, natural) == want);
      }
    }
  }
}

TEST_CASE("LCC by hand on a symmetric graph: a triangle adds to its three corners, in whichever range") {
  // Triangles {0, 1, 2} and {0, 2, 3}, a tail 3-4, stored both ways. Degrees: 0: 3, 1: 2, 2: 3,
  // 3: 3, 4: 1. Edges among N(v): N(0) = {1, 2, 3}: 1-2, 2-3 -> 4 / 6; N(1) = {0, 2}: 2 / 2;
  // N(2) = {0, 1, 3}: 0-1, 0-3 -> 4 / 6; N(3) = {0, 2, 4}: 0-2 -> 2 / 6; N(4) = {3}: 0.
  EdgeSet set;
  set.vertices = 5;
  set.weighted = true;
  for (auto [a, b] : std::vector<std::pair<VertexId, VertexId>>{{0, 1}, {1, 2}, {0, 2}, {2, 3}, {0, 3}, {3, 4}})
    set.edges.push_back({a, b, 1}), set.edges.push_back({b, a, 1});
  const std::vector<uint32_t> degrees = out_degrees(set);
  const std::vector<double> want = {4.0 / 6, 1.0, 4.0 / 6, 2.0 / 6, 0.0};
  REQUIRE(reference::lcc(set.vertices, set.edges) == want);
  for (const char* arg : {"lcc", "lcc:slots=2"}) {  // slots=2: ranges {0, 1, 2} and {3, 4}
    for (uint64_t cut : {1, 5, 100}) {
      INFO(arg << " in runs of " << cut);
      std::unique_ptr<Job> job = started(arg, set, degrees, true);
      run_in_pieces(*job, set.edges, cut);
      REQUIRE(values<double>(*job, VertexOrder::natural(5)) == want);
    }
  }
}

TEST_CASE("LCC by hand: neighbours either way, edges among them counted by direction") {
  // 0->1, 1->2, 2->0, 0->2; 3 isolated; 4 has only a self-loop. N(0) = {1, 2}, among them 1->2:
  // 1/2. N(1) = {0, 2}, among them 2->0 and 0->2: 2/2. N(2) = {0, 1}, among them 0->1: 1/2.
  EdgeSet set;
  set.vertices = 5;
  set.weighted = true;
  set.edges = {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}, {0, 2, 1}, {4, 4, 1}, {1, 2, 1}};
  const std::vector<uint32_t> degrees = out_degrees(set);
  for (uint64_t cut : {1, 4, 100}) {
    std::unique_ptr<Job> job = started("lcc:slots=2", set, degrees, false);
    run_in_pieces(*job, set.edges, cut);
    REQUIRE(values<double>(*job, VertexOrder::natural(5)) == std::vector<double>{0.5, 1.0, 0.5, 0.0, 0.0});
  }
}

TEST_CASE("CDLP: a tie goes to the smallest user id, whatever the vertex order; the reference agrees") {
  // Undirected, in original ids: 5-1, 5-2, 3-4; 0 isolated. After one iteration 5 has 1 and 2
  // once each and takes 1; 1 and 2 take 5; 3 and 4 swap; 0 keeps its own.
  const std::vector<uint32_t> want = {0, 5, 5, 4, 3, 1};
  EdgeSet original;
  original.vertices = 6;
  original.weighted = true;
  for (auto [u, v] : std::vector<std::pair<VertexId, VertexId>>{{5, 1}, {5, 2}, {3, 4}})
    original.edges.push_back({u, v, 1}), original.edges.push_back({v, u, 1});
  REQUIRE(reference::cdlp(6, original.edges, 1) == want);
  // Relabelled so that 1's new id is above 2's: a job comparing new ids would give 5 the label 2.
  std::vector<VertexId> new_of_old = {5, 4, 3, 2, 1, 0};
  const VertexOrder reversed = VertexOrder::from_new_ids(OrderKind::Degree, new_of_old);
  EdgeSet relabelled = original;
  for (WeightedEdge& e : relabelled.edges) e = {new_of_old[e.src], new_of_old[e.dst], 1};
  const std::vector<uint32_t> degrees = out_degrees(relabelled);
  for (bool symmetric : {true, false}) {
    INFO("symmetric " << symmetric);
    std::unique_ptr<Job> job = started("cdlp:iterations=1:slots=2", relabelled, degrees, symmetric, &reversed);
    REQUIRE(run_in_pieces(*job, relabelled.edges, 3) == (symmetric ? 1u : 2u));  // one range (after a count round)
    REQUIRE(values<uint32_t>(*job, reversed) == want);
  }
  // More iterations, directed R-MAT with repeated edges and self-loops, in pieces, both buffers.
  graphso::testing::TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(8, 8, true, 9, dir);
  set.edges.push_back({7, 7, 1});
  const std::vector<uint32_t> d = out_degrees(set);
  for (const char* arg : {"cdlp:iterations=6", "cdlp:iterations=6:slots=2"}) {
    INFO(arg);
    std::unique_ptr<Job> job = started(arg, set, d, false);
    run_in_pieces(*job, set.edges, 5);
    REQUIRE(values<uint32_t>(*job, VertexOrder::natural(set.vertices)) == reference::cdlp(set.vertices, set.edges, 6));
  }
}
