// The X-Stream-style engine's own parts: the partition layout prep derives from the grid, the
// Job interface's scatter/gather split, and the update bins that spill to disk. (Whole runs of
// both engines against the reference are in test_engine, test_batches and test_real_graphs.)
#include <catch2/catch.hpp>

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>

#include "base/error.h"
#include "base/file.h"
#include "engine/gridgraph/grid_graph.h"
#include "engine/xstream/update_bins.h"
#include "engine/xstream/xstream_layout.h"
#include "engine/xstream/xstream_engine.h"
#include "middleware/tchunk.h"
#include "tests/test_graphs.h"

using namespace graphso;
using graphso::testing::TempDir;
using graphso::testing::policy;

namespace {

std::vector<WeightedEdge> read_partition(const XStreamLayout& layout, uint32_t k, bool weighted) {
  const uint32_t record = edge_bytes(weighted);
  std::vector<std::byte> raw(layout.bytes(k));
  File(layout.path(k), File::Mode::Read).pread_exact(raw, 0);
  if (raw.size() != layout.edges(k) * record) {  // packed pages
    std::vector<std::byte> records;
    PackedPageProblem problem;
    REQUIRE(decode_packed_pages(raw, weighted, records, &problem) == static_cast<int64_t>(layout.edges(k)));
    raw = std::move(records);
  }
  std::vector<WeightedEdge> edges(layout.edges(k), WeightedEdge{0, 0, 1});
  for (uint64_t e = 0; e < edges.size(); ++e) std::memcpy(&edges[e], raw.data() + e * record, record);
  return edges;
}

bool same_edge(const WeightedEdge& a, const WeightedEdge& b) {
  return a.src == b.src && a.dst == b.dst && a.weight == b.weight;
}

bool edge_less(const WeightedEdge& a, const WeightedEdge& b) {
  return std::tie(a.src, a.dst, a.weight) < std::tie(b.src, b.dst, b.weight);
}

// Update records as bytes, counted by (job, record) to compare what the bins hand back.
using Record = std::vector<unsigned char>;
using RecordCounts = std::map<std::pair<uint32_t, Record>, int>;

Record record_at(const std::byte* p, uint32_t size) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(p);
  return Record(bytes, bytes + size);
}

// A run of 1-200 random update records of `record` bytes for `job`, each counted in `sent`.
std::vector<std::byte> random_updates(std::mt19937_64& rng, uint32_t job, uint32_t record, uint64_t vertices,
                                      RecordCounts& sent) {
  std::vector<std::byte> run(record * (1 + rng() % 200));
  for (size_t at = 0; at < run.size(); at += record) {
    VertexId dst = static_cast<VertexId>(rng() % vertices);
    uint64_t value = rng();
    std::memcpy(run.data() + at, &dst, 4);
    std::memcpy(run.data() + at + 4, &value, record - 4);
    ++sent[{job, record_at(run.data() + at, record)}];
  }
  return run;
}

}  // namespace

