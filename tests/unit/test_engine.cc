// Both engines end to end through the library: every job equals the in-memory reference in every
// sharing mode, with the graph out of core and in memory (and, in the X-Stream engine, updates
// spilled to disk); I/O faults stop the run. Each test runs once per engine (GENERATE).
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "base/error.h"
#include "base/file.h"
#include "engine/gridgraph/grid_graph.h"
#include "tests/test_graphs.h"

using namespace graphso;
using graphso::testing::TempDir;

namespace {

const std::vector<Sharing> kModes = {Sharing::Independent, Sharing::Partition, Sharing::Chunk};

using graphso::testing::kEngines;

BatchReport check_batch(const std::string& graph, const EdgeSet& set, const std::vector<std::string>& jobs,
                 Sharing sharing, uint64_t mem, EngineKind engine, AsyncPolicy async = AsyncPolicy::Auto,
                 CacheForm cache_form = CacheForm::Auto) {
  INFO("engine " << engine_name(engine) << ", mode " << sharing_name(sharing) << ", --mem " << mem << ", async "
                 << static_cast<int>(async) << ", cache form " << cache_form_name(cache_form));
  auto batch = graphso::testing::run_batch_on(graph, jobs, sharing, mem,
                                              {.engine = engine, .async = async, .cache_form = cache_form});
  for (size_t j = 0; j < batch.jobs.size(); ++j) {
    // Every algorithm the registry declares asynchronous begins so, unless the run says off, or
    // (k-core) its edges are used both ways; under auto it may have fallen back since, under on
    // never.
    const Job& job = *batch.jobs[j];
    const bool both_ways_kcore = job.algo() == "kcore" && job.edge_use() == EdgeUse::BothWays;
    const bool began_async = job.async() || job.sync_from_round() > 0;
    REQUIRE(began_async == (async != AsyncPolicy::Off && job.async_capable() && !both_ways_kcore));
    if (async != AsyncPolicy::Auto) REQUIRE(job.sync_from_round() == 0);
    graphso::testing::check_against_reference(batch.specs[j], *batch.jobs[j], set);
  }
  const BatchReport& r = batch.report;
  REQUIRE(r.mode == sharing_name(sharing));
  REQUIRE(r.engine == engine_name(engine));
  // Every edge a job saw came from the device or the chunk cache.
  REQUIRE(r.io.bytes_read + r.chunk_stats.cache.bytes_hit >=
          graphso::testing::least_stored_bytes(r.counters.edges_loaded, set.weighted, r.encoding == "packed"));
  REQUIRE(r.counters.active_edges_loaded <= r.counters.edges_loaded);
  // The test's budget, plus the update budget the X-Stream runs are given on top of it.
  REQUIRE(r.vertex_state_bytes + r.page_sums_bytes + r.graph_budget_bytes == mem + r.update_budget_bytes);
  REQUIRE(r.page_sums_bytes > 0);  // every read was verified
  REQUIRE(2 * r.buffer_bytes + r.cache_bytes + r.tchunk_bytes + r.update_budget_bytes <= r.graph_budget_bytes);
  if (engine == EngineKind::XStream) {
    // Every update spilled is read back once; nothing is spilled that was not emitted.
    REQUIRE(r.updates.bytes_read == r.updates.bytes_written);
    REQUIRE(r.updates.bytes_written <= r.updates.bytes + r.updates.spills * 4096);
  } else {
    REQUIRE(r.updates.records == 0);
  }
  if (sharing == Sharing::Chunk) {
    REQUIRE(r.chunk_stats.chunks_loaded + r.chunk_stats.cache.hits == r.counters.runs);  // every chunk processed came from one of the two
    REQUIRE(r.chunk_stats.cache.misses == r.chunk_stats.chunks_loaded);
    REQUIRE(r.cached_chunks <= r.chunks);
    REQUIRE(r.cache_used_bytes <= r.cache_bytes);
    if (r.encoding != "packed") REQUIRE(r.cache_form == "records");
    else if (cache_form != CacheForm::Auto) REQUIRE(r.cache_form == cache_form_name(cache_form));
  }
  return batch.report;
}

}  // namespace

