// `graphso run STORE` through the library: a batch on a store (every store mode, weighted and
// not, after deletions and with operations still in the log) equals the reference on the edges
// an independent model says the store holds, in both engines and every sharing mode; a dgap store's sections are
// read in place where nothing is logged after the checkpoint, and its view's version stays fixed
// while the writer goes on.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>

#include "base/file.h"
#include "integrations/store_graph.h"
#include "middleware/tchunk.h"
#include "store/graph_store.h"
#include "store/store_view.h"
#include "tests/store_checks.h"
#include "tests/test_graphs.h"

using namespace graphso;
using namespace graphso::store;
using graphso::testing::AdjacencyModel;
using graphso::testing::adjacency_of;
using graphso::testing::EdgeOp;
using graphso::testing::TempDir;

namespace {

// CDLP and LCC in several ranges: LCC counts an edge's copies once (a store's pages hold each
// source's destinations sorted, so copies are neighbours).
const std::vector<std::string> kJobs = {"bfs:source=0", "sssp:source=0", "pagerank:iterations=10", "wcc",
                                        "cdlp:iterations=3:slots=2", "lcc:slots=2"};

// The graph the model holds, as an edge set (weights as the store keeps them).
EdgeSet edges_of(const AdjacencyModel& model, uint64_t vertices) {
  EdgeSet set;
  set.vertices = vertices;
  set.weighted = true;
  for (VertexId v = 0; v < vertices; ++v)
    for (const auto& [n, w] : model.out_edges[v]) set.edges.push_back({v, n, w});
  return set;
}

// Vertex state plus a quarter of the graph's packed bytes: every round reads the graph again.
uint64_t budget(const StoreGraph& g) {
  const uint64_t n = g.graph().meta().vertices;
  return n * 256 + std::max<uint64_t>(64 << 10, g.layout().stored_bytes() / 4);
}

// f(sharing, options) in both engines and every sharing mode, chunks of 8 KiB.
template <typename F>
void for_each_setting(F&& f) {
  for (EngineKind engine : graphso::testing::kEngines)
    for (Sharing sharing : {Sharing::Independent, Sharing::Partition, Sharing::Chunk}) {
      INFO(engine_name(engine) << " engine, sharing " << sharing_name(sharing));
      graphso::testing::RunOptions options;
      options.chunk_bytes = 8192;
      options.engine = engine;
      f(sharing, options);
    }
}

void check_runs(const StoreGraph& g, const EdgeSet& expected, ReaderFactory& readers) {
  for_each_setting([&](Sharing sharing, const graphso::testing::RunOptions& options) {
    auto batch = graphso::testing::run_batch_on_store(g, kJobs, sharing, budget(g), readers, options);
    REQUIRE(batch.report.io.bytes_read > 0);
    REQUIRE(batch.report.engine == engine_name(options.engine));
    for (size_t j = 0; j < batch.jobs.size(); ++j)
      graphso::testing::check_against_reference(batch.specs[j], *batch.jobs[j], expected);
  });
}

// The TChunk table cut from the open's page outlines is byte for byte the one a build that reads
// and decodes every page writes, and it reads nothing (the layout's files may be gone); an outline
// that disagrees with the out-degrees is an error, not a table that hides edges.
void require_outlined_table(const StoreGraph& g, TempDir& dir) {
  REQUIRE(g.layout().page_outlines.size() == g.layout().stored_bytes() / kPackedPageBytes);
  EngineLayout outlined = g.layout(), read = g.layout();
  outlined.name = read.name = "gridgraph";
  outlined.dir = dir.file("outlined");
  read.dir = dir.file("read");
  std::filesystem::create_directories(outlined.dir);
  std::filesystem::create_directories(read.dir);
  read.page_outlines.clear();
  for (const uint64_t chunk_bytes : {uint64_t{8192}, uint64_t{65536}}) {
    INFO("chunk bytes " << chunk_bytes);
    EngineLayout gone = outlined;
    for (std::string& f : gone.files) f = dir.file("missing") + f;
    const TChunkTable table = TChunkTable::build_and_save(gone, chunk_bytes, TChunkTable::kWholeIndex);
    TChunkTable::build_and_save(read, chunk_bytes, TChunkTable::kWholeIndex);
    REQUIRE(table.chunks().size() > 1);
    REQUIRE(read_small_file(TChunkTable::path(gone, chunk_bytes)) == read_small_file(TChunkTable::path(read, chunk_bytes)));
  }
  EngineLayout damaged = outlined;
  damaged.page_outlines[damaged.page_outlines.size() / 2].edges += 1;
  REQUIRE_THROWS_WITH(TChunkTable::build(damaged, 8192), Catch::Contains("its sources' out-degrees"));
}

}  // namespace

