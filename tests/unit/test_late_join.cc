// Late join (middleware/late_join.h, GraphSO::Follow): chunks an asynchronous wave reaches during
// a pass join that pass, in either pass order, through the cache too, with the same answers.
#include <catch2/catch.hpp>

#include <set>

#include "engine/gridgraph/grid_engine.h"
#include "engine/gridgraph/grid_graph.h"
#include "middleware/graphso.h"
#include "tests/test_graphs.h"

using namespace graphso;
using graphso::testing::TempDir;

namespace {

uint64_t late_in_rounds(const BatchReport& r) {
  uint64_t late = 0;
  for (const RoundRecord& round : r.rounds) late += round.late_chunks;
  return late;
}

// The batch in chunk mode with `options` as given (late join off) and with the late join on; both
// checked against the reference.
struct WithAndWithout {
  graphso::testing::Batch waiting, joined;
};
WithAndWithout run_both(const std::string& g, const std::vector<std::string>& jobs, uint64_t mem,
                        graphso::testing::RunOptions options, const EdgeSet& set) {
  options.late_join = false;
  WithAndWithout both{graphso::testing::run_batch_on(g, jobs, Sharing::Chunk, mem, options), {}};
  options.late_join = true;
  both.joined = graphso::testing::run_batch_on(g, jobs, Sharing::Chunk, mem, options);
  for (auto* b : {&both.waiting, &both.joined})
    for (size_t j = 0; j < b->jobs.size(); ++j) graphso::testing::check_against_reference(b->specs[j], *b->jobs[j], set);
  return both;
}

}  // namespace

TEST_CASE("late join: a wave runs the length of a chain in one pass, through chunks planned for nobody") {
  // A chain 0 -> 1 -> ... in id order: a pass begins with the one chunk holding vertex 0, and
  // every other chunk gains its work only once the wave reaches it. One thread, so the chunks of
  // a load go by in order. GridGraph applies each edge at once, so the wave crosses a chunk as it
  // goes by; X-Stream applies a load's updates after it, so there a wave moves an edge per load
  // or sweep and never leaves its chunk before the pass ends (the next case runs X-Stream).
  EdgeSet set;
  set.vertices = 3000;
  set.weighted = true;
  for (uint32_t v = 0; v + 1 < set.vertices; ++v) set.edges.push_back({v, v + 1, 1 + v % 3});
  graphso::testing::TempDir dir;
  // Raw records: 4 KiB chunks of a few hundred edges, so a wave crosses many of them.
  const std::string g = graphso::testing::prepare_graph(dir, set, {.partitions = 2, .encoding = EdgeEncoding::Raw}, "g");
  // Passes unbounded (reach 0, jobs/edge_job.h): how far one pass can take a wave is the question.
  const std::vector<std::string> jobs = {"bfs:source=0:reach=0", "sssp:source=0:reach=0"};
  const uint64_t mem = graphso::testing::budget_for(g, jobs, 0.5);
  const PassOrder order = GENERATE(PassOrder::Priority, PassOrder::Source, PassOrder::Destination);
  INFO(pass_order_name(order));
  const WithAndWithout both =
      run_both(g, jobs, mem, {.chunk_bytes = 4096, .engine = EngineKind::GridGraph, .pass_order = order, .threads = 1}, set);
  const BatchReport &w = both.waiting.report, &l = both.joined.report;
  REQUIRE(w.chunks > 8);
  // Without it a pass ends where its chunks end: about one chunk of chain per pass.
  REQUIRE(w.jobs[0].rounds >= 8);
  REQUIRE(late_in_rounds(w) == 0);
  REQUIRE(w.chunk_stats.late_chunks == 0);
  // With it the first pass takes the wave to the end; the second finds the last vertex (no
  // out-edges, so it never pushed) has nothing to do.
  REQUIRE(l.jobs[0].rounds == 2);
  REQUIRE(l.jobs[1].rounds == 2);
  REQUIRE(l.rounds[0].active_chunks == 1);
  REQUIRE(l.rounds[0].late_chunks >= w.jobs[0].rounds - 2);
  REQUIRE(late_in_rounds(l) == l.chunk_stats.late_chunks);
  REQUIRE(l.late_join);
  REQUIRE(l.pass_order == pass_order_name(order));
  // Each chunk of the chain is loaded about once either way: the joins cost no extra bytes.
  REQUIRE(l.counters.edges_loaded <= w.counters.edges_loaded);
}