TEST_CASE("X-Stream layout: every edge once, in its source's partition, sorted; damage and staleness are errors") {
  TempDir dir;
  for (EdgeEncoding encoding : {EdgeEncoding::Packed, EdgeEncoding::Raw})
  for (bool weighted : {false, true}) {
    INFO("weighted " << weighted << ", " << encoding_name(encoding));
    EdgeSet set = graphso::testing::rmat_edges(12, 8, weighted, 5, dir);
    std::string graph_dir = graphso::testing::prepare_graph(dir, set, {.partitions = 5, .encoding = encoding},
                                                            std::string(weighted ? "w" : "u") + encoding_name(encoding));
    GridGraph graph = GridGraph::open(graph_dir);
    XStreamLayout layout = XStreamLayout::open(graph);
    REQUIRE(layout.partitions() == 5);
    std::vector<WeightedEdge> all;
    for (uint32_t k = 0; k < layout.partitions(); ++k) {
      std::vector<WeightedEdge> part = read_partition(layout, k, weighted);
      REQUIRE(std::is_sorted(part.begin(), part.end(), [](const WeightedEdge& a, const WeightedEdge& b) {
        return std::tie(a.src, a.dst) < std::tie(b.src, b.dst);
      }));
      for (const WeightedEdge& e : part) {
        REQUIRE(graph.meta().range_of(e.src) == k);
        REQUIRE(e.dst < set.vertices);
      }
      all.insert(all.end(), part.begin(), part.end());
    }
    std::vector<WeightedEdge> expected = set.edges;
    std::sort(expected.begin(), expected.end(), edge_less);
    std::sort(all.begin(), all.end(), edge_less);
    REQUIRE(std::equal(all.begin(), all.end(), expected.begin(), expected.end(), same_edge));
    REQUIRE_NOTHROW(layout.verify(graph));

    // The middleware cuts each partition file into chunks like any other engine's partitions.
    EngineLayout engine_layout = xstream_layout(graph, layout);
    TChunkTable table = TChunkTable::build(engine_layout, 4096);
    uint64_t covered = 0;
    for (const ChunkInfo& c : table.chunks()) covered += c.edges;
    REQUIRE(covered == set.edges.size());
    table.save(engine_layout);
    REQUIRE(path_exists(graph_dir + "/tchunk.xstream.4096"));
  }

  EdgeSet set = graphso::testing::rmat_edges(11, 8, false, 9, dir);
  std::string graph_dir = graphso::testing::prepare_graph(dir, set, 4, "damaged");
  {
    GridGraph graph = GridGraph::open(graph_dir);
    File part(graph_dir + "/xstream.part.2", File::Mode::ReadWrite);
    uint32_t x = 0xFFFFFFFFu;
    part.pwrite_all(as_bytes_of(x), 4);
    REQUIRE_THROWS_WITH(XStreamLayout::open(graph).verify(graph), Catch::Contains("xstream.part.2: checksum mismatch"));
    part.truncate(4096);
    REQUIRE_THROWS_WITH(XStreamLayout::open(graph), Catch::Contains("xstream.part.2: size 4096 bytes, expected"));
    File meta(graph_dir + "/xstream.meta", File::Mode::ReadWrite);
    meta.pwrite_all(as_bytes_of(x), 20);
    REQUIRE_THROWS_WITH(XStreamLayout::open(graph), Catch::Contains("xstream.meta: checksum mismatch (corrupt)"));
  }
  // The grid prepared again (other edges) without the X-Stream layout: what is left is stale.
  EdgeSet other = graphso::testing::rmat_edges(11, 8, false, 10, dir);
  graphso::testing::write_edges(dir.file("other.bin"), other);
  XStreamLayout::write(GridGraph::open(graph_dir));
  prepare_grid(dir.file("other.bin"), graph_dir, GridPrepOptions{4});
  REQUIRE_THROWS_WITH(XStreamLayout::open(GridGraph::open(graph_dir)),
                      Catch::Contains("derived from another preparation of this graph"));
  XStreamLayout::remove(graph_dir);
  REQUIRE_THROWS_WITH(XStreamLayout::open(GridGraph::open(graph_dir)),
                      Catch::Contains("the graph has no X-Stream layout (run `graphso prep --engine xstream`"));
}

