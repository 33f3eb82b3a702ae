// Union-find WCC's last step: every vertex pointed at its root on several threads at once, while
// their walks to the roots share the same chains.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "jobs/wcc.h"

using namespace graphso;

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
