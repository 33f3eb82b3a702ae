// A store grows on demand (store/store_growth.cc): created from one edge and fed a graph in steps
// of random sizes, with ids past its capacity and deletions between, every mode ends up holding
// exactly the model's graph; a view opened before a growth keeps its version; the log positions
// and input records carry over; a full device during growth leaves the old store usable.
#include <catch2/catch.hpp>
#include <filesystem>
#include <random>
#include <tuple>

#include "store/graph_store.h"
#include "store/input_resume.h"
#include "store/store_check.h"
#include "store/store_view.h"
#include "tests/store_checks.h"
#include "tests/test_graphs.h"

using namespace graphso;
using namespace graphso::store;
using graphso::testing::adjacency_of;
using graphso::testing::EdgeOp;
using graphso::testing::require_store_equals;
using graphso::testing::TempDir;

namespace {

using EdgeTuple = std::tuple<VertexId, VertexId, Weight>;

// The edges a view shows, sorted.
std::vector<EdgeTuple> view_edges(const StoreView& view) {
  std::vector<EdgeTuple> edges;
  view.out_edges(0, static_cast<VertexId>(view.vertices()), [&](std::span<const WeightedEdge> piece) {
    for (const WeightedEdge& e : piece) edges.emplace_back(e.src, e.dst, e.weight);
  });
  std::sort(edges.begin(), edges.end());
  return edges;
}

std::vector<EdgeTuple> model_edges(const graphso::testing::AdjacencyModel& model) {
  std::vector<EdgeTuple> edges;
  for (VertexId v = 0; v < model.out_edges.size(); ++v)
    for (const auto& [n, w] : model.out_edges[v]) edges.emplace_back(v, n, w);
  std::sort(edges.begin(), edges.end());
  return edges;
}

// One in `of` of the live edges after `ops`, chosen at random: what a churn round deletes.
std::vector<Edge> live_sample(const std::vector<EdgeOp>& ops, uint64_t vertices, bool sets, size_t of,
                              std::mt19937_64& random) {
  const auto model = adjacency_of(ops, vertices, sets);
  std::vector<Edge> live;
  for (VertexId v = 0; v < model.out.size(); ++v)
    for (VertexId u : model.out[v]) live.push_back({v, u});
  std::shuffle(live.begin(), live.end(), random);
  live.resize(live.size() / of);
  return live;
}

}  // namespace

TEST_CASE("store growth: a store created from one edge takes a graph in random steps, ids past its capacity and deletions") {
  const std::string mode_name = GENERATE("xpgraph", "naive", "dgap", "gear", "ftgraph");
  const bool weighted = GENERATE(false, true);
  INFO(mode_name << " mode" << (weighted ? ", weighted" : ""));
  const StoreMode mode = parse_store_mode(mode_name);
  const bool sets = mode == StoreMode::Ftgraph;
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(12, 8, weighted, 41, dir);
  const std::span<const WeightedEdge> all(set.edges);
  const std::string path = dir.file("store.pm");
  // Sized for its first edge (its vertices, a 16-page block region, a small log), so both the
  // vertex count and the block region grow several times.
  const WeightedEdge& first = all.front();
  const uint64_t start_vertices = std::max(first.src, first.dst) + 1;
  StoreGeometry g = default_geometry(start_vertices, 1, 4096, weighted, mode);
  g.block_units = 16 * kUnitsPerPage;
  auto s = GraphStore::create(path, g, mode, {.threads = 2});
  const uint64_t start_bytes = std::filesystem::file_size(path);
  std::mt19937_64 random(7);
  std::vector<EdgeOp> ops;
  size_t at = 0;
  uint32_t step = 0;
  while (at < all.size()) {
    const size_t n = std::min<size_t>(1 + random() % 3000, all.size() - at);
    const std::span<const WeightedEdge> part = all.subspan(at, n);
    s->add_edges(part);
    for (const WeightedEdge& e : part) ops.push_back({e.src, e.dst, false, e.weight});
    at += n;
    // Every fourth step deletes some of what is there, so a growth copies a graph with holes.
    if (++step % 4 == 0) {
      std::vector<Edge> gone;
      for (size_t i = 0; i < at; i += 5) gone.push_back({all[i].src, all[i].dst});
      s->del_edges(std::span<const Edge>(gone).first(std::min<size_t>(gone.size(), 400)));
      for (size_t i = 0; i < std::min<size_t>(gone.size(), 400); ++i) ops.push_back({gone[i].src, gone[i].dst, true});
    }
  }
  const StoreStatus st = s->status();
  INFO(st.growths << " growths, " << st.growth_edges << " edges copied");
  REQUIRE(st.growths >= 2);
  REQUIRE(st.header.geometry.vertices == std::bit_ceil(set.vertices));
  REQUIRE(st.head == ops.size());  // the log's positions carried over every growth
  REQUIRE(std::filesystem::file_size(path) > start_bytes);
  REQUIRE(!path_exists(path + ".new"));
  const auto model = adjacency_of(ops, st.header.geometry.vertices, sets);
  require_store_equals(*s, model);
  s->close();
  s.reset();
  // The grown file is the store: reopened, checked whole, and read by a view.
  s = GraphStore::open(path, {.threads = 2});
  require_store_equals(*s, model);
  s->close();
  s.reset();
  REQUIRE(check_store(path).read.edges == model.edges);
  REQUIRE(view_edges(*StoreView::open(path)) == model_edges(model));
}