TEST_CASE("scatter then gather reaches the answers of process(), for every job") {
  // Directed and weighted, so label WCC scatters reverse updates too.
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(10, 8, true, 3, dir);
  std::vector<std::byte> run(set.edges.size() * sizeof(WeightedEdge));
  std::memcpy(run.data(), set.edges.data(), run.size());
  std::vector<uint32_t> degrees(set.vertices, 0);
  for (const WeightedEdge& e : set.edges) ++degrees[e.src];
  GraphInfo info{set.vertices, true, false, &degrees};
  for (const bool async : {false, true}) {
    for (const char* arg : {"bfs:source=1", "sssp:source=1", "wcc", "wcc:method=label", "pagerank:iterations=6",
                            "pagerank-delta:tolerance=1e-6"}) {
      INFO(arg << ", async " << async);
      const JobSpec spec = parse_job_argument(arg, 0);
      std::unique_ptr<Job> direct = make_job(spec, set.vertices, nullptr, policy(async)), streamed = make_job(spec, set.vertices, nullptr, policy(async));
      direct->init(info, 1);
      streamed->init(info, 1);
      EdgeRun edges;
      edges.data = run.data();
      edges.count = set.edges.size();
      edges.weighted = true;
      // The final answers must agree. (Rounds may differ in between: process() lets a value that
      // fell earlier in a round travel on in the same round, as GridGraph does; updates do not.)
      for (uint32_t round = 0; !direct->finished() && round < 10000; ++round) {
        direct->process(edges);
        direct->end_round();
      }
      uint64_t updates = 0;
      for (uint32_t round = 0; !streamed->finished() && round < 10000; ++round) {
        std::vector<std::byte> records;
        streamed->scatter_updates(edges, records);
        REQUIRE(records.size() % std::max<uint32_t>(1, streamed->update_bytes()) == 0);
        updates += records.size();
        streamed->gather_updates(records);
        streamed->end_round();
      }
      REQUIRE(direct->finished());
      REQUIRE(streamed->finished());
      // Asynchronous delta-PageRank's answer depends on the order deltas meet in (both are within
      // the stated bound of the exact ranks); every other answer is the same whatever the order.
      if (async && std::string(arg).starts_with("pagerank-delta")) {
        graphso::testing::check_against_reference(spec, *direct, set);
        graphso::testing::check_against_reference(spec, *streamed, set);
      } else {
        REQUIRE(streamed->format_results(OutFormat::Text, VertexOrder()) == direct->format_results(OutFormat::Text, VertexOrder()));
      }
      // Union-find WCC unites edges as they stream and has nothing to gather.
      if (std::string(arg) == "wcc") REQUIRE(updates == 0);
      else REQUIRE(updates > 0);
    }
  }
}

TEST_CASE("update bins: every update comes back once, partition by partition, within the budget") {
  TempDir dir;
  GridMeta meta;
  meta.vertices = 1000;
  meta.partitions = 4;
  meta.range_size = 256;
  const uint64_t budget = 64 << 10;
  const std::string spill = dir.file("updates.spill");
  // Job 0 carries 4-byte values, job 1 8-byte values; job 2 emits none.
  RecordCounts sent, received;
  {
    UpdateBins bins(meta, 2, {8, 12, 0}, budget, 16 << 10, spill, true);
    std::mt19937_64 rng(7);
    for (int batch = 0; batch < 300; ++batch) {
      const uint32_t job = batch % 2;
      const std::vector<std::byte> run = random_updates(rng, job, job == 0 ? 8 : 12, meta.vertices, sent);
      bins.add(batch % 3 == 0 ? 1 : 0, job, run);  // two threads' bins, taking turns
      REQUIRE(bins.memory_bytes() <= budget);
    }
    REQUIRE(bins.counters().spills > 0);
    REQUIRE(path_exists(spill));
    ReaderFactory readers{ReaderOptions{}};
    for (uint32_t job : {1u, 0u}) {  // one job at a time, as independent mode drains
      uint32_t last_partition = 0;
      bins.drain(std::vector<uint32_t>{job}, readers, [&](uint32_t j, std::span<const std::byte> records) {
        REQUIRE(j == job);
        const uint32_t record = j == 0 ? 8 : 12;
        REQUIRE(records.size() % record == 0);
        for (size_t at = 0; at < records.size(); at += record) {
          VertexId dst;
          std::memcpy(&dst, records.data() + at, 4);
          // Destination partitions in order: a partition's vertex state stays hot while it gathers.
          REQUIRE(meta.range_of(dst) >= last_partition);
          last_partition = meta.range_of(dst);
          ++received[{j, record_at(records.data() + at, record)}];
        }
      });
    }
    REQUIRE(bins.memory_bytes() == 0);
    const UpdateCounters c = bins.counters();
    REQUIRE(c.bytes_read == c.bytes_written);
    REQUIRE(c.bytes_written % 4096 == 0);
    uint64_t records = 0;
    for (const auto& [key, count] : sent) records += count;
    REQUIRE(c.records == records);
  }
  REQUIRE(received == sent);
  REQUIRE_FALSE(path_exists(spill));  // the spill file goes with the bins
}

