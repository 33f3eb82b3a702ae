// EdgeProcessor's check of each run: what it range-checks and what it counts as active, by what
// the loader says of the run (EdgeRun::checked, EdgeRun::counted_active).
#include <catch2/catch.hpp>

#include <atomic>

#include "base/error.h"
#include "engine/edge_processor.h"

using namespace graphso;

namespace {

// One partition: sources [0, 64), destinations [0, 64).
struct OnePartition {
  OnePartition() {
    layout.name = "test";
    layout.files = {"none"};
    layout.partitions = {StaticPartition{0, 0, 0, 0, 64, 0, 64}};
    layout.vertices = 128;
  }
  EngineLayout layout;
};

struct Outcome {
  uint64_t active = 0;
  uint64_t handed = 0;  // edges the action saw
};

Outcome process(const EngineLayout& layout, const EdgeRun& run, int threads) {
  std::atomic<uint64_t> handed{0};
  EdgeProcessor processor(layout, threads, [&](uint32_t, const EdgeRun& r) { handed += r.count; },
                          [](const EdgeRun&) { return std::string("run"); });
  processor.process(std::span(&run, 1));
  return {processor.counters().active_edges_loaded, handed.load()};
}

}  // namespace

TEST_CASE("EdgeProcessor range-checks every run not marked checked, and counts active edges the loader did not") {
  OnePartition p;
  std::vector<Edge> edges;
  for (VertexId s = 0; s < 64; ++s)
    for (VertexId d = 0; d < 3; ++d) edges.push_back({s, (s + d) % 64});
  Bitmap frontier(128);
  for (VertexId s = 0; s < 64; s += 4) frontier.set(s);  // 16 sources, 48 edges
  const uint32_t job = 0;
  EdgeRun run;
  run.data = reinterpret_cast<const std::byte*>(edges.data());
  run.count = edges.size();
  run.jobs = std::span(&job, 1);
  run.accounting = {&frontier, nullptr};
  const int threads = GENERATE(1, 2);

  SECTION("uncounted: the engine counts against the accounting frontier") {
    Outcome o = process(p.layout, run, threads);
    REQUIRE(o.active == 48);
    REQUIRE(o.handed == edges.size());
  }
  SECTION("counted by the loader: that count is reported, not recounted") {
    run.counted_active = 7;
    REQUIRE(process(p.layout, run, threads).active == 7);
  }
  SECTION("a counted run's pieces carry its count once") {
    run.counted_active = 7;
    REQUIRE(run.piece(0, 10).counted_active == 7);
    REQUIRE(run.piece(10, 10).counted_active == 0);
    run.counted_active = EdgeRun::kUncounted;
    REQUIRE(run.piece(10, 10).counted_active == EdgeRun::kUncounted);
  }
  edges[100].dst = 90;  // outside the partition's destinations
  SECTION("a misplaced edge stops an unchecked run, counted or not") {
    REQUIRE_THROWS_WITH(process(p.layout, run, threads), Catch::Contains("holds 1 edges outside its vertex ranges"));
    run.counted_active = 7;
    REQUIRE_THROWS_WITH(process(p.layout, run, threads), Catch::Contains("holds 1 edges outside its vertex ranges"));
  }
  SECTION("a run checked before (served from the chunk cache) with a known count is not read again") {
    run.checked = true;
    run.counted_active = 7;
    Outcome o = process(p.layout, run, threads);
    REQUIRE(o.active == 7);
    REQUIRE(o.handed == edges.size());
    // Without a count the engine must read it, and so checks it too.
    run.counted_active = EdgeRun::kUncounted;
    REQUIRE_THROWS_WITH(process(p.layout, run, threads), Catch::Contains("outside its vertex ranges"));
  }
}