TEST_CASE("store run: a batch on a store equals the reference at its version, in every store and sharing mode") {
  const StoreMode mode = GENERATE(StoreMode::XPGraph, StoreMode::Naive, StoreMode::Dgap, StoreMode::Gear, StoreMode::Ftgraph);
  const bool weighted = GENERATE(false, true);
  INFO(store_mode_name(mode) << (weighted ? ", weighted" : ""));
  const bool sets = mode == StoreMode::Ftgraph;  // the reference is the deduplicated edge set
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(11, 8, weighted, 31, dir);
  // Deletions of every fifth edge (each removes the earliest occurrence, whatever its weight).
  std::vector<WeightedEdge> deletes;
  for (size_t i = 0; i < set.edges.size(); i += 5) deletes.push_back(set.edges[i]);
  // Then, after a checkpoint, a few edges from the first sources only: the log after it touches
  // few sections.
  std::vector<WeightedEdge> late;
  for (uint32_t i = 0; i < 50; ++i)
    late.push_back({i % 8, static_cast<VertexId>(i * 37 % set.vertices), weighted ? 1 + i % 5 : 1});
  // And a few deletions of edges of the last sources: the log after the checkpoint inserts into
  // some pages and deletes from others.
  std::vector<WeightedEdge> late_deletes;
  for (size_t i = 1; i < set.edges.size() && late_deletes.size() < 6; i += 5)
    if (set.edges[i].src >= set.vertices * 3 / 4) late_deletes.push_back(set.edges[i]);
  REQUIRE(late_deletes.size() == 6);
  std::vector<EdgeOp> ops = graphso::testing::adds_of(std::span<const WeightedEdge>(set.edges));
  for (const WeightedEdge& e : deletes) ops.push_back({e.src, e.dst, true});
  for (const EdgeOp& op : graphso::testing::adds_of(std::span<const WeightedEdge>(late))) ops.push_back(op);
  for (const WeightedEdge& e : late_deletes) ops.push_back({e.src, e.dst, true});
  const EdgeSet expected = edges_of(adjacency_of(ops, set.vertices, sets), set.vertices);

  const std::string path = dir.file("store.pm");
  {
    auto s = GraphStore::create(path, default_geometry(set.vertices, set.edges.size() * 2, 16384, weighted, mode), mode,
                                {.threads = 2, .tuning = {{"section-log", 32}}});
    for (size_t at = 0; at < set.edges.size(); at += 500)
      s->add_edges(std::span(set.edges).subspan(at, std::min<size_t>(500, set.edges.size() - at)));
    for (size_t at = 0; at < deletes.size(); at += 300)
      s->del_edges(std::span(deletes).subspan(at, std::min<size_t>(300, deletes.size() - at)));
    s->flush_to_blocks();
    s->add_edges(std::span<const WeightedEdge>(late));
    s->del_edges(std::span<const WeightedEdge>(late_deletes));
    if (mode == StoreMode::Naive) s->close();
    // Not flushed (xpgraph, dgap, gear): the last operations are still only in the log.
  }
  ReaderFactory readers{ReaderOptions{}};
  auto g = StoreGraph::open(path, "", readers);
  REQUIRE(g->info().version == set.edges.size() + deletes.size() + late.size() + late_deletes.size());
  REQUIRE(g->info().edges == expected.edges.size());
  if (mode == StoreMode::Dgap) {
    // Sections with a logged deletion are rewritten (at most one each), the others read in place,
    // and the insertions logged into them laid out apart, every one.
    REQUIRE(g->info().pages_in_place > 0);
    REQUIRE(g->info().pages_rewritten > 0);
    REQUIRE(g->info().pages_rewritten <= late_deletes.size());
    REQUIRE(g->info().edges_inserted_apart == late.size());
    REQUIRE(g->info().insertion_pages == 1);
  } else {
    REQUIRE(g->info().pages_in_place == 0);
    // Laid out by one thread, or by three over their ranges of sources (uneven cuts): the same
    // degrees and the same lists read; the batch below runs on the two threads' layout.
    ReaderFactory one_readers{ReaderOptions{}}, three_readers{ReaderOptions{}};
    auto one = StoreGraph::open(path, "", one_readers, 1);
    auto three = StoreGraph::open(path, "", three_readers, 3);
    std::vector<uint32_t> degrees(set.vertices, 0);
    for (const WeightedEdge& e : expected.edges) ++degrees[e.src];
    REQUIRE(one->graph().out_degrees() == degrees);
    REQUIRE(three->graph().out_degrees() == degrees);
    REQUIRE(g->graph().out_degrees() == degrees);
    REQUIRE(three->info().edges == expected.edges.size());
    REQUIRE(one->info().lists_read == three->info().lists_read);
    REQUIRE(one->info().lists_read > 0);
  }
  require_outlined_table(*g, dir);
  check_runs(*g, expected, readers);
  if (mode == StoreMode::Dgap) {
    // The layers' out-degrees (pages in place, insertions apart) are charged to --mem with the
    // vertex state: the same batch after a checkpoint (one layer, no per-layer arrays) charges
    // two arrays less.
    uint64_t layers = 0;
    for (const auto* d : g->layout().layer_degrees) layers += d != nullptr;
    REQUIRE(layers == 2);
    const auto layered = graphso::testing::run_batch_on_store(*g, {"bfs:source=0"}, Sharing::Chunk, budget(*g), readers);
    {
      auto s = GraphStore::open(path, {.threads = 2});
      s->flush_to_blocks();
    }
    ReaderFactory after_readers{ReaderOptions{}};
    auto flat = StoreGraph::open(path, "", after_readers);
    REQUIRE(flat->layout().layer_degrees.empty());
    const auto one = graphso::testing::run_batch_on_store(*flat, {"bfs:source=0"}, Sharing::Chunk, budget(*flat), after_readers);
    REQUIRE(layered.report.vertex_state_bytes == one.report.vertex_state_bytes + 2 * set.vertices * sizeof(uint32_t));
  }
}