TEST_CASE("update bins, applied when full: every update comes back once, in its destination's bin, within the budget") {
  TempDir dir;
  GridMeta meta;
  meta.vertices = 1000;
  meta.partitions = 6;
  meta.range_size = 192;  // not a power of two: the divider's multiply-and-shift is exact
  const uint64_t budget = 16 << 10;
  const std::vector<uint32_t> sizes = {4, 8, 12, 0};  // a destination alone, 4- and 8-byte values; none
  RecordCounts sent, received;
  uint64_t applied_calls = 0;
  auto take = [&](uint32_t job, std::span<const std::byte> records) {
    const uint32_t record = sizes[job];
    REQUIRE(records.size() % record == 0);
    VertexId first;
    std::memcpy(&first, records.data(), 4);
    for (size_t at = 0; at < records.size(); at += record) {
      VertexId dst;
      std::memcpy(&dst, records.data() + at, 4);
      REQUIRE(dst / meta.range_size == first / meta.range_size);  // one destination partition per bin
      ++received[{job, record_at(records.data() + at, record)}];
    }
  };
  UpdateBins bins(meta, 2, sizes, budget, 16 << 10, dir.file("updates.spill"), true,
                  [&](uint32_t job, std::span<const std::byte> records) {
                    ++applied_calls;
                    take(job, records);
                  });
  std::mt19937_64 rng(11);
  for (int round = 0; round < 2; ++round) {
    for (int batch = 0; batch < 300; ++batch) {
      const uint32_t job = batch % 3;
      bins.add(batch % 4 == 0 ? 1 : 0, job, random_updates(rng, job, sizes[job], meta.vertices, sent));
      REQUIRE(bins.memory_bytes() <= budget);
    }
    const uint64_t held = bins.memory_bytes();
    ReaderFactory readers{ReaderOptions{}};
    bins.drain(std::vector<uint32_t>{0, 1, 2}, readers, take);
    REQUIRE(bins.memory_bytes() == held);  // applied in memory, the bins keep theirs for the next round
    REQUIRE(received == sent);
  }
  REQUIRE(applied_calls > 0);
  const UpdateCounters c = bins.counters();
  REQUIRE(c.spills == 0);
  REQUIRE(c.applied_early > 0);
  REQUIRE_FALSE(path_exists(dir.file("updates.spill")));
}

