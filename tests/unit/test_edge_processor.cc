// EdgeProcessor's check of each run: what it range-checks and what it counts as active, by what
// the loader says of the run (EdgeRun::checked, EdgeRun::counted_active). Packed runs: each thread
// decodes its pieces a few pages at a time into a buffer of its own and hands every edge to every
// job of the run exactly once, however small that buffer; the run is counted once, the loader's
// active count once; a malformed page is the one-line "page K ... malformed" error. Pages whose
// sources no job of the run may push (SourceFilter) are passed over, still counted as loaded.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstring>
#include <functional>
#include <iterator>
#include <mutex>
#include <random>
#include <tuple>
#include <vector>

#include "base/error.h"
#include "base/packed_pages.h"
#include "base/run_edges.h"
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

// A side x side grid over vertices [0, 64): block b is (b / side, b % side), its edges those
// edges_of(b, first source, first destination) gives, each block one run of job 0.
struct GridLoad {
  GridLoad(uint32_t side, const std::function<std::vector<Edge>(uint32_t, VertexId, VertexId)>& edges_of)
      : blocks(side * side), runs(side * side) {
    layout.name = "test";
    layout.files = {"none"};
    layout.vertices = 64;
    const VertexId width = 64 / side;
    for (uint32_t b = 0; b < side * side; ++b) {
      const VertexId src = b / side * width, dst = b % side * width;
      layout.partitions.push_back(StaticPartition{0, 0, side, src, src + width, dst, dst + width});
      blocks[b] = edges_of(b, src, dst);
      runs[b].data = reinterpret_cast<const std::byte*>(blocks[b].data());
      runs[b].count = blocks[b].size();
      runs[b].partition = b;
      runs[b].jobs = std::span(kJobs);
    }
  }
  static constexpr uint32_t kJobs[] = {0};
  EngineLayout layout;
  std::vector<std::vector<Edge>> blocks;
  std::vector<EdgeRun> runs;
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

TEST_CASE("EdgeProcessor on one thread hands a load's runs one destination range after another") {
  // A 2 x 2 grid read in row order: blocks (0,0), (0,1), (1,0), (1,1), destination ranges [0, 32)
  // and [32, 64). One thread walks column 0's blocks, then column 1's, as GridGraph's column order
  // does, so one range's values stay in the cache while its blocks go by.
  GridLoad load(2, [](uint32_t, VertexId src, VertexId dst) { return std::vector<Edge>{{src, dst}, {src + 1, dst + 1}}; });
  std::vector<uint32_t> order;
  bool owned = true;
  EdgeProcessor processor(load.layout, 1, [&](uint32_t, const EdgeRun& r) {
    order.push_back(r.partition);
    owned = owned && r.owns_destinations;
  }, [](const EdgeRun&) { return std::string("run"); });
  processor.process(load.runs);
  REQUIRE(order == std::vector<uint32_t>{0, 2, 1, 3});
  REQUIRE(owned);
}

TEST_CASE("EdgeProcessor on two threads owns every destination range but one holding more than 1.5 threads' shares") {
  // A 4 x 4 grid whose column 0 (the hubs' destinations) holds most edges, as on a power-law graph
  // in degree order: its runs are cut into pieces handed without ownership (atomic updates), every
  // other column is one owned item. A column of 60% (over one thread's share, under 1.5) stays one
  // owned item: one thread takes it alone. Nothing is handed twice or left out.
  for (const uint32_t hub_block_edges : {20000u, 450u}) {
    INFO("column 0's blocks hold " << hub_block_edges << " edges each, the others 100");
    GridLoad load(4, [&](uint32_t b, VertexId src, VertexId dst) {
      std::vector<Edge> edges;
      for (uint32_t e = 0; e < (b % 4 == 0 ? hub_block_edges : 100u); ++e) edges.push_back({src + e % 16, dst + e * 7 % 16});
      return edges;
    });
    std::mutex mutex;
    std::vector<uint64_t> handed(16, 0), owned(16, 0);
    EdgeProcessor processor(load.layout, 2, [&](uint32_t, const EdgeRun& r) {
      std::lock_guard lock(mutex);
      handed[r.partition] += r.count;
      if (r.owns_destinations) owned[r.partition] += r.count;
    }, [](const EdgeRun&) { return std::string("run"); });
    processor.process(load.runs);
    const bool cut = hub_block_edges == 20000;
    for (uint32_t b = 0; b < 16; ++b) {
      INFO("block " << b);
      REQUIRE(handed[b] == load.blocks[b].size());
      REQUIRE(owned[b] == (b % 4 == 0 && cut ? 0 : load.blocks[b].size()));
    }
  }
}

TEST_CASE("EdgeProcessor gives decoded runs of any size to the threads owning their destinations, never slices them") {
  // Two columns of a 2 x 2 grid over [0, 64), each block a decoded run (the chunk cache's groups)
  // of 150,000 edges, more than a run the engine hands every thread a slice of: each column is
  // one owned item, as a packed run's or a small run's would be, so every edge is handed owned.
  constexpr uint32_t kBlockEdges = 150000;
  EngineLayout layout;
  layout.name = "test";
  layout.files = {"none"};
  layout.vertices = 64;
  std::vector<DecodedGroups> decoded(4);
  std::vector<EdgeRun> runs(4);
  static constexpr uint32_t kJob[] = {0};
  for (uint32_t b = 0; b < 4; ++b) {
    const VertexId src = b / 2 * 32, dst = b % 2 * 32;
    layout.partitions.push_back(StaticPartition{0, 0, 2, src, src + 32, dst, dst + 32});
    std::vector<Edge> edges;
    for (uint32_t e = 0; e < kBlockEdges; ++e) edges.push_back({src + e * 32 / kBlockEdges, dst + e * 7 % 32});
    std::sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) { return std::tie(x.src, x.dst) < std::tie(y.src, y.dst); });
    std::vector<std::byte> pages;
    PackedPageWriter writer(false, pages);
    for (const Edge& e : edges) writer.add({e.src, e.dst, 1});
    writer.finish();
    PackedPageProblem problem;
    REQUIRE(decode_packed_groups(pages, false, decoded[b], &problem) == kBlockEdges);
    runs[b].count = kBlockEdges;
    runs[b].partition = b;
    runs[b].jobs = std::span(kJob);
    runs[b].groups = decoded[b].view();
  }
  std::mutex mutex;
  uint64_t handed = 0, owned = 0;
  EdgeProcessor processor(layout, 2, [&](uint32_t, const EdgeRun& r) {
    std::lock_guard lock(mutex);
    handed += r.count;
    if (r.owns_destinations) owned += r.count;
  }, [](const EdgeRun&) { return std::string("run"); });
  processor.process(runs);
  REQUIRE(handed == 4 * kBlockEdges);
  REQUIRE(owned == handed);
}