TEST_CASE("generated graphs: all jobs equal the reference in every mode, out of core and in memory") {
  const EngineKind engine = GENERATE(from_range(kEngines));
  TempDir dir;
  for (bool weighted : {false, true}) {
    EdgeSet set = graphso::testing::rmat_edges(12, 8, weighted, weighted ? 11 : 12, dir);
    std::string graph = graphso::testing::prepare_graph(dir, set, 6, weighted ? "w" : "u");
    std::vector<std::string> jobs = {"bfs:source=0", "sssp:source=5", "wcc", "pagerank:iterations=7",
                                     "pagerank-delta:tolerance=1e-6", "bfs:source=77", "ppr:source=0,5,77:tolerance=1e-6",
                                     "kcore", "cdlp:iterations=5:slots=2", "lcc:slots=2"};
    uint64_t large = graphso::testing::budget_for(graph, jobs, 3.0);
    uint64_t huge = graphso::testing::budget_for(graph, jobs, 16.0);
    for (Sharing mode : kModes) {
      // Out of core: buffers hold 1/40 of the graph; chunk mode also keeps its TChunk table and
      // cache in the budget, so it gets 2/5. Asynchronous passes out of core, synchronous rounds
      // (--async off) in memory: both in every engine and mode. Passes are the default (auto,
      // which may fall back) on one graph and forced (on) on the other.
      // In chunk mode the cache holds chunks decoded out of core (evicting) and, under auto, in
      // memory too (the whole graph fits decoded); they are also served packed in memory.
      check_batch(graph, set, jobs, mode, graphso::testing::budget_for(graph, jobs, mode == Sharing::Chunk ? 0.4 : 0.05), engine,
                  weighted ? AsyncPolicy::On : AsyncPolicy::Auto, CacheForm::Decoded);
      // Chunk mode's cache (a quarter of the budget) holds the graph decoded (about twice its
      // packed bytes) in 16 times the graph's bytes.
      const BatchReport in_memory = check_batch(graph, set, jobs, mode, mode == Sharing::Chunk ? huge : large, engine,
                                                AsyncPolicy::Off);
      if (mode == Sharing::Chunk) {
        REQUIRE(in_memory.cache_form == "decoded");
        REQUIRE(in_memory.cached_chunks == in_memory.chunks);
        check_batch(graph, set, jobs, mode, huge, engine, AsyncPolicy::Off, CacheForm::Packed);
      }
    }
  }
}

TEST_CASE("real weights: SSSP alone and in lanes equals Dijkstra in double, every engine and mode, packed and raw") {
  const EngineKind engine = GENERATE(from_range(kEngines));
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(12, 8, true, 17, dir);
  // Reals across many magnitudes (binary32 bits in the u32), zeros among them.
  std::mt19937_64 draw(5);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (WeightedEdge& e : set.edges) {
    const uint64_t kind = draw() % 8;
    const float w = kind == 0 ? 0.0f : kind == 1 ? unit(draw) * 1e-6f : kind == 2 ? unit(draw) * 1e6f : unit(draw) * 10.0f;
    e.weight = real_weight_bits(w);
  }
  set.real_weights = true;
  // Three sources share a group's lanes; in passes one more runs alone (another reach).
  const std::vector<std::string> jobs = {"sssp:source=0", "sssp:source=5", "sssp:source=77", "sssp:source=9:reach=0",
                                         "bfs:source=0"};
  for (EdgeEncoding encoding : {EdgeEncoding::Packed, EdgeEncoding::Raw}) {
    GridPrepOptions options;
    options.partitions = 4;
    options.encoding = encoding;
    const std::string graph = graphso::testing::prepare_graph(dir, set, options, std::string("real-") + encoding_name(encoding));
    REQUIRE(GridGraph::open(graph).meta().real_weights);
    for (Sharing mode : kModes)
      for (AsyncPolicy async : {AsyncPolicy::On, AsyncPolicy::Off}) {
        INFO("engine " << engine_name(engine) << ", mode " << sharing_name(mode) << ", async " << static_cast<int>(async));
        // A group's update records carry eight distances: room for them beside the graph data.
        auto batch = graphso::testing::run_batch_on(graph, jobs, mode, graphso::testing::budget_for(graph, jobs, mode == Sharing::Chunk ? 0.4 : 0.1, true, async),
                                                    {.engine = engine, .update_mem_bytes = 1 << 20, .async = async});
        // The SSSP jobs ran in one group's lanes: the three of one reach (synchronous: all four).
        REQUIRE(std::count_if(batch.report.runnables.begin(), batch.report.runnables.end(), [&](const RunnableOutcome& r) {
                  return r.method == "sssp lanes" && r.jobs == (async == AsyncPolicy::On ? 3u : 4u);
                }) == 1);
        for (size_t j = 0; j < batch.jobs.size(); ++j)
          graphso::testing::check_against_reference(batch.specs[j], *batch.jobs[j], set);
      }
  }
}