TEST_CASE("X-Stream: budgets that overflow (spilled, or applied at once) and budgets that do not give the same answers and the same updates") {
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(12, 8, true, 23, dir);
  std::string graph = graphso::testing::prepare_graph(dir, set, 4);
  std::vector<std::string> jobs = {"pagerank-delta:tolerance=0.01", "wcc", "sssp:source=1", "bfs:source=1",
                                   "wcc:method=label", "pagerank:iterations=5"};
  uint64_t mem = graphso::testing::budget_for(graph, jobs, 0.25);
  for (Sharing mode : {Sharing::Independent, Sharing::Partition, Sharing::Chunk}) {
    INFO("mode " << sharing_name(mode));
    auto spilling = graphso::testing::run_batch_on(graph, jobs, mode, mem,
                                                   {.engine = EngineKind::XStream, .update_overflow = UpdateOverflow::Spill});
    auto applying = graphso::testing::run_batch_on(graph, jobs, mode, mem, {.engine = EngineKind::XStream});
    auto roomy = graphso::testing::run_batch_on(graph, jobs, mode, mem,
                                                {.engine = EngineKind::XStream, .update_mem_bytes = 64 << 20});
    for (const auto* batch : {&spilling, &applying, &roomy})
      for (size_t j = 0; j < batch->jobs.size(); ++j)
        graphso::testing::check_against_reference(batch->specs[j], *batch->jobs[j], set);
    // The same budget by default: full bins applied at once, nothing written.
    REQUIRE(applying.report.updates.applied_early > 0);
    REQUIRE(applying.report.updates.bytes_written == 0);
    REQUIRE(spilling.report.updates.applied_early == 0);
    REQUIRE(spilling.report.updates.bytes_written > 0);
    REQUIRE(spilling.report.updates.bytes_read == spilling.report.updates.bytes_written);
    REQUIRE(roomy.report.updates.bytes_written == 0);
    REQUIRE(roomy.report.updates.records == spilling.report.updates.records);
    uint64_t per_round = 0;
    for (const RoundRecord& r : spilling.report.rounds) per_round += r.update_bytes_written;
    REQUIRE(per_round == spilling.report.updates.bytes_written);
  }
}

TEST_CASE("X-Stream: a graph prepared for GridGraph only, or a budget with no room, is a clear error") {
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(10, 8, false, 2, dir);
  std::string graph = graphso::testing::prepare_graph(dir, set, 4);
  XStreamLayout::remove(graph);
  REQUIRE_THROWS_WITH(graphso::testing::run_batch_on(graph, {"bfs:source=0"}, Sharing::Partition, 8 << 20,
                                                     {.engine = EngineKind::XStream}),
                      Catch::Contains("the graph has no X-Stream layout"));
  GridGraph again = GridGraph::open(graphso::testing::prepare_graph(dir, set, 4, "again"));
  std::vector<std::unique_ptr<Job>> jobs;
  jobs.push_back(make_job(parse_job_argument("bfs:source=0", 0), set.vertices));
  BatchConfig config;
  config.engine = EngineKind::XStream;
  config.sharing = Sharing::Partition;
  config.graph_mem_bytes = 8 << 20;
  config.update_mem_bytes = 8 << 20;
  config.show_progress = false;
  ReaderFactory readers{ReaderOptions{}};
  REQUIRE_THROWS_WITH(run_batch(config, again, jobs, readers),
                      Catch::Contains("the graph-data budget of 8.0 MiB leaves no room for edges after an update budget of 8.0 MiB") &&
                          Catch::Contains("the least that does is 8.0 MiB (8421376 bytes; raise --mem or --graph-mem, or lower --update-mem)"));
  // With the default update budget the refusal names the least graph-data budget, and that works.
  config.update_mem_bytes = 0;
  config.graph_mem_bytes = 40 << 10;
  const std::string refusal = graphso::testing::error_of([&] { run_batch(config, again, jobs, readers); });
  INFO(refusal);
  const size_t open = refusal.find("the least that does is ");
  REQUIRE(open != std::string::npos);
  const uint64_t least = std::stoull(refusal.substr(refusal.find('(', open) + 1));
  REQUIRE(least > config.graph_mem_bytes);
  config.graph_mem_bytes = least - 1;
  REQUIRE_THAT(graphso::testing::error_of([&] { run_batch(config, again, jobs, readers); }), Catch::Contains("leaves no room"));
  config.graph_mem_bytes = least;
  REQUIRE(run_batch(config, again, jobs, readers).jobs.at(0).converged);
  config.update_mem_bytes = 8 << 20;
  config.engine = EngineKind::GridGraph;
  REQUIRE_THROWS_WITH(run_batch(config, again, jobs, readers), Catch::Equals("--update-mem applies to the xstream engine only"));
}