TEST_CASE("store growth: a view opened before a growth keeps its version; the input record carries over") {
  const std::string mode_name = GENERATE("xpgraph", "dgap", "gear", "ftgraph");
  INFO(mode_name << " mode");
  const StoreMode mode = parse_store_mode(mode_name);
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(10, 8, false, 5, dir);
  const std::span<const WeightedEdge> all(set.edges);
  const std::string path = dir.file("store.pm");
  StoreGeometry g = default_geometry(set.vertices, 500, 256, false, mode);
  g.block_units = 16 * kUnitsPerPage;
  auto s = GraphStore::create(path, g, mode, {});
  InputProgress input;
  input.path = "/data/input.bin";
  input.size = 12345;
  input.edges = all.size();
  s->begin_input(input);
  s->add_edges(all.first(400));
  auto before = StoreView::open(path);
  const std::vector<EdgeTuple> seen = view_edges(*before);
  REQUIRE(seen.size() == (mode == StoreMode::Ftgraph ? adjacency_of(graphso::testing::adds_of(all.first(400)), set.vertices, true).edges : 400));
  s->add_edges(all.subspan(400));  // far past the room for 500 edges
  REQUIRE(s->status().growths >= 1);
  // The old view still reads its own file, at its version.
  REQUIRE(before->version() == 400);
  REQUIRE(view_edges(*before) == seen);
  // A new one reads the grown store; the input record and the position it counts from are kept.
  auto after = StoreView::open(path);
  REQUIRE(after->version() == all.size());
  const InputRecords records = s->input();
  REQUIRE(records.current);
  REQUIRE(records.current->same_input(input));
  REQUIRE(s->status().head - records.current->start == all.size());
  // A resumed ingest of the same input counts what is done from those positions.
  REQUIRE(resume_input(*s, input, std::nullopt) == all.size());
}

TEST_CASE("store growth: an id past 2^31 and a deletion past the capacity are still errors") {
  TempDir dir;
  const std::string path = dir.file("store.pm");
  auto s = GraphStore::create(path, default_geometry(10, 100, 64), StoreMode::XPGraph, {});
  s->add_edge(1, 2);
  std::vector<Edge> far = {{3, 4}, {5, static_cast<VertexId>(kMaxStoreVertices)}};
  REQUIRE_THAT(graphso::testing::error_of([&] { s->add_edges(far); }), Catch::Contains("is outside the store's 10 vertices"));
  std::vector<Edge> gone = {{5, 10}};
  REQUIRE(graphso::testing::error_of([&] { s->del_edges(gone); }) == path + ": edge 5 -> 10 is outside the store's 10 vertices");
  REQUIRE(s->status().head == 1);
  REQUIRE(s->status().growths == 0);
  // Within 2^31 an id grows the store to the power of two above it.
  s->add_edge(5, 1000);
  REQUIRE(s->status().header.geometry.vertices == 1024);
  REQUIRE(s->out_neighbours(5) == std::vector<VertexId>{1000});
  REQUIRE(s->out_neighbours(1) == std::vector<VertexId>{2});
}