TEST_CASE("a graph with isolated vertices, sinks and a single partition") {
  const EngineKind engine = GENERATE(from_range(kEngines));
  TempDir dir;
  EdgeSet set;
  set.vertices = 200;
  set.weighted = true;
  set.edges = {{0, 1, 4}, {1, 2, 1}, {0, 2, 7}, {2, 0, 0}, {10, 11, 3}, {11, 10, 3}, {150, 199, 2}, {199, 150, 9}};
  for (uint32_t p : {1u, 3u}) {
    std::string graph = graphso::testing::prepare_graph(dir, set, p, "p" + std::to_string(p));
    std::vector<std::string> jobs = {"bfs:source=0", "sssp:source=0", "wcc", "pagerank:iterations=30",
                                     "pagerank-delta:tolerance=1e-9", "sssp:source=150"};
    for (Sharing mode : kModes) check_batch(graph, set, jobs, mode, 1 << 20, engine);
  }
}

TEST_CASE("WCC is right on directed input (labels flow against edge direction too)") {
  const EngineKind engine = GENERATE(from_range(kEngines));
  TempDir dir;
  EdgeSet set;
  set.vertices = 6;
  // 5 -> 0 and 3 -> 1: a one-way label push from sources would leave 3 and 5 unlabelled by 0/1.
  set.edges = {{5, 0, 1}, {3, 1, 1}, {1, 4, 1}, {2, 2, 1}};
  std::string graph = graphso::testing::prepare_graph(dir, set, 2);
  for (Sharing mode : kModes) {
    check_batch(graph, set, {"wcc"}, mode, 1 << 20, engine);
    check_batch(graph, set, {"wcc:method=label"}, mode, 1 << 20, engine);
  }
}

TEST_CASE("sharing: partition mode reads each wanted block once per round, independent once per job") {
  const EngineKind engine = GENERATE(from_range(kEngines));
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(12, 8, false, 21, dir);
  std::string graph = graphso::testing::prepare_graph(dir, set, 4);
  std::vector<std::string> jobs = {"pagerank:iterations=5", "pagerank:iterations=5", "pagerank:iterations=5"};
  uint64_t mem = graphso::testing::budget_for(graph, jobs, 0.1, false);
  // Three jobs, not one: identical jobs would be computed once (jobs/job_groups.h).
  auto independent = graphso::testing::run_batch_on(graph, jobs, Sharing::Independent, mem, {.engine = engine, .grouping = false});
  auto partition = graphso::testing::run_batch_on(graph, jobs, Sharing::Partition, mem, {.engine = engine, .grouping = false});
  // All-active jobs want every block every round: three jobs read three times as much alone.
  REQUIRE(independent.report.counters.edges_loaded == 3 * 5 * set.edges.size());
  REQUIRE(partition.report.counters.edges_loaded == 5 * set.edges.size());
  REQUIRE(partition.report.counters.edges_processed == independent.report.counters.edges_processed);
  REQUIRE(partition.report.io.bytes_read * 2 < independent.report.io.bytes_read);
  // X-Stream: the same updates either way (one per edge per round per job), and no more spilled.
  REQUIRE(partition.report.updates.records == independent.report.updates.records);
  if (engine == EngineKind::XStream) REQUIRE(partition.report.updates.records == 3 * 5 * set.edges.size());
}

TEST_CASE("a budget too small for the vertex state is a clear error") {
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(12, 4, false, 2, dir);
  std::string graph = graphso::testing::prepare_graph(dir, set, 4);
  REQUIRE_THROWS_WITH(graphso::testing::run_batch_on(graph, {"bfs:source=0", "wcc"}, Sharing::Partition, 40000),
                      Catch::Contains("--mem 39.1 KiB is too small: the vertex state of 2 jobs over 4096 vertices needs"));
}

namespace {

// Wraps each reader; the Nth submitted batch fails the way a device or backend would report it.
class FaultyReaders : public ReaderFactory {
 public:
  enum class Fault { ShortRead, IoError };
  FaultyReaders(Fault fault, uint64_t fail_at) : ReaderFactory(ReaderOptions{}), fault_(fault), fail_at_(fail_at) {}
  std::unique_ptr<ChunkReader> open(const std::string& path) override {
    return std::make_unique<Faulty>(ReaderFactory::open(path), *this);
  }