TEST_CASE("store run: a damaged dgap page read in place is an error naming it, the first in section order, on any threads") {
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(11, 8, false, 35, dir);
  const std::string path = dir.file("store.pm");
  {
    auto s = GraphStore::create(path, default_geometry(set.vertices, set.edges.size(), 2048, false, StoreMode::Dgap),
                                StoreMode::Dgap, {.threads = 2});
    s->add_edges(std::span<const WeightedEdge>(set.edges));
    s->flush_to_blocks();
  }
  std::vector<store::ViewPage> pages = store::StoreView::open(path)->pages_in_place().value();
  std::erase_if(pages, [](const store::ViewPage& p) { return p.page == 0; });
  REQUIRE(pages.size() >= 8);
  // Two damaged pages, far apart: the lower section's is named, whatever the threads' order.
  const store::ViewPage& low = pages[pages.size() / 4];
  const store::ViewPage& high = pages[pages.size() * 3 / 4];
  uint64_t low_section = 0;
  {
    const auto all = store::StoreView::open(path)->pages_in_place().value();
    while (all[low_section].page != low.page) ++low_section;
  }
  graphso::testing::flip_bit(path, high.offset + 100, 3);
  graphso::testing::flip_bit(path, low.offset + 2000, 5);
  for (const int threads : {1, 2, 3}) {
    INFO(threads << " threads");
    ReaderFactory readers{ReaderOptions{}};
    const std::string message = graphso::testing::error_of([&] { StoreGraph::open(path, "", readers, threads); });
    REQUIRE(message == fmt::format("{}: corrupt store: page {} (section {}) does not match its checksum", path, low.page,
                                   low_section));
  }
}