namespace {  // packed runs

struct Received {
  std::mutex mutex;
  std::vector<std::vector<WeightedEdge>> per_job;  // every record handed, per job
  uint64_t largest_run = 0;
  bool wrong_form = false;  // a run handed as pages or records, or whose groups do not hold its count
};

bool before(const WeightedEdge& a, const WeightedEdge& b) {
  return std::tie(a.src, a.dst, a.weight) < std::tie(b.src, b.dst, b.weight);
}

// 60,000 random weighted edges over 5,000 vertices, sorted, written as packed pages, and one
// partition holding them all.
struct RandomPackedPartition {
  static constexpr uint32_t kVertices = 5000;
  RandomPackedPartition(uint32_t seed, uint32_t max_weight) : edges(60000) {
    std::mt19937 rng(seed);
    for (auto& e : edges) e = {static_cast<VertexId>(rng() % kVertices), static_cast<VertexId>(rng() % kVertices), static_cast<Weight>(1 + rng() % max_weight)};
    std::sort(edges.begin(), edges.end(), before);
    PackedPageWriter writer(true, pages);
    for (const auto& e : edges) writer.add(e);
    writer.finish();
    page_count = writer.pages();
    layout.weighted = true;
    layout.encoding = EdgeEncoding::Packed;
    layout.vertices = kVertices;
    layout.edges = edges.size();
    layout.partitions.push_back({0, 0, edges.size(), 0, kVertices, 0, kVertices, pages.size()});
  }
  // The whole partition as one packed run for `jobs`.
  EdgeRun run(std::span<const uint32_t> jobs) const {
    EdgeRun r;
    r.data = pages.data();
    r.count = edges.size();
    r.weighted = true;
    r.jobs = jobs;
    r.packed = true;
    r.packed_bytes = pages.size();
    return r;
  }
  std::vector<WeightedEdge> edges;
  std::vector<std::byte> pages;
  uint64_t page_count = 0;
  EngineLayout layout;
};

}  // namespace