TEST_CASE("store growth: after churn a compacted store is at most twice a fresh one of its live edges") {
  const std::string mode_name = GENERATE("xpgraph", "naive", "dgap", "gear", "ftgraph");
  INFO(mode_name << " mode");
  const StoreMode mode = parse_store_mode(mode_name);
  const bool sets = mode == StoreMode::Ftgraph;
  TempDir dir;
  // Load N edges, then five times: delete half of the live edges, insert as many new ones.
  EdgeSet set = graphso::testing::rmat_edges(12, 16, false, 77, dir);
  const std::span<const WeightedEdge> all(set.edges);
  const size_t n = all.size() / 4;
  const std::string path = dir.file("store.pm");
  // Its block region tight (16 pages): it grows during the load, and the churn fills it with what
  // deletions, merges and relocations leave behind.
  StoreGeometry g = default_geometry(set.vertices, n, 1 << 14, false, mode);
  g.block_units = 16 * kUnitsPerPage;
  auto s = GraphStore::create(path, g, mode, {.threads = 2});
  std::vector<EdgeOp> ops = graphso::testing::adds_of(all.first(n));
  s->add_edges(all.first(n));
  std::mt19937_64 random(3);
  size_t next = n;
  for (int round = 0; round < 5; ++round) {
    const std::vector<Edge> live = live_sample(ops, set.vertices, sets, 2, random);
    s->del_edges(live);
    for (const Edge& e : live) ops.push_back({e.src, e.dst, true});
    const std::span<const WeightedEdge> fresh = all.subspan(next, std::min(live.size(), all.size() - next));
    s->add_edges(fresh);
    for (const WeightedEdge& e : fresh) ops.push_back({e.src, e.dst, false, e.weight});
    next += fresh.size();
  }
  const auto model = adjacency_of(ops, set.vertices, sets);
  s->close();
  const uint64_t churned = std::filesystem::file_size(path);
  s->reclaim();
  const uint64_t compacted = std::filesystem::file_size(path);
  require_store_equals(*s, model);
  s->close();
  s.reset();
  // A fresh store of the same mode, created for the live edges and fed them.
  std::vector<WeightedEdge> live;
  for (VertexId v = 0; v < model.out_edges.size(); ++v)
    for (const auto& [u, w] : model.out_edges[v]) live.push_back({v, u, w});
  const std::string fresh_path = dir.file("fresh.pm");
  auto f = GraphStore::create(fresh_path, default_geometry(set.vertices, live.size(), 1 << 14, false, mode), mode, {.threads = 2});
  f->add_edges(live);
  f->flush_to_blocks();
  f->close();
  const uint64_t fresh = std::filesystem::file_size(fresh_path);
  INFO("churned " << churned << " bytes, compacted " << compacted << ", fresh " << fresh << ", live edges " << live.size());
  REQUIRE(churned <= 2 * fresh);
  REQUIRE(compacted <= 2 * fresh);
  REQUIRE(compacted <= churned);
  REQUIRE(check_store(path).read.edges == model.edges);
}

// Issue 64, item 4: a reader that holds an old version forever keeps the pages its checkpoint
// names from reuse (dgap's sections, gear's subpages). The writer is not starved: a store that
// runs out of free space while the lease holds it is rebuilt (compact, so no larger than its live
// edges need) into a new file, and the reader goes on reading its version from the old one.
TEST_CASE("store growth: a reader holding an old version forever never starves the writer") {
  const std::string mode_name = GENERATE("dgap", "gear");
  INFO(mode_name << " mode");
  const StoreMode mode = parse_store_mode(mode_name);
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(11, 8, false, 41, dir);
  const std::span<const WeightedEdge> all(set.edges);
  const size_t n = all.size() / 2;
  const std::string path = dir.file("store.pm");
  // A tight block region: the load grows it to about what the edges need, leaving little slack.
  StoreGeometry g = default_geometry(set.vertices, n, 1 << 14, false, mode);
  g.block_units = 8 * kUnitsPerPage;
  auto s = GraphStore::create(path, g, mode, {.threads = 2, .tuning = {{"section-log", 16}, {"wear-levelling", 0}}});
  std::vector<EdgeOp> ops = graphso::testing::adds_of(all.first(n));
  s->add_edges(all.first(n));
  s->flush_to_blocks();
  const uint64_t growths_before = s->status().growths;
  auto reader = StoreView::open(path);
  const std::vector<EdgeTuple> seen = view_edges(*reader);
  const uint64_t file_at_open = std::filesystem::file_size(path);
  // Churn many times the store's room: delete a third of the live edges, insert as many back.
  std::mt19937_64 random(8);
  for (int round = 0; round < 12; ++round) {
    const std::vector<Edge> live = live_sample(ops, set.vertices, false, 3, random);
    s->del_edges(live);
    for (const Edge& e : live) ops.push_back({e.src, e.dst, true});
    s->add_edges(live);
    for (const Edge& e : live) ops.push_back({e.src, e.dst, false});
    s->flush_to_blocks();
  }
  INFO(s->status().growths << " growths; file " << std::filesystem::file_size(path) << " bytes, " << file_at_open
                           << " when the reader opened");
  // The lease held the old pages, so the writer rebuilt rather than fill: at least once, and to a
  // file no more than twice a fresh store of its live edges (compact copies, not a doubling per
  // round).
  REQUIRE(s->status().growths > growths_before);
  const uint64_t fresh = StoreLayout(default_geometry(set.vertices, n, 1 << 14, false, mode)).file_bytes;
  INFO("a fresh store of the live edges: " << fresh << " bytes");
  REQUIRE(std::filesystem::file_size(path) <= 2 * fresh);
  require_store_equals(*s, adjacency_of(ops, set.vertices));
  // The reader still reads exactly its version.
  REQUIRE(reader->version() == n);
  REQUIRE(view_edges(*reader) == seen);
}