TEST_CASE("store run: a dgap store checkpointed is read wholly in place, and its version holds while the writer goes on") {
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(11, 8, false, 33, dir);
  const size_t half = set.edges.size() / 2;
  const std::string path = dir.file("store.pm");
  auto s = GraphStore::create(path, default_geometry(set.vertices, set.edges.size(), 2048, false, StoreMode::Dgap),
                              StoreMode::Dgap, {.threads = 2, .tuning = {{"section-log", 16}}});
  s->add_edges(std::span(set.edges).first(half));
  s->flush_to_blocks();
  ReaderFactory readers{ReaderOptions{}};
  auto g = StoreGraph::open(path, "", readers);
  REQUIRE(g->info().pages_rewritten == 0);
  REQUIRE(g->info().pages_in_place == g->layout().stored_bytes() / 4096);
  // The writer rewrites every section several times and commits checkpoints meanwhile.
  for (size_t at = half; at < set.edges.size(); at += 200)
    s->add_edges(std::span(set.edges).subspan(at, std::min<size_t>(200, set.edges.size() - at)));
  s->flush_to_blocks();
  REQUIRE(s->status().counter("merges") > 50);
  EdgeSet first_half;
  first_half.vertices = set.vertices;
  first_half.edges.assign(set.edges.begin(), set.edges.begin() + static_cast<long>(half));
  check_runs(*g, first_half, readers);
}

// A run whose store is rebuilt under it (a growth, a compaction) keeps reading its version from
// the file it opened, and is told.
TEST_CASE("store run: a run whose store is rebuilt meanwhile keeps its version and knows it") {
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(10, 8, false, 35, dir);
  const size_t half = set.edges.size() / 2;
  const std::string path = dir.file("store.pm");
  auto s = GraphStore::create(path, default_geometry(set.vertices, set.edges.size(), 2048, false, StoreMode::Gear),
                              StoreMode::Gear, {.threads = 2});
  s->add_edges(std::span(set.edges).first(half));
  ReaderFactory readers{ReaderOptions{}};
  auto g = StoreGraph::open(path, "", readers);
  REQUIRE(!g->replaced());
  s->add_edges(std::span(set.edges).subspan(half));
  REQUIRE(!g->replaced());  // written in place: the same file
  s->reclaim();
  REQUIRE(g->replaced());
  EdgeSet first_half;
  first_half.vertices = set.vertices;
  first_half.edges.assign(set.edges.begin(), set.edges.begin() + static_cast<long>(half));
  check_runs(*g, first_half, readers);
}