TEST_CASE("EdgeProcessor hands packed runs to every job edge for edge, whatever the decode buffer and threads") {
  RandomPackedPartition graph(5, 300);
  const std::vector<WeightedEdge>& edges = graph.edges;
  const EngineLayout& layout = graph.layout;
  REQUIRE(graph.page_count > 20);

  const std::vector<uint32_t> jobs{0, 1};
  EdgeRun run = graph.run(jobs);
  run.counted_active = 12345;  // the loader's count: taken once, not once per decoded slice

  for (int threads : {1, 2})
    for (uint64_t decode_bytes : {uint64_t{1}, uint64_t{40} << 10, uint64_t{8} << 20}) {
      INFO(threads << " threads, decode buffer " << decode_bytes);
      Received got;
      got.per_job.resize(jobs.size());
      EdgeAction action = [&](uint32_t job, const EdgeRun& r) {
        std::lock_guard lock(got.mutex);
        uint64_t handed = 0;
        for_each_edge(r, [&](VertexId src, VertexId dst, Weight w) {
          got.per_job[job].push_back({src, dst, w});
          ++handed;
        });
        got.largest_run = std::max(got.largest_run, r.count);
        got.wrong_form |= r.packed || !r.grouped() || handed != r.count;  // Catch: not from other threads
      };
      EdgeProcessor processor(layout, threads, action, [](const EdgeRun&) { return std::string("test run"); },
                              decode_bytes);
      processor.process(std::span<const EdgeRun>(&run, 1));
      CHECK_FALSE(got.wrong_form);
      for (auto& job_edges : got.per_job) {
        std::sort(job_edges.begin(), job_edges.end(), before);
        CHECK(job_edges.size() == edges.size());
        CHECK(std::equal(job_edges.begin(), job_edges.end(), edges.begin(), edges.end(),
                         [](const WeightedEdge& a, const WeightedEdge& b) { return !before(a, b) && !before(b, a); }));
      }
      const EngineCounters& c = processor.counters();
      CHECK(c.runs == 1);
      CHECK(c.edges_loaded == edges.size());
      CHECK(c.edges_decoded == edges.size());
      CHECK(c.edges_processed == 2 * edges.size());
      CHECK(c.active_edges_loaded == 12345);
      // At most a buffer's worth of edges (one page more) reaches a job at once, per thread.
      const uint64_t edge_most = EdgeProcessor::decoded_edge_bytes(true);
      const uint64_t page_most = 4 * kPackedPageBytes * edge_most;
      CHECK(got.largest_run * edge_most <= std::max(decode_bytes, edge_most) + page_most);
      CHECK(processor.decode_buffer_bytes() <= static_cast<uint64_t>(threads) * (decode_bytes + page_most));
      CHECK(processor.decode_buffer_bytes() > 0);
    }
}

TEST_CASE("EdgeProcessor range-checks packed runs by each source's destination bounds, and counts their active edges") {
  // The same edges as the records case above: 64 sources of 3 edges, 16 sources active.
  auto run_of = [](const std::vector<Edge>& edges, std::vector<std::byte>& pages, const uint32_t& job,
                   const Bitmap& frontier) {
    pages.clear();
    PackedPageWriter writer(false, pages);
    for (const Edge& e : edges) writer.add({e.src, e.dst, 1});
    writer.finish();
    EdgeRun run;
    run.data = pages.data();
    run.count = edges.size();
    run.jobs = std::span(&job, 1);
    run.accounting = {&frontier, nullptr};
    run.packed = true;
    run.packed_bytes = pages.size();
    return run;
  };
  OnePartition p;
  p.layout.encoding = EdgeEncoding::Packed;
  std::vector<Edge> edges;
  for (VertexId s = 0; s < 64; ++s)
    for (VertexId d = 0; d < 3; ++d) edges.push_back({s, (s + d) % 64});
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return std::tie(a.src, a.dst) < std::tie(b.src, b.dst); });
  Bitmap frontier(128);
  for (VertexId s = 0; s < 64; s += 4) frontier.set(s);
  const uint32_t job = 0;
  std::vector<std::byte> pages;
  const int threads = GENERATE(1, 2);

  Outcome o = process(p.layout, run_of(edges, pages, job, frontier), threads);
  REQUIRE(o.active == 48);
  REQUIRE(o.handed == edges.size());
  // A source's last destination outside (its first inside), and a middle one: each is found.
  for (size_t at : {size_t{101}, size_t{100}}) {
    INFO("edge " << at);
    std::vector<Edge> bad = edges;
    bad[at].dst = 90;
    std::sort(bad.begin(), bad.end(), [](const Edge& a, const Edge& b) { return std::tie(a.src, a.dst) < std::tie(b.src, b.dst); });
    REQUIRE_THROWS_WITH(process(p.layout, run_of(bad, pages, job, frontier), threads),
                        Catch::Contains("holds 1 edges outside its vertex ranges"));
  }
}