 private:
  class Faulty : public ChunkReader {
   public:
    Faulty(std::unique_ptr<ChunkReader> inner, FaultyReaders& owner) : inner_(std::move(inner)), owner_(owner) {}
    const char* backend() const override { return "faulty"; }
    void submit(std::span<const ReadRequest> requests) override {
      if (++owner_.batches_ == owner_.fail_at_) {
        pending_fault_ = true;  // the read was started; the fault shows at completion
        requests_ = {requests.begin(), requests.end()};
      }
      inner_->submit(requests);
    }
    void wait() override {
      inner_->wait();
      if (!pending_fault_) return;
      pending_fault_ = false;
      if (owner_.fault_ == Fault::ShortRead)
        fail("injected: short read: {} of {} bytes", requests_[0].length / 2, requests_[0].length);
      fail("injected: read failed: Input/output error");
    }

   private:
    std::unique_ptr<ChunkReader> inner_;
    FaultyReaders& owner_;
    bool pending_fault_ = false;
    std::vector<ReadRequest> requests_;
  };
  Fault fault_;
  uint64_t fail_at_;
  uint64_t batches_ = 0;
};

}  // namespace

TEST_CASE("short reads and I/O errors from the reader stop the run with the reader's message") {
  const EngineKind engine = GENERATE(from_range(kEngines));
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(11, 8, false, 4, dir);
  std::string graph = graphso::testing::prepare_graph(dir, set, 4);
  std::vector<std::string> jobs = {"bfs:source=1", "pagerank:iterations=4"};
  uint64_t mem = graphso::testing::budget_for(graph, jobs, 0.05);
  for (Sharing mode : kModes)
    for (uint64_t fail_at : {1u, 7u}) {
      INFO("engine " << engine_name(engine) << ", mode " << sharing_name(mode) << ", failing batch " << fail_at);
      // No chunk cache: the budget of this small graph would hold it whole, read once in fewer
      // batches than the fault waits for.
      FaultyReaders short_reads(FaultyReaders::Fault::ShortRead, fail_at);
      REQUIRE_THROWS_WITH(graphso::testing::run_batch_on(graph, jobs, mode, mem,
                                                         {.readers = &short_reads, .engine = engine, .cache_ratio = 0}),
                          Catch::Contains("injected: short read"));
      FaultyReaders io_errors(FaultyReaders::Fault::IoError, fail_at);
      REQUIRE_THROWS_WITH(graphso::testing::run_batch_on(graph, jobs, mode, mem,
                                                         {.readers = &io_errors, .engine = engine, .cache_ratio = 0}),
                          Catch::Contains("Input/output error"));
    }
}

TEST_CASE("an edge outside its block (corrupt file that passed open) stops the run") {
  const EngineKind engine = GENERATE(from_range(kEngines));
  const EdgeEncoding encoding = GENERATE(EdgeEncoding::Raw, EdgeEncoding::Packed);
  INFO(encoding_name(encoding));
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(10, 8, false, 6, dir);
  std::string graph = graphso::testing::prepare_graph(dir, set, {.partitions = 4, .encoding = encoding}, "graph");
  // Raw, the first record's source; packed, the first page's first source, which the decoder
  // finds beyond the page's last.
  const char* caught = encoding == EdgeEncoding::Raw ? "outside its vertex ranges" : "is malformed: a source beyond the page's last";
  // Chunk mode's TChunk table is cut (from verified pages) before the damage.
  graphso::testing::run_batch_on(graph, {"pagerank:iterations=2"}, Sharing::Chunk, 1 << 20, {.engine = engine});
  for (const char* file : {"/grid.row", "/grid.col", "/xstream.part.0"}) {
    File f(graph + file, File::Mode::ReadWrite);
    uint32_t far_away = 1000;  // block (0, 0) and streaming partition 0 only hold sources below 256
    f.pwrite_all(as_bytes_of(far_away), 0);
  }
  // The page checksums catch it first; unverified, the range check behind them still does.
  REQUIRE_THROWS_WITH(graphso::testing::run_batch_on(graph, {"wcc"}, Sharing::Partition, 1 << 20, {.engine = engine}),
                      Catch::Contains("checksum mismatch in the page at offset 0"));
  ReaderOptions unverified;
  unverified.verify_reads = false;
  ReaderFactory readers(unverified);
  REQUIRE_THROWS_WITH(
      graphso::testing::run_batch_on(graph, {"wcc"}, Sharing::Partition, 1 << 20, {.readers = &readers, .engine = engine}),
      Catch::Contains(caught));
  // Chunk mode counts active edges from the TChunk index, yet still range-checks what it reads.
  REQUIRE_THROWS_WITH(graphso::testing::run_batch_on(graph, {"pagerank:iterations=2"}, Sharing::Chunk, 1 << 20,
                                                     {.readers = &readers, .engine = engine}),
                      Catch::Contains(caught));
}