// Jobs that pin different versions run in one batch over one layout: in dgap, every page the
// versions share is one page of the layout (read once in a round for all their jobs), and only
// what differs (the insertions logged between them, a page a deletion changed) is laid out per
// version. Each job's results equal the reference at its own version, in both engines and every
// sharing mode, and the bytes a round reads for two versions 1% apart are within 1.1x of one's.
TEST_CASE("store run: jobs at several versions share one layout and equal the reference at theirs") {
  const StoreMode mode = GENERATE(StoreMode::Dgap, StoreMode::XPGraph);
  const bool weighted = GENERATE(false, true);
  INFO(store_mode_name(mode) << (weighted ? ", weighted" : ""));
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(15, 8, weighted, 37, dir);
  // After a checkpoint: 1% more edges (version v1), then 1% more and a few deletions of edges of
  // the last sources (version v2, the head).
  std::mt19937_64 random(5);
  auto new_edges = [&](size_t n) {
    std::vector<WeightedEdge> edges;
    for (size_t i = 0; i < n; ++i)
      edges.push_back({static_cast<VertexId>(random() % set.vertices), static_cast<VertexId>(random() % set.vertices),
                       weighted ? static_cast<Weight>(1 + random() % 9) : 1});
    return edges;
  };
  const std::vector<WeightedEdge> first = new_edges(set.edges.size() / 100), second = new_edges(set.edges.size() / 100);
  std::vector<WeightedEdge> deletes;
  for (size_t i = 3; i < set.edges.size() && deletes.size() < 3; i += 97)
    if (set.edges[i].src >= set.vertices * 7 / 8) deletes.push_back(set.edges[i]);
  REQUIRE(deletes.size() == 3);
  std::vector<EdgeOp> ops = graphso::testing::adds_of(std::span<const WeightedEdge>(set.edges));
  const uint64_t v0 = ops.size();
  for (const EdgeOp& op : graphso::testing::adds_of(std::span<const WeightedEdge>(first))) ops.push_back(op);
  const uint64_t v1 = ops.size();
  for (const EdgeOp& op : graphso::testing::adds_of(std::span<const WeightedEdge>(second))) ops.push_back(op);
  for (const WeightedEdge& e : deletes) ops.push_back({e.src, e.dst, true});
  const uint64_t v2 = ops.size();
  const std::string path = dir.file("store.pm");
  {
    auto s = GraphStore::create(path, default_geometry(set.vertices, set.edges.size() * 2, 16384, weighted, mode), mode,
                                {.threads = 2});
    s->add_edges(std::span<const WeightedEdge>(set.edges));
    s->flush_to_blocks();
    s->add_edges(std::span<const WeightedEdge>(first));
    s->add_edges(std::span<const WeightedEdge>(second));
    s->del_edges(std::span<const WeightedEdge>(deletes));
  }
  std::vector<EdgeSet> expected;
  for (uint64_t v : {v0, v1, v2})
    expected.push_back(edges_of(adjacency_of(std::span(ops).first(v), set.vertices), set.vertices));

  ReaderFactory readers{ReaderOptions{}};
  auto g = StoreGraph::open(path, "", readers, 2, {v1, v0});
  REQUIRE(g->versions() == std::vector<uint64_t>{v0, v1, v2});
  REQUIRE(g->info().version == v2);
  for (uint32_t k = 0; k < 3; ++k) {
    INFO("version " << g->versions()[k]);
    std::vector<uint32_t> degrees(set.vertices, 0);
    for (const WeightedEdge& e : expected[k].edges) ++degrees[e.src];
    REQUIRE(g->out_degrees(k) == degrees);
    REQUIRE(g->edges(k) == expected[k].edges.size());
    // The reference reads the store's own view at the version, not the layout.
    ReferenceGraph reference = g->reference(k);
    REQUIRE(reference.edges.size() == expected[k].edges.size());
  }
  if (mode == StoreMode::Dgap) {
    // Every page once for all three; a deleted-from page once more, for v2 only; the insertions apart.
    REQUIRE(g->info().pages_in_place > 0);
    REQUIRE(g->info().pages_rewritten >= 1);
    REQUIRE(g->info().pages_rewritten <= 2 * deletes.size());
    // Each insertion once (those into a deleted-from page are in its rewrite for v2 instead).
    REQUIRE(g->info().edges_inserted_apart <= first.size() + second.size());
    REQUIRE(g->info().edges_inserted_apart >= (first.size() + second.size()) * 9 / 10);
    REQUIRE(g->layout().partition_views.size() == g->layout().partitions.size());
  }
  const std::vector<std::string> jobs = {
      fmt::format("bfs:source=0:version={}", v0), fmt::format("wcc:version={}", v0),
      fmt::format("pagerank:iterations=10:version={}", v1), fmt::format("sssp:source=0:version={}", v1),
      fmt::format("bfs:source=0:version={}", v1), "bfs:source=0", "wcc", "pagerank:iterations=10"};
  const std::vector<uint32_t> at = {0, 0, 1, 1, 1, 2, 2, 2};  // each job's version
  for_each_setting([&](Sharing sharing, const graphso::testing::RunOptions& options) {
    auto batch = graphso::testing::run_batch_on_store(*g, jobs, sharing, budget(*g), readers, options);
    for (size_t j = 0; j < batch.jobs.size(); ++j) {
      INFO(batch.specs[j].name);
      REQUIRE(batch.report.jobs[j].version == g->versions()[at[j]]);
      graphso::testing::check_against_reference(batch.specs[j], *batch.jobs[j], expected[at[j]]);
    }
  });
  if (mode == StoreMode::Dgap) {
    // Partition sharing, no cache: a WCC at v1 beside one at v2 reads what one at v2 reads, and
    // the pages the versions do not share.
    ReaderFactory one_readers{ReaderOptions{}};
    auto one = StoreGraph::open(path, "", one_readers, 2);
    REQUIRE(one->versions() == std::vector<uint64_t>{v2});
    const uint64_t alone = graphso::testing::run_batch_on_store(*one, {"wcc"}, Sharing::Partition, budget(*one), one_readers)
                               .report.io.bytes_read;
    const uint64_t beside = graphso::testing::run_batch_on_store(*g, {fmt::format("wcc:version={}", v1), "wcc"},
                                                                 Sharing::Partition, budget(*g), readers)
                                .report.io.bytes_read;
    INFO("bytes alone " << alone << ", beside " << beside);
    REQUIRE(beside >= alone);
    REQUIRE(static_cast<double>(beside) <= 1.1 * static_cast<double>(alone));
  }
  // A version the store no longer keeps (before its checkpoint) or has not reached is an error.
  REQUIRE_THROWS_WITH(StoreGraph::open(path, "", readers, 2, {v0 - 1}), Catch::Contains("is not in the store"));
  REQUIRE_THROWS_WITH(StoreGraph::open(path, "", readers, 2, {v2 + 1}), Catch::Contains("is not in the store"));
}