TEST_CASE("EdgeProcessor: a malformed page in a packed run is a one-line error naming the page") {
  // A damaged page is named even where every job would pass it over: a header whose sources are
  // not its partition's is decoded, not trusted.
  auto decode_damaged = [](const std::function<void(std::vector<std::byte>&)>& damage, const SourceFilter& filter,
                           const std::string& error) {
    std::vector<std::byte> pages;
    PackedPageWriter writer(false, pages);
    for (VertexId s = 0; s < 12000; ++s) writer.add({s, (s * 7) % 12000, 1});
    writer.finish();
    REQUIRE(writer.pages() >= 3);
    damage(pages);

    EngineLayout layout;
    layout.encoding = EdgeEncoding::Packed;
    layout.vertices = 12000;
    layout.edges = 12000;
    layout.partitions.push_back({0, 0, 12000, 0, 12000, 0, 12000, pages.size()});
    const std::vector<uint32_t> jobs{0};
    EdgeRun run;
    run.data = pages.data();
    run.count = 12000;
    run.jobs = jobs;
    run.packed = true;
    run.packed_bytes = pages.size();
    for (int threads : {1, 2}) {
      EdgeProcessor processor(layout, threads, [](uint32_t, const EdgeRun&) {},
                              [](const EdgeRun&) { return std::string("grid.row: block (0, 0)"); }, kPackedPageBytes, filter);
      REQUIRE_THROWS_WITH(processor.process(std::span<const EdgeRun>(&run, 1)), Catch::Matchers::Contains(error));
    }
  };
  // The third page's header: reserved no longer 0.
  decode_damaged([](std::vector<std::byte>& pages) { pages[kPackedPageBytes * 2 + 19] = std::byte{0x55}; }, {},
                 "grid.row: block (0, 0): page 2 of the edges read is malformed");
  // The second page's last source past the partition's sources, and no job pushing any source.
  decode_damaged(
      [](std::vector<std::byte>& pages) {
        const uint32_t outside = 12000;
        std::memcpy(pages.data() + kPackedPageBytes + offsetof(PackedPageHeader, last_src), &outside, sizeof(outside));
      },
      [](uint32_t, VertexId, VertexId, bool) { return false; }, "grid.row: block (0, 0): page 1 of the edges read is malformed");
}

