// The R-MAT generator: deterministic bytes, the declared sizes, skewed degrees, scrambled ids.
#include <catch2/catch.hpp>

#include <algorithm>

#include "datasets/edge_input.h"
#include "datasets/rmat.h"
#include "base/file.h"
#include "tests/test_graphs.h"

using namespace graphso;
using graphso::testing::TempDir;

TEST_CASE("R-MAT: same seed gives the same bytes, another seed other bytes") {
  TempDir dir;
  RmatOptions o;
  o.scale = 12;
  o.edge_factor = 8;
  o.weighted = true;
  o.seed = 42;
  generate_rmat(o, dir.file("a.bin"));
  generate_rmat(o, dir.file("b.bin"));
  o.seed = 43;
  generate_rmat(o, dir.file("c.bin"));
  std::string a = read_small_file(dir.file("a.bin"));
  REQUIRE(a == read_small_file(dir.file("b.bin")));
  REQUIRE(a != read_small_file(dir.file("c.bin")));
}

TEST_CASE("R-MAT: sizes, weight range, skewed and scrambled degrees") {
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(14, 16, true, 7, dir);
  const uint64_t n = 1u << 14;
  REQUIRE(set.vertices == n);
  REQUIRE(set.edges.size() == 16 * n);
  std::vector<uint64_t> degree(n, 0);
  for (const auto& e : set.edges) {
    REQUIRE(e.src < n);
    REQUIRE(e.dst < n);
    REQUIRE(e.weight >= 1);
    REQUIRE(e.weight <= 50);
    ++degree[e.src];
  }
  uint64_t max_degree = *std::max_element(degree.begin(), degree.end());
  REQUIRE(max_degree > 20 * 16);  // a power-law hub, far above the average of 16
  // Without scrambling, R-MAT's hubs are the smallest ids; with it, the 16 largest-degree
  // vertices are spread over the id space.
  std::vector<uint64_t> ids(n);
  for (uint64_t v = 0; v < n; ++v) ids[v] = v;
  std::partial_sort(ids.begin(), ids.begin() + 16, ids.end(), [&](uint64_t a, uint64_t b) { return degree[a] > degree[b]; });
  uint64_t in_low_eighth = std::count_if(ids.begin(), ids.begin() + 16, [&](uint64_t v) { return v < n / 8; });
  REQUIRE(in_low_eighth < 12);
}