// ftgraph changes its trees in place and keeps no log: only its current version can be read, and
// a job pinning an older one is refused, not run at the current one.
TEST_CASE("store run: a store that changes its units in place keeps only its current version") {
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(9, 4, false, 39, dir);
  const std::string path = dir.file("store.pm");
  {
    auto s = GraphStore::create(path, default_geometry(set.vertices, set.edges.size(), 2048, false, StoreMode::Ftgraph),
                                StoreMode::Ftgraph, {.threads = 2});
    s->add_edges(std::span<const WeightedEdge>(set.edges).first(1000));
    s->add_edges(std::span<const WeightedEdge>(set.edges).subspan(1000));
    s->close();
  }
  ReaderFactory readers{ReaderOptions{}};
  const uint64_t head = StoreGraph::open(path, "", readers)->info().version;
  REQUIRE(head == set.edges.size());
  REQUIRE(StoreGraph::open(path, "", readers, 2, {head}, false)->versions() == std::vector<uint64_t>{head});
  REQUIRE_THROWS_WITH(StoreGraph::open(path, "", readers, 2, {1000}),
                      Catch::Contains(fmt::format("version 1000 is not in the store: it keeps versions {} to {}", head, head)));
  REQUIRE_THROWS_WITH(StoreView::open(path, 1000), Catch::Contains("version 1000 is not in the store"));
}