TEST_CASE("EdgeProcessor passes over packed pages whose sources no job of the run may push, and still counts them") {
  const RandomPackedPartition graph(9, 7);
  const std::vector<WeightedEdge>& edges = graph.edges;
  REQUIRE(graph.page_count > 20);

  // Job 0 pushes the sources in `wanted`, job 1 none. The first case passes over the run's first
  // page (and with it the loader's count), the second decodes it, the third is a re-entry sweep.
  struct Case {
    std::vector<std::pair<VertexId, VertexId>> wanted;  // [first, end) ranges
    bool reentry;
  };
  const Case cases[] = {{{{1000, 1200}, {4000, 4001}}, false}, {{{0, 1}, {2500, 2600}}, false}, {{{3000, 3050}}, true}};
  const std::vector<uint32_t> jobs{0, 1};
  for (const Case& c : cases) {
    auto pushes = [&](VertexId v) {
      return std::any_of(c.wanted.begin(), c.wanted.end(), [&](auto r) { return v >= r.first && v < r.second; });
    };
    // The pages holding a source in some range, from their headers: those a decode of one page at
    // a time keeps. A larger decode also keeps the pages that go on with a kept page's last source
    // (so no source is cut between two decodes), up to a buffer's worth.
    uint64_t kept_edges = 0;
    for (uint64_t p = 0; p < graph.page_count; ++p) {
      PackedPageHeader h;
      std::memcpy(&h, graph.pages.data() + p * kPackedPageBytes, sizeof(h));
      if (std::any_of(c.wanted.begin(), c.wanted.end(), [&](auto r) { return h.first_src < r.second && h.last_src >= r.first; }))
        kept_edges += h.edges;
    }
    REQUIRE(kept_edges > 0);
    REQUIRE(kept_edges < edges.size() / 4);

    EdgeRun run = graph.run(jobs);
    run.reentry = c.reentry;
    run.counted_active = 777;  // the loader's count: taken once, whether its first page is decoded or not

    for (int threads : {1, 2})
      for (uint64_t decode_bytes : {uint64_t{1}, uint64_t{40} << 10, uint64_t{8} << 20}) {
        INFO(threads << " threads, decode buffer " << decode_bytes << ", reentry " << c.reentry);
        Received got;
        got.per_job.resize(jobs.size());
        std::atomic<bool> wrong_reentry{false};
        EdgeAction action = [&](uint32_t job, const EdgeRun& r) {
          std::lock_guard lock(got.mutex);
          for_each_edge(r, [&](VertexId src, VertexId dst, Weight w) { got.per_job[job].push_back({src, dst, w}); });
        };
        SourceFilter filter = [&](uint32_t job, VertexId first, VertexId end, bool reentry) {
          if (reentry != c.reentry) wrong_reentry = true;
          return job == 0 && std::any_of(c.wanted.begin(), c.wanted.end(),
                                         [&](auto r) { return first < r.second && end > r.first; });
        };
        EdgeProcessor processor(graph.layout, threads, action, [](const EdgeRun&) { return std::string("test run"); },
                                decode_bytes, filter);
        processor.process(std::span<const EdgeRun>(&run, 1));
        CHECK_FALSE(wrong_reentry);
        const EngineCounters& counts = processor.counters();
        for (auto& job_edges : got.per_job) {
          // The decoded pages' edges, each once, and among them every edge of a pushing source.
          std::sort(job_edges.begin(), job_edges.end(), before);
          CHECK(job_edges.size() == counts.edges_decoded);
          CHECK(std::includes(edges.begin(), edges.end(), job_edges.begin(), job_edges.end(), before));
          std::vector<WeightedEdge> pushing;
          std::copy_if(edges.begin(), edges.end(), std::back_inserter(pushing), [&](const WeightedEdge& e) { return pushes(e.src); });
          CHECK(std::includes(job_edges.begin(), job_edges.end(), pushing.begin(), pushing.end(), before));
        }
        CHECK(counts.edges_loaded == (c.reentry ? 0 : edges.size()));
        if (decode_bytes == 1) CHECK(counts.edges_decoded == kept_edges);
        CHECK(counts.edges_decoded >= kept_edges);
        CHECK(counts.edges_decoded < edges.size() / 2);
        CHECK(counts.edges_passed_over == edges.size() - counts.edges_decoded);
        CHECK(counts.edges_processed == 2 * counts.edges_decoded);
        CHECK(counts.active_edges_loaded == 777);
      }
  }
}

TEST_CASE("EdgeProcessor splits a one-column load by destination windows for the jobs that take them, each edge once") {
  // One partition spanning every destination (a store's sections): jobs 0 and 1 take windows,
  // job 2 does not (its runs are pieces, not owned). Each window's edges lie in it, windows of one
  // load do not overlap, and every job gets every edge exactly once, load after load, while the
  // cuts move with the windows' times. The load is counted once, whatever the windows decode.
  const RandomPackedPartition graph(11, 50);
  const std::vector<WeightedEdge>& edges = graph.edges;
  const std::vector<uint32_t> jobs{0, 1, 2};
  EdgeRun run = graph.run(jobs);
  run.counted_active = 4321;
  for (uint64_t decode_bytes : {uint64_t{1}, uint64_t{40} << 10}) {
    INFO("decode buffer " << decode_bytes);
    Received got;
    got.per_job.resize(jobs.size());
    std::vector<std::pair<VertexId, uint64_t>> windows;  // every (begin, span) job 0 was handed
    bool wrong = false;
    EdgeAction action = [&](uint32_t job, const EdgeRun& r) {
      std::lock_guard lock(got.mutex);
      for_each_edge(r, [&](VertexId src, VertexId dst, Weight w) {
        got.per_job[job].push_back({src, dst, w});
        wrong |= r.windowed() && (dst < r.window_begin || dst - r.window_begin >= r.window_span);
      });
      wrong |= r.windowed() != (job != 2) || r.owns_destinations != (job != 2);
      if (job == 0 && std::find(windows.begin(), windows.end(), std::pair(r.window_begin, r.window_span)) == windows.end())
        windows.emplace_back(r.window_begin, r.window_span);
    };
    WindowFilter takes = [](uint32_t job, bool reentry) { return job != 2 && !reentry; };
    EdgeProcessor processor(graph.layout, 2, action, [](const EdgeRun&) { return std::string("test run"); },
                            decode_bytes, {}, takes);
    for (int load = 0; load < 4; ++load) {
      INFO("load " << load);
      for (auto& job_edges : got.per_job) job_edges.clear();
      windows.clear();
      processor.process(std::span<const EdgeRun>(&run, 1));
      CHECK_FALSE(wrong);
      for (auto& job_edges : got.per_job) {
        std::sort(job_edges.begin(), job_edges.end(), before);
        CHECK(std::equal(job_edges.begin(), job_edges.end(), edges.begin(), edges.end(),
                         [](const WeightedEdge& x, const WeightedEdge& y) { return !before(x, y) && !before(y, x); }));
      }
      // Two windows covering [0, 5000) end to end, cut on a multiple of 64.
      REQUIRE(windows.size() == 2);
      std::sort(windows.begin(), windows.end());
      CHECK(windows[0].first == 0);
      CHECK(windows[0].first + windows[0].second == windows[1].first);
      CHECK(windows[1].first % 64 == 0);
      CHECK(windows[1].first + windows[1].second == RandomPackedPartition::kVertices);
    }
    const EngineCounters& c = processor.counters();
    CHECK(c.runs == 4);
    CHECK(c.edges_loaded == 4 * edges.size());
    CHECK(c.edges_decoded == 4 * edges.size());
    CHECK(c.edges_processed == 4 * 3 * edges.size());
    CHECK(c.active_edges_loaded == 4 * 4321);
  }
}