TEST_CASE("late join in both engines and pass orders: the same answers, fewer passes, cached chunks joining") {
  // The lattice of the re-entry case, searched against the id order from its last vertex, with
  // a budget under the graph: chunks come from the device and from the cache in every pass, and
  // a chunk planned from the cache after the pass began may be evicted before it is served.
  // GridGraph: the wave leaves chunks during a pass, which then join it. X-Stream (updates
  // applied after each load) joins fewer or none: the answers and counts must hold all the same.
  // Passes are forced (--async on): what joins depends on which jobs are in passes, and auto
  // may move delta-PageRank to rounds.
  const EdgeSet set = graphso::testing::street_lattice(24, 40);
  graphso::testing::TempDir dir;
  // Raw records: 4 KiB chunks of a few hundred edges, so a wave crosses many of them.
  const std::string g = graphso::testing::prepare_graph(dir, set, {.partitions = 2, .encoding = EdgeEncoding::Raw}, "g");
  const std::string last = std::to_string(set.vertices - 1);
  const std::vector<std::string> jobs = {"bfs:source=" + last, "sssp:source=" + last, "pagerank-delta:tolerance=0.01",
                                         "wcc:method=label", "pagerank:iterations=3"};
  const uint64_t mem = graphso::testing::budget_for(g, jobs, 0.5);
  const EngineKind engine = GENERATE(from_range(graphso::testing::kEngines));
  for (PassOrder order : {PassOrder::Priority, PassOrder::Source, PassOrder::Destination}) {
    for (int threads : {1, 2}) {
      INFO(engine_name(engine) << ", " << pass_order_name(order) << ", " << threads << " threads");
      const WithAndWithout both =
          run_both(g, jobs, mem, {.chunk_bytes = 4096, .engine = engine, .async = AsyncPolicy::On, .pass_order = order, .threads = threads}, set);
      const BatchReport &w = both.waiting.report, &l = both.joined.report;
      REQUIRE(late_in_rounds(w) == 0);
      REQUIRE(late_in_rounds(l) == l.chunk_stats.late_chunks);
      REQUIRE(l.chunk_stats.cache.hits > 0);
      REQUIRE(l.jobs[4].rounds == 3);  // fixed-iteration PageRank is synchronous and unchanged
      if (engine == EngineKind::GridGraph) {
        // BFS and SSSP take fewer passes.
        REQUIRE(l.chunk_stats.late_chunks > 0);
        REQUIRE(l.jobs[0].rounds < w.jobs[0].rounds);
        REQUIRE(l.jobs[1].rounds < w.jobs[1].rounds);
      }
      // What the engine counts as loaded was read or served from the cache.
      REQUIRE(graphso::testing::least_stored_bytes(l.counters.edges_loaded, true, l.encoding == "packed") <=
              l.chunk_stats.bytes_requested + l.chunk_stats.cache.bytes_hit);
    }
  }
}

TEST_CASE("Follow: a cached chunk that joins behind the partition being read is served from the cache, every run its own bytes") {
  // Round 1 reads every chunk once, so the cache fills. Round 2 plans chunks that are not cached,
  // several partitions' worth; once the first device partition is handed out (the next one being
  // read), changes among a cached chunk's sources make it join: it is planned from the cache
  // behind the partition in flight, and every partition after must still carry its own bytes.
  TempDir dir;
  const EdgeSet set = graphso::testing::rmat_edges(12, 8, true, 5, dir);
  const GridGraph graph =
      GridGraph::open(graphso::testing::prepare_graph(dir, set, {.partitions = 4, .encoding = EdgeEncoding::Raw}, "g"));
  const EngineLayout layout = gridgraph_layout(graph);
  ReaderFactory readers{ReaderOptions{}};
  GraphSOConfig config;
  config.chunk_bytes = 4096;
  config.cache_ratio = 0.5;
  config.graph_budget_bytes = 2 * (TChunkTable::build(layout, 4096).memory_bytes() + 2 * 4 * 4096);
  auto mw = GraphSO::Init(layout, config, readers);
  const TChunkTable& table = mw->table();
  REQUIRE(mw->partition_bytes() < 8 * 4096);
  REQUIRE(mw->cache_capacity() > 8 * 4096);

  std::vector<uint32_t> served;
  auto serve = [&](const LoadedPartition& lp) {
    for (const EdgeRun& run : lp.runs) served.push_back(graphso::testing::check_served_chunk(layout, table, run));
  };
  Bitmap all(layout.vertices);
  all.set_all();
  ActiveChunks first = mw->GetActiveChunks(std::vector<JobFrontier>{{&all, false}});
  while (std::optional<LoadedPartition> lp = mw->Schedule(first)) serve(*lp);
  std::vector<uint32_t> cached, uncached;
  for (uint32_t m = 0; m < table.chunks().size(); ++m) (mw->cached(m) ? cached : uncached).push_back(m);
  REQUIRE(cached.size() >= 4);
  REQUIRE(uncached.size() >= 16);

  // Round 2: the sources of the last 16 uncached chunks' first edges.
  Bitmap frontier(layout.vertices);
  for (size_t k = uncached.size() - 16; k < uncached.size(); ++k) frontier.set(table.chunk(uncached[k]).first_src);
  ActiveChunks second = mw->GetActiveChunks(std::vector<JobFrontier>{{&frontier, false}});
  std::set<uint32_t> planned;
  for (const ChunkDemand& d : second.chunks) planned.insert(d.chunk);
  // A cached chunk nobody wants this round: the lowest id, which the cache evicts last among
  // chunks of equal priority (offers evict while the round goes on).
  uint32_t joiner = UINT32_MAX;
  for (uint32_t m : cached)
    if (joiner == UINT32_MAX && !planned.count(m)) joiner = m;
  REQUIRE(joiner != UINT32_MAX);
  served.clear();
  std::optional<LoadedPartition> lp;
  do {
    lp = mw->Schedule(second);
    REQUIRE(lp);
    serve(*lp);
  } while (lp->from_cache);
  Bitmap changed(layout.vertices);
  table.for_each_source(joiner, [&](VertexId v, uint64_t) { changed.set(v); });
  const std::vector<JobChanges> changes{{0, &changed, false}};
  REQUIRE(mw->Follow(second, changes) >= 1);
  REQUIRE(mw->Follow(second, changes) == 0);  // nothing changed since
  bool from_cache = false;
  while ((lp = mw->Schedule(second))) {
    serve(*lp);
    from_cache |= lp->from_cache;
  }
  // Every chunk the round wanted, the joiner among them, was served once, each with its bytes.
  std::set<uint32_t> once(served.begin(), served.end());
  REQUIRE(once.size() == served.size());
  REQUIRE(once.count(joiner) == 1);
  for (uint32_t m : planned) REQUIRE(once.count(m) == 1);
  REQUIRE(from_cache);
  REQUIRE(mw->stats().late_chunks >= 1);
}