TEST_CASE("EdgeProcessor never windows record runs, one thread, or a load no job windows") {
  // Records: two partitions, each sources [32k, 32k + 32) and every destination [0, 64).
  std::vector<Edge> a, b;
  for (VertexId s = 0; s < 32; ++s)
    for (VertexId d = 0; d < 64; d += 3) a.push_back({s, d}), b.push_back({32 + s, (d * 5 + s) % 64});
  std::sort(b.begin(), b.end(), [](const Edge& x, const Edge& y) { return std::tie(x.src, x.dst) < std::tie(y.src, y.dst); });
  EngineLayout records;
  records.name = "test";
  records.files = {"none"};
  records.vertices = 64;
  records.partitions = {StaticPartition{0, 0, a.size(), 0, 32, 0, 64}, StaticPartition{0, 0, b.size(), 32, 64, 0, 64}};
  const std::vector<uint32_t> jobs{0};
  std::vector<EdgeRun> record_runs(2);
  for (uint32_t k = 0; k < 2; ++k) {
    const std::vector<Edge>& edges = k == 0 ? a : b;
    record_runs[k].data = reinterpret_cast<const std::byte*>(edges.data());
    record_runs[k].count = edges.size();
    record_runs[k].partition = k;
    record_runs[k].jobs = jobs;
  }
  // Packed: one partition of every destination.
  const RandomPackedPartition graph(13, 9);
  const std::vector<EdgeRun> packed_runs{graph.run(jobs)};
  for (bool packed : {false, true})
    for (int threads : {1, 2})
      for (bool take : {true, false}) {
        INFO((packed ? "packed" : "records") << ", " << threads << " threads, the job takes windows: " << take);
        const EngineLayout& layout = packed ? graph.layout : records;
        const std::vector<EdgeRun>& runs = packed ? packed_runs : record_runs;
        const uint64_t total = packed ? graph.edges.size() : a.size() + b.size();
        std::mutex mutex;
        uint64_t handed = 0, windowed = 0, owned = 0;
        EdgeProcessor processor(layout, threads, [&](uint32_t, const EdgeRun& r) {
          std::lock_guard lock(mutex);
          for_each_edge(r, [&](VertexId, VertexId, Weight) {
            ++handed;
            windowed += r.windowed();
            owned += r.owns_destinations;
          });
        }, [](const EdgeRun&) { return std::string("run"); }, kDefaultDecodeBytes, {},
        [&](uint32_t, bool) { return take; });
        processor.process(runs);
        CHECK(handed == total);
        const bool windows = packed && threads == 2 && take;
        CHECK(windowed == (windows ? total : 0));
        // One thread owns every edge; two own their windows, else share pieces (one range).
        CHECK(owned == (threads == 1 || windows ? total : 0));
      }
}
