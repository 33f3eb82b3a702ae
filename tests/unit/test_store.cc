// The evolving-graph store (store/): neighbour queries against an in-memory model after
// ingest, deletions, compaction and recovery, with 1 and 2 threads, in both modes; the log
// wrapping under constant checkpoints; snapshots through every job against the reference; and
// damaged stores.
#include <immintrin.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <atomic>
#include <filesystem>
#include <random>
#include <thread>

#include "base/file.h"
#include "base/packed_pages.h"
#include "store/buffer_pool.h"
#include "store/dgap/sections.h"
#include "store/ftgraph/op_ring.h"
#include "store/ftgraph/tree_format.h"
#include "store/graph_store.h"
#include "store/input_resume.h"
#include "store/pmem_file.h"
#include "store/snapshot.h"
#include "store/store_check.h"
#include "store/store_stat.h"
#include "store/store_view.h"
#include "store/xpgraph/block_format.h"
#include "engine/xstream/xstream_layout.h"
#include "prep/store_snapshot.h"
#include "tests/store_checks.h"
#include "tests/test_graphs.h"

using namespace graphso;
using namespace graphso::store;
using graphso::testing::AdjacencyModel;
using graphso::testing::adjacency_of;
using graphso::testing::EdgeOp;
using graphso::testing::require_store_equals;
using graphso::testing::TempDir;

namespace {

std::vector<Edge> plain_edges(const EdgeSet& set) {
  std::vector<Edge> edges;
  for (const WeightedEdge& e : set.edges) edges.push_back({e.src, e.dst});
  return edges;
}

// Deletions of a third of the edges (some twice) and of edges that were never added.
std::vector<Edge> deletions_for(const std::vector<Edge>& edges, uint64_t vertices, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<Edge> deletes;
  for (size_t i = 0; i < edges.size(); i += 3) {
    deletes.push_back(edges[i]);
    if (i % 7 == 0) deletes.push_back(edges[i]);
  }
  for (int i = 0; i < 200; ++i)
    deletes.push_back({static_cast<VertexId>(random() % vertices), static_cast<VertexId>(random() % vertices)});
  std::shuffle(deletes.begin(), deletes.end(), random);
  return deletes;
}

template <typename EdgeRecord>
void add_in_batches(GraphStore& s, std::span<const EdgeRecord> edges, size_t batch, bool deletes = false) {
  for (size_t at = 0; at < edges.size(); at += batch) {
    auto part = edges.subspan(at, std::min(batch, edges.size() - at));
    deletes ? s.del_edges(part) : s.add_edges(part);
  }
}
void add_in_batches(GraphStore& s, const std::vector<Edge>& edges, size_t batch, bool deletes = false) {
  add_in_batches(s, std::span<const Edge>(edges), batch, deletes);
}

template <typename EdgeRecord>
std::vector<EdgeOp> ops_of(std::span<const EdgeRecord> adds, std::span<const Edge> deletes) {
  std::vector<EdgeOp> ops = graphso::testing::adds_of(adds);
  for (const Edge& e : deletes) ops.push_back({e.src, e.dst, true});
  return ops;
}

}  // namespace

TEST_CASE("store: neighbour queries equal the input after ingest, deletes, compaction and recovery") {
  const bool weighted = GENERATE(false, true);
  const uint32_t threads = GENERATE(1u, 2u);
  const StoreMode mode = GENERATE(StoreMode::XPGraph, StoreMode::Naive, StoreMode::Dgap, StoreMode::Gear, StoreMode::Ftgraph);
  const bool sets = mode == StoreMode::Ftgraph;  // set semantics: the model keeps one of each edge
  const uint32_t max_buffer = mode == StoreMode::XPGraph || mode == StoreMode::Gear ? GENERATE(256u, 64u, 16u) : 256u;
  // gear: both allocation policies (levelling off reuses freed subpages first).
  const bool wear_levelling = mode == StoreMode::Gear ? GENERATE(true, false) : true;
  INFO(store_mode_name(mode) << ", " << threads << " threads, buffers up to " << max_buffer << " bytes"
                             << (weighted ? ", weighted" : "") << (wear_levelling ? "" : ", wear levelling off"));
  TempDir dir;
  // Weighted: the store keeps each edge's weight through buffers, blocks, deletions (which remove
  // the earliest live occurrence whatever its weight), compaction and recovery.
  EdgeSet set = graphso::testing::rmat_edges(11, 8, weighted, 5, dir);
  std::vector<Edge> plain = plain_edges(set);
  std::span<const WeightedEdge> weighted_adds(set.edges);
  std::vector<Edge> deletes = deletions_for(plain, set.vertices, 9);
  auto ops = [&](std::span<const Edge> deleted) {
    return weighted ? ops_of(weighted_adds, deleted) : ops_of(std::span<const Edge>(plain), deleted);
  };
  auto model = [&](std::span<const Edge> deleted) { return adjacency_of(ops(deleted), set.vertices, sets); };
  const uint64_t words = weighted ? 2 : 1;
  const std::string path = dir.file("store.pm");
  // A log of 1000 slots under 16K edges: it wraps and forces a checkpoint every few batches.
  StoreGeometry geometry = default_geometry(set.vertices, plain.size() + deletes.size(), 1000, weighted, mode);
  // dgap: section logs of 32 operations, so sections merge and split between checkpoints too.
  StoreOptions options{.threads = threads,
                       .tuning = {{"max-buffer", max_buffer}, {"archive-threshold", 300}, {"section-log", 32},
                                  {"wear-levelling", wear_levelling ? 1 : 0}}};
  {
    auto s = GraphStore::create(path, geometry, mode, options);
    REQUIRE(s->header().geometry.weighted == weighted);
    if (weighted) add_in_batches(*s, weighted_adds, 257);
    else add_in_batches(*s, plain, 257);
    require_store_equals(*s, model({}));
    if (mode != StoreMode::Naive && !sets) REQUIRE(s->status().checkpoints >= plain.size() / 1000 - 1);
    if (sets) {
      // R-MAT repeats edges: each repeat was counted and not stored; hubs grew their roots and branched.
      const AdjacencyModel all = model({});
      INFO("duplicates " << s->status().counter("duplicates") << ", branch-outs " << s->status().counter("branch_outs") << ", scale-ups "
                         << s->status().counter("scale_ups"));
      REQUIRE(s->status().counter("duplicates") == plain.size() - all.edges);
      REQUIRE(s->status().counter("duplicates") > 100);
      REQUIRE((s->status().counter("branch_outs") > 10 && s->status().counter("scale_ups") > 100));
    }
    if (mode == StoreMode::Gear) {
      // Lists outgrew their subpages and moved, each taking its words along.
      INFO("relocations " << s->status().counter("relocations") << ", relocated bytes " << s->status().counter("relocated_bytes"));
      REQUIRE((s->status().counter("relocations") > set.vertices / 4 && s->status().counter("relocated_bytes") > 4 * s->status().counter("relocations")));
    }
    if (mode == StoreMode::Dgap) {
      INFO("merges " << s->status().counter("merges") << ", splits " << s->status().counter("splits") << ", checkpoints " << s->status().checkpoints);
      REQUIRE((s->status().counter("merges") > s->status().checkpoints && s->status().counter("splits") >= 5));
    }
    add_in_batches(*s, deletes, 111, true);
    require_store_equals(*s, model(deletes));
    if (sets) {
      // A deletion of an absent edge (never added, or deleted already) is counted and does nothing.
      REQUIRE(s->status().counter("absent_deletes") == deletes.size() - (model({}).edges - model(deletes).edges));
      // Deleted slots take new edges: re-adding the deleted ones lands on the graph before them.
      add_in_batches(*s, deletes, 111);
      std::vector<EdgeOp> again = ops(deletes);
      for (const Edge& e : deletes) again.push_back({e.src, e.dst, false, 1});
      require_store_equals(*s, adjacency_of(again, set.vertices, true));
      add_in_batches(*s, deletes, 111, true);
    }
    if (mode == StoreMode::Naive) s->close();
    // Destroyed without a checkpoint (XPGraph): like a crash that keeps the page cache.
  }
  AdjacencyModel expected = model(deletes);
  auto s = GraphStore::open(path, options);
  if (mode != StoreMode::Naive && !sets) REQUIRE(s->status().replayed > 0);
  require_store_equals(*s, expected);
  if (mode == StoreMode::Dgap) {
    // A checkpoint merges every section log; reopened, nothing is replayed, and every reader agrees.
    s->compact();
    require_store_equals(*s, expected);
    REQUIRE(s->status().counter("pending") == 0);
    REQUIRE(s->status().counter("section_edges") == expected.edges);
    s.reset();
    s = GraphStore::open(path, options);
    REQUIRE(s->status().replayed == 0);
    require_store_equals(*s, expected);
    REQUIRE(check_store(path).read.edges == expected.edges);
  } else if (mode == StoreMode::Gear) {
    // Compaction rewrites the lists deletions left tombstones in to their live entries: every
    // vertex with live edges in a direction has one list there, the others none.
    s->compact();
    require_store_equals(*s, expected);
    s.reset();
    s = GraphStore::open(path, options);
    REQUIRE(s->status().replayed == 0);
    require_store_equals(*s, expected);
    uint64_t lists = 0;
    for (const auto* adjacency : {&expected.out, &expected.in})
      for (const auto& list : *adjacency) lists += list.empty() ? 0 : 1;
    const SnapshotInfo info = check_store(path).read;
    REQUIRE(info.edges == expected.edges);
    REQUIRE(info.blocks + info.in_blocks == lists);
  } else if (mode == StoreMode::XPGraph) {
    s->compact();
    require_store_equals(*s, expected);
    StoreStatus after = s->status();
    REQUIRE(after.flushed == after.head);
    s.reset();
    s = GraphStore::open(path, options);
    REQUIRE(s->status().replayed == 0);
    require_store_equals(*s, expected);
    // After compaction every chain is a run of full blocks and at most one smallest-fitting block.
    uint64_t blocks = 0, bytes = 0;
    for (const auto* lists : {&expected.out, &expected.in})
      for (const auto& list : *lists) {
        const uint32_t n = static_cast<uint32_t>(list.size() * words);  // entry words
        blocks += n / kBlockEntries + (n % kBlockEntries ? 1 : 0);
        bytes += n / kBlockEntries * kXPLineBytes;
        if (n % kBlockEntries) bytes += kBlockUnitBytes * block_units(block_class_for(n % kBlockEntries));
      }
    const SnapshotInfo info = check_store(path).read;  // both directions
    REQUIRE(info.edges == expected.edges);
    REQUIRE(info.blocks + info.in_blocks == blocks);
    REQUIRE(info.block_bytes + info.in_block_bytes == bytes);
  } else if (sets) {
    // Nothing to replay: every acknowledged batch is in the trees; both directions agree, every
    // node checked, and store-stat counts each edge once per direction.
    REQUIRE(s->status().replayed == 0);
    REQUIRE(s->status().applying == s->status().head);
    const SnapshotInfo info = check_store(path).read;
    REQUIRE(info.edges == expected.edges);
    const StoreStat stat = read_store_stat(path);
    REQUIRE(stat.mode_value("out_slots_used") == expected.edges);
    REQUIRE(stat.mode_value("out_tree_depth_max") >= 2);
  } else {
    s->close();
  }
}

TEST_CASE("store: single-edge API, buffer_all_edges and flush_all_vbufs") {
  TempDir dir;
  const std::string path = dir.file("store.pm");
  auto s = GraphStore::create(path, default_geometry(100, 1000, 64), StoreMode::XPGraph, {.threads = 2});
  std::vector<EdgeOp> ops;
  for (VertexId i = 0; i < 300; ++i) {
    s->add_edge(i % 7, (i * 13) % 100);
    ops.push_back({i % 7, (i * 13) % 100});
  }
  s->del_edge(3, 39);
  ops.push_back({3, 39, true});
  s->del_edge(99, 98);  // absent: nothing happens
  ops.push_back({99, 98, true});
  require_store_equals(*s, adjacency_of(ops, 100));
  s->buffer_all_edges();
  REQUIRE(s->status().buffered == s->status().head);
  require_store_equals(*s, adjacency_of(ops, 100));
  s->flush_all_vbufs();
  REQUIRE(s->status().flushed == s->status().head);
  REQUIRE(s->status().buffer_bytes > 0);  // pools keep their slabs for reuse
  require_store_equals(*s, adjacency_of(ops, 100));
}

TEST_CASE("store: an input resumes after its acknowledged edges, and store-stat reports where it is") {
  TempDir dir;
  EdgeSet set;
  set.vertices = 50;
  for (VertexId i = 0; i < 1000; ++i) set.edges.push_back({i % 50, (i * 7 + 1) % 50, 1});
  const std::string input = dir.file("in.bin"), other = dir.file("other.bin"), path = dir.file("store.pm");
  graphso::testing::write_edges(input, set);
  set.edges.resize(10);
  graphso::testing::write_edges(other, set);
  EdgeListReader reader(input), other_reader(other);
  const InputProgress id = identify_input(input, reader.info(), false);
  REQUIRE(id.edges == 1000);
  REQUIRE(id.path == std::filesystem::absolute(input).lexically_normal().string());
  REQUIRE_THAT(graphso::testing::error_of([&] { check_input_ids(reader, 40, input); }),
               Catch::Contains("names a vertex outside the store's 40 vertices"));
  std::vector<Edge> edges;
  reader.rewind();
  reader.next_batch(edges, 300);
  {
    auto s = GraphStore::create(path, default_geometry(50, 4096, 1024), StoreMode::XPGraph, {});
    REQUIRE(resume_input(*s, id) == 0);  // a new input: recorded, starts at the log head
    s->add_edges(edges);
  }  // as if killed after 300 acknowledged edges
  StoreStat stat = read_store_stat(path);
  REQUIRE(stat.input);
  REQUIRE(stat.input->path == id.path);
  REQUIRE(stat.input_acknowledged == 300);
  REQUIRE(stat.log_head == 300);
  REQUIRE(stat.snapshot.edges == 300);
  auto s = GraphStore::open(path, {});
  REQUIRE(resume_input(*s, id) == 300);  // the same input: after its acknowledged edges
  // Another input in between: the first one then starts again from its beginning.
  REQUIRE(resume_input(*s, identify_input(other, other_reader.info(), false)) == 0);
  REQUIRE(resume_input(*s, id) == 0);
  REQUIRE(read_store_stat(path).input_acknowledged == 0);
}

TEST_CASE("store: bad edges and bad vertices are errors that change nothing") {
  TempDir dir;
  const std::string path = dir.file("store.pm");
  auto s = GraphStore::create(path, default_geometry(10, 100, 64), StoreMode::XPGraph, {});
  s->add_edge(1, 2);
  // An id past the capacity grows the store (test_store_growth.cc); one past 2^31 cannot be held.
  std::vector<Edge> bad = {{3, 4}, {5, static_cast<VertexId>(kMaxStoreVertices)}};
  REQUIRE(graphso::testing::error_of([&] { s->add_edges(bad); }) ==
          path + ": edge 5 -> 2147483648 is outside the store's 10 vertices");
  REQUIRE(s->status().head == 1);
  REQUIRE(graphso::testing::error_of([&] { s->get_nebrs_out(10); }) == path + ": vertex 10 is outside the store's 10 vertices");
  REQUIRE(graphso::testing::error_of([&] { GraphStore::create(path, default_geometry(10, 100, 64), StoreMode::XPGraph, {}); })
              .find("cannot create the store") != std::string::npos);
  REQUIRE(graphso::testing::error_of([&] { GraphStore::open(dir.file("none.pm"), {}); }) == dir.file("none.pm") + ": no such store");
}

TEST_CASE("store: damaged store files are one-line errors") {
  TempDir dir;
  const std::string path = dir.file("store.pm");
  std::vector<Edge> edges;
  for (VertexId i = 0; i < 500; ++i) edges.push_back({i % 50, (i * 7) % 50});
  {
    auto s = GraphStore::create(path, default_geometry(50, 1000, 256), StoreMode::XPGraph, {});
    s->add_edges(edges);
    s->flush_all_vbufs();
    s->add_edges(std::span<const Edge>(edges).first(100));  // in the log only
  }
  const uint64_t size = File(path, File::Mode::Read).size();
  StoreLayout layout(read_superblock(PmemFile::open(path)).geometry);

  SECTION("truncated") {
    File(path, File::Mode::ReadWrite).truncate(size - 4096);
    REQUIRE(graphso::testing::error_of([&] { GraphStore::open(path, {}); }).find("truncated or damaged store") != std::string::npos);
  }
  SECTION("not a store") {
    File(path, File::Mode::ReadWrite).pwrite_all(as_bytes_of(uint64_t{42}), 0);
    REQUIRE(graphso::testing::error_of([&] { GraphStore::open(path, {}); }) == path + ": not a graphso store (bad magic)");
  }
  SECTION("a block's entries damaged") {
    // Unit 4 holds the first full block flushed (units 1-3: no 256-byte block fits); flip an entry bit.
    File f(path, File::Mode::ReadWrite);
    uint32_t entry = 0;
    f.pread_exact(std::as_writable_bytes(std::span<uint32_t, 1>(&entry, 1)), layout.block_offset(4) + 16);
    entry ^= 1;
    f.pwrite_all(as_bytes_of(entry), layout.block_offset(4) + 16);
    auto s = GraphStore::open(path, {});
    std::string error;
    for (VertexId v = 0; v < 50 && error.empty(); ++v) {
      error = graphso::testing::error_of([&] { s->get_nebrs_out(v); });
      if (error == "(no error)") error = graphso::testing::error_of([&] { s->get_nebrs_in(v); });
      if (error == "(no error)") error.clear();
    }
    REQUIRE(error.find("corrupt store: block unit 4 in the") != std::string::npos);
    REQUIRE(error.find("fails its checksum") != std::string::npos);
    REQUIRE(graphso::testing::error_of([&] { check_store(path); })
                .find("fails its checksum") != std::string::npos);
  }
  SECTION("a logged, not yet checkpointed record with one bit flipped (its lap phase intact)") {
    // Before log line checksums, this edge was silently read as 0 -> another vertex.
    File f(path, File::Mode::ReadWrite);
    const uint64_t offset = layout.record_offset(550);
    uint32_t src = 0;
    f.pread_exact(std::as_writable_bytes(std::span<uint32_t, 1>(&src, 1)), offset);
    src ^= 2;
    f.pwrite_all(as_bytes_of(src), offset);
    const std::string expected = "corrupt store: log records at positions 544..575 do not match their checksum";
    REQUIRE(graphso::testing::error_of([&] { GraphStore::open(path, {}); }).find(expected) != std::string::npos);
    REQUIRE(graphso::testing::error_of([&] { check_store(path); })
                .find(expected) != std::string::npos);
  }
  SECTION("a logged record from another lap") {
    // The last record (position 599, lap 2 of 256 slots) loses its phase: replay must refuse it.
    File f(path, File::Mode::ReadWrite);
    const uint64_t offset = layout.record_offset(599) + 4;
    uint32_t dst = 0;
    f.pread_exact(std::as_writable_bytes(std::span<uint32_t, 1>(&dst, 1)), offset);
    dst ^= kFlagBit;
    f.pwrite_all(as_bytes_of(dst), offset);
    // The line's checksum catches it before the phase is read.
    REQUIRE(graphso::testing::error_of([&] { GraphStore::open(path, {}); }) ==
            path + ": corrupt store: log records at positions 576..599 do not match their checksum");
  }
}

TEST_CASE("store: a naive store that was not closed cleanly is refused") {
  TempDir dir;
  const std::string path = dir.file("naive.pm");
  {
    auto s = GraphStore::create(path, default_geometry(10, 100, 64), StoreMode::Naive, {});
    s->add_edge(1, 2);
  }
  REQUIRE(graphso::testing::error_of([&] { GraphStore::open(path, {}); }) ==
          path + ": the naive store was not closed cleanly, and the naive baseline has no crash recovery");
}

TEST_CASE("store: buffer pool reuses released buffers by size class") {
  BufferPool pool(5);
  uint32_t* a = pool.allocate(0);
  uint32_t* b = pool.allocate(4);
  REQUIRE(a != b);
  pool.release(a, 0);
  REQUIRE(pool.allocate(0) == a);
  pool.release(b, 4);
  REQUIRE(pool.allocate(3) != b);  // another class never gets it
  REQUIRE(pool.allocate(4) == b);
  REQUIRE(pool.reserved_bytes() == BufferPool::kSlabBytes);
}

TEST_CASE("store: a snapshot runs BFS, SSSP, PageRank and WCC equal to the reference") {
  TempDir dir;
  // A real graph, ingested while deletions arrive, then snapshotted and run out of core.
  EdgeSet set = graphso::testing::load_dataset("email-enron-u.el.gz");
  std::vector<Edge> adds = plain_edges(set);
  std::vector<Edge> deletes(adds.begin(), adds.begin() + adds.size() / 10);
  const std::string path = dir.file("store.pm");
  {
    auto s = GraphStore::create(path, default_geometry(set.vertices, adds.size() * 2, 1 << 16), StoreMode::XPGraph,
                                {.threads = 2});
    add_in_batches(*s, adds, 65536);
    add_in_batches(*s, deletes, 4096, true);
  }
  // The graph the store should hold: every edge after the first tenth (the multiset is a set here).
  EdgeSet live;
  live.vertices = set.vertices;
  live.edges.assign(set.edges.begin() + static_cast<long>(deletes.size()), set.edges.end());
  const std::string graph = dir.file("snapshot");
  StoreSnapshotResult first = snapshot_store(path, graph, {});
  REQUIRE(first.rebuilt);
  REQUIRE(first.info.edges == live.edges.size());
  REQUIRE_FALSE(snapshot_store(path, graph, {}).rebuilt);  // unchanged store: not rebuilt
  REQUIRE_FALSE(XStreamLayout::exists(graph));
  // The same prep library as `graphso prep`: asked for both layouts, the snapshot is rebuilt with
  // the X-Stream layout too (and then kept).
  PrepOptions both;
  both.layouts = LayoutSet::Both;
  REQUIRE(snapshot_store(path, graph, both).rebuilt);
  REQUIRE(XStreamLayout::exists(graph));
  REQUIRE_FALSE(snapshot_store(path, graph, both).rebuilt);
  const std::vector<std::string> jobs = {"bfs:source=100", "sssp:source=100", "pagerank:iterations=10", "wcc"};
  for (EngineKind engine : graphso::testing::kEngines)
    for (Sharing mode : {Sharing::Independent, Sharing::Partition, Sharing::Chunk}) {
      INFO("engine " << engine_name(engine) << ", mode " << sharing_name(mode));
      graphso::testing::RunOptions run;
      run.engine = engine;
      auto batch = graphso::testing::run_batch_on(graph, jobs, mode, graphso::testing::budget_for(graph, jobs, 0.25), run);
      for (size_t j = 0; j < batch.jobs.size(); ++j)
        graphso::testing::check_against_reference(batch.specs[j], *batch.jobs[j], live);
    }
  // More edges: the next snapshot is rebuilt at the new position.
  {
    auto s = GraphStore::open(path, {});
    s->add_edges(deletes);
  }
  StoreSnapshotResult second = snapshot_store(path, graph, {});
  REQUIRE(second.rebuilt);
  REQUIRE(second.info.position == first.info.position + deletes.size());
  REQUIRE(second.info.edges == adds.size());
}

TEST_CASE("store view: a view keeps its version while the writer rewrites sections or relocates lists and reuses the space") {
  // dgap rewrites sections to free pages; gear (first fit, so freed subpages come back first)
  // appends after the words a checkpoint names and relocates lists to free subpages.
  const StoreMode mode = GENERATE(StoreMode::Dgap, StoreMode::Gear);
  INFO(store_mode_name(mode));
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(11, 8, false, 21, dir);
  std::vector<Edge> plain = plain_edges(set);
  const std::string path = dir.file("store.pm");
  const size_t half = plain.size() / 2;
  auto s = GraphStore::create(path, default_geometry(set.vertices, plain.size(), 1024, false, mode), mode,
                              {.threads = 2,
                               .tuning = {{"max-buffer", 16}, {"archive-threshold", 64}, {"section-log", 16},
                                          {"wear-levelling", 0}}});
  add_in_batches(*s, std::vector<Edge>(plain.begin(), plain.begin() + static_cast<long>(half)), 300);
  s->flush_to_blocks();
  const std::unique_ptr<StoreView> view = StoreView::open(path);
  REQUIRE(view->version() == half);
  // The writer goes on: every section is merged (every list relocated) many times over,
  // checkpoints commit, and the pages (subpages) the view's checkpoint named are retired. With the
  // view's lease none is written over.
  add_in_batches(*s, std::vector<Edge>(plain.begin() + static_cast<long>(half), plain.end()), 300);
  add_in_batches(*s, std::vector<Edge>(plain.begin(), plain.begin() + static_cast<long>(half / 2)), 300, true);
  s->flush_to_blocks();
  REQUIRE(s->status().checkpoint_seq > view->checkpoint().seq + 3);
  if (mode == StoreMode::Gear) REQUIRE(s->status().counter("relocations") > set.vertices / 4);
  std::vector<Edge> got;
  view->out_edges(0, static_cast<VertexId>(set.vertices), [&](std::span<const WeightedEdge> edges) {
    for (const WeightedEdge& e : edges) got.push_back({e.src, e.dst});
  });
  std::vector<EdgeOp> expected_ops = graphso::testing::adds_of(std::span<const Edge>(plain).first(half));
  const AdjacencyModel expected = adjacency_of(expected_ops, set.vertices);
  REQUIRE(got.size() == expected.edges);
  std::vector<std::vector<VertexId>> out(set.vertices);
  for (const Edge& e : got) out[e.src].push_back(e.dst);
  for (auto& list : out) std::sort(list.begin(), list.end());
  REQUIRE(out == expected.out);
  // And the writer reads the newest graph.
  require_store_equals(*s, adjacency_of(ops_of(std::span<const Edge>(plain),
                                               std::span<const Edge>(plain).first(half / 2)),
                                        set.vertices));
}

TEST_CASE("store view: an ftgraph view opened while another thread applies batches shows exactly the graph at its version") {
  // The writer changes the trees in place; each view must undo what the operations after its
  // version did to the trees it walked. Inserts with repeats (duplicates), then deletions of some
  // and re-inserts, in batches of 97 on 2 threads, while views open one after another.
  const bool weighted = GENERATE(false, true);
  INFO((weighted ? "weighted" : "unweighted"));
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(11, 8, weighted, 23, dir);
  std::vector<EdgeOp> ops;
  std::vector<std::pair<std::vector<WeightedEdge>, bool>> batches;
  auto push = [&](std::span<const WeightedEdge> edges, bool deletes) {
    for (size_t at = 0; at < edges.size(); at += 97) {
      batches.emplace_back(std::vector<WeightedEdge>(edges.begin() + static_cast<long>(at),
                                                     edges.begin() + static_cast<long>(std::min(at + 97, edges.size()))),
                           deletes);
      for (const WeightedEdge& e : batches.back().first) ops.push_back({e.src, e.dst, deletes, weighted ? e.weight : 1});
    }
  };
  const std::span<const WeightedEdge> all(set.edges);
  push(all, false);
  push(all.first(all.size() / 3), true);
  push(all.first(all.size() / 6), false);
  push(all, true);
  const std::string path = dir.file("store.pm");
  auto s = GraphStore::create(path, default_geometry(set.vertices, set.edges.size(), 64, weighted, StoreMode::Ftgraph),
                              StoreMode::Ftgraph, {.threads = 2});
  std::atomic<bool> done = false;
  std::exception_ptr writer_error;
  std::thread writer([&] {
    try {
      for (const auto& [edges, deletes] : batches) deletes ? s->del_edges(std::span(edges)) : s->add_edges(std::span(edges));
    } catch (...) {
      writer_error = std::current_exception();
    }
    done = true;
  });
  uint64_t views = 0, mid_batch = 0, mismatches = 0;
  std::string first_mismatch;
  while (!done || views < 3) {
    const std::unique_ptr<StoreView> view = StoreView::open(path);
    std::vector<std::vector<std::pair<VertexId, Weight>>> out(set.vertices);
    view->out_edges(0, static_cast<VertexId>(set.vertices), [&](std::span<const WeightedEdge> edges) {
      for (const WeightedEdge& e : edges) out[e.src].emplace_back(e.dst, e.weight);
    });
    for (auto& list : out) std::sort(list.begin(), list.end());
    const AdjacencyModel expected =
        adjacency_of(std::span<const EdgeOp>(ops).first(view->version()), set.vertices, true);
    if (out != expected.out_edges && mismatches++ == 0)
      first_mismatch = fmt::format("version {}: {} edges set back", view->version(), view->edges_set_back());
    ++views;
    mid_batch += view->edges_set_back() > 0 ? 1 : 0;
  }
  writer.join();
  if (writer_error) std::rethrow_exception(writer_error);
  INFO(views << " views, " << mid_batch << " of them read while a batch changed the trees; first mismatch: " << first_mismatch);
  REQUIRE(mismatches == 0);
  REQUIRE(mid_batch >= 1);
  // The writer's last version: everything deleted.
  require_store_equals(*s, adjacency_of(ops, set.vertices, true));
}

TEST_CASE("store: an ftgraph batch that fills the store grows it, and nothing of the batch is applied twice") {
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(10, 16, true, 29, dir);
  const std::span<const WeightedEdge> all(set.edges);
  const std::string path = dir.file("store.pm");
  StoreGeometry g = default_geometry(set.vertices, set.edges.size(), 64, true, StoreMode::Ftgraph);
  g.block_units = 64 * 64;  // 64 pages: room for about 350 nodes, not for all 2,048 roots
  auto s = GraphStore::create(path, g, StoreMode::Ftgraph, {.threads = 2});
  // The batch that finds the store full is abandoned whole (nothing of it in the trees), the store
  // rebuilt twice as large, and the batch applied there once.
  for (size_t at = 0; at < all.size(); at += 200) s->add_edges(all.subspan(at, std::min<size_t>(200, all.size() - at)));
  REQUIRE(s->status().growths >= 1);
  REQUIRE(s->status().applying == s->status().head);
  REQUIRE(s->status().head == all.size());
  const AdjacencyModel whole = adjacency_of(graphso::testing::adds_of(all), set.vertices, true);
  require_store_equals(*s, whole);
  REQUIRE(check_store(path).read.edges == whole.edges);
  s->del_edges(all.first(100));
  std::vector<EdgeOp> ops = graphso::testing::adds_of(all);
  for (const WeightedEdge& e : all.first(100)) ops.push_back({e.src, e.dst, true});
  s.reset();
  s = GraphStore::open(path, {.threads = 2});
  require_store_equals(*s, adjacency_of(ops, set.vertices, true));
}

TEST_CASE("store: an ftgraph writer removes its operation ring when it closes, and rings of stores that are gone") {
  TempDir dir;
  const std::string path = dir.file("store.pm");
  auto ring_of = [](const std::string& store) {
    struct stat st {};
    REQUIRE(::stat(store.c_str(), &st) == 0);
    return "/dev/shm/graphso-ftgraph-" + std::to_string(st.st_dev) + "-" + std::to_string(st.st_ino);
  };
  auto s = GraphStore::create(path, default_geometry(64, 100, 64, false, StoreMode::Ftgraph), StoreMode::Ftgraph, {});
  s->add_edge(1, 2);
  const std::string ring = ring_of(path);
  REQUIRE(std::filesystem::exists(ring));
  // A ring left by a killed writer of a store that was then deleted: its header names a path that
  // is now another file (or none). Its name here is one no store has.
  const std::string stale = "/dev/shm/graphso-ftgraph-0-1";
  std::filesystem::copy_file(ring, stale, std::filesystem::copy_options::overwrite_existing);
  s.reset();
  REQUIRE(!std::filesystem::exists(ring));
  REQUIRE(std::filesystem::exists(stale));
  s = GraphStore::open(path, {});
  REQUIRE(!std::filesystem::exists(stale));
  REQUIRE(s->out_neighbours(1) == std::vector<VertexId>{2});
}

TEST_CASE("store: an ftgraph reader of the operation ring never takes an edge's later operation for its first") {
  // The writer publishes an edge's operations of a batch one after another, each with what the
  // edge was before it: the second says "present" (the first inserted it). A reader that found
  // the first unpublished (its insert unseen) and then read the second would put the edge back as
  // present before the batch: a snapshot one edge larger than its version (seen once in about a
  // dozen runs of the live-snapshot test). Here a writer thread publishes batches of 100 positions,
  // edge i's insert at i and its repeat at 50 + i, while the reader reads the batch under way:
  // every edge read must say "absent" (the insert's before), never the repeat's "present".
  TempDir dir;
  const std::string path = dir.file("store.pm");
  { File touch(path, File::Mode::Write); }
  constexpr uint64_t kStoreId = 77, kBatch = 100, kEdges = kBatch / 2;
  OpRing writer = OpRing::create(path, kStoreId, 0);
  const std::optional<OpRing> reader = OpRing::open(path, kStoreId);
  REQUIRE(reader);
  std::atomic<uint64_t> batch{0};
  std::atomic<bool> stop{false};
  std::thread publisher([&] {
    for (uint64_t b = 0; !stop.load(); ++b) {
      batch.store(b);
      for (uint32_t i = 0; i < kEdges; ++i) {
        const auto src = static_cast<VertexId>(b % 1000), dst = i;
        writer.publish(b * kBatch + i, src, dst, false, false, 0);
        writer.publish(b * kBatch + kEdges + i, src, dst, false, true, 1);
        for (int spin = 0; spin < 20; ++spin) _mm_pause();  // the reader's loop meets the batch midway
      }
    }
  });
  uint64_t reads = 0, partial = 0, wrong = 0;
  for (int attempt = 0; attempt < 20000; ++attempt) {
    const uint64_t from = batch.load() * kBatch;
    std::string why;
    const auto before = reader->states_before(from, from + kBatch, true, why);
    if (!before) continue;  // lapped: not expected at this pace
    ++reads;
    partial += before->size() < kEdges;  // met the batch while it was published
    for (const auto& [key, state] : *before) wrong += state.present || state.weight != 0;
  }
  stop.store(true);
  publisher.join();
  INFO(reads << " reads, " << partial << " of a batch under way");
  REQUIRE(wrong == 0);
  REQUIRE(partial > 0);  // the race was met
  REQUIRE(reads > 10000);
  writer.remove();
}

TEST_CASE("store: ftgraph recovery unlinks a node of the interrupted batch whose header never reached the media") {
  // The writer links new children (or a new root) while it applies a batch; their headers are
  // persisted with the entries, the link with the bitmaps. A page written back early can put the
  // link on the media first: after a crash then, the link names a node past the allocation mark
  // persisted before the batch, with no header. Here that state is made by hand: a batch that
  // branched vertex 0's out-tree, then the head, batch word and allocation mark put back as they
  // were before it, and one new child's header zeroed.
  TempDir dir;
  const uint64_t vertices = 512;
  std::vector<WeightedEdge> first, hub;
  for (VertexId v = 0; v < 300; ++v) first.push_back({v, (v * 7 + 1) % static_cast<VertexId>(vertices), 1});
  for (VertexId n = 0; n < 200; ++n) hub.push_back({0, n, 1});
  const std::string path = dir.file("store.pm");
  auto s = GraphStore::create(path, default_geometry(vertices, 1000, 64, false, StoreMode::Ftgraph), StoreMode::Ftgraph, {});
  s->add_edges(std::span<const WeightedEdge>(first));
  s.reset();
  const StoreLayout layout(StoreView::open(path)->header().geometry);
  auto word = [&](uint64_t offset) {
    const PmemFile f = PmemFile::open_read_only(path);
    return *f.at<uint64_t>(offset);
  };
  const uint64_t mark = word(allocated_word(layout)), head = word(layout.log_head), applying = word(applying_word(layout));
  s = GraphStore::open(path, {});
  s->add_edges(std::span<const WeightedEdge>(hub));
  REQUIRE(s->status().counter("branch_outs") > 0);
  s.reset();
  const uint64_t root = word(layout.tables[0]) & 0xFFFFFFFFu;
  const uint64_t children = word(layout.block_offset(root)) & 0xFFFFFFFFu;
  REQUIRE(children >= *decode_log_head(mark));
  {
    File file(path, File::Mode::ReadWrite);
    file.pwrite_all(as_bytes_of(head), layout.log_head);
    file.pwrite_all(as_bytes_of(mark), allocated_word(layout));
    const std::vector<std::byte> zeros(sizeof(TreeNodeHeader));
    file.pwrite_all(std::span<const std::byte>(zeros), layout.block_offset(children));
  }
  REQUIRE(word(applying_word(layout)) != applying);  // the batch word still names the hub batch's end
  s = GraphStore::open(path, {});
  INFO("links cleared " << s->status().counter("links_cleared"));
  REQUIRE(s->status().counter("links_cleared") == 1);
  REQUIRE(s->status().applying > s->status().head);
  // The resumed input replays the batch: exactly the graph after it.
  s->add_edges(std::span<const WeightedEdge>(hub));
  std::vector<EdgeOp> ops = graphso::testing::adds_of(std::span<const WeightedEdge>(first));
  for (const EdgeOp& op : graphso::testing::adds_of(std::span<const WeightedEdge>(hub))) ops.push_back(op);
  require_store_equals(*s, adjacency_of(ops, vertices, true));
  s.reset();
  REQUIRE(check_store(path).read.edges == adjacency_of(ops, vertices, true).edges);
}

TEST_CASE("store dgap: while a reader holds the checkpoint, one comes once the log's tail reaches --reader-tail percent") {
  // A run lays out what was logged since the checkpoint at every open: beside a reader the tail
  // is bounded (here at 50% of the pages' edges, and never below 2^20 operations); without one it
  // waits for --buffer-mem, and `--reader-tail 0` turns the bound off.
  std::mt19937_64 rng(7);
  auto random_edges = [&](size_t count) {
    std::vector<WeightedEdge> edges(count);
    for (WeightedEdge& e : edges) e = {static_cast<VertexId>(rng() % 65536), static_cast<VertexId>(rng() % 65536), 1};
    return edges;
  };
  const std::vector<WeightedEdge> first = random_edges(1 << 20), below = random_edges(400000), past = random_edges(200000);
  for (const bool reader : {false, true})
    for (const uint64_t percent : {uint64_t{50}, uint64_t{0}, uint64_t{200}}) {
      INFO((reader ? "a reader" : "no reader") << ", --reader-tail " << percent);
      TempDir dir;
      const std::string path = dir.file("store.pm");
      const StoreOptions options{.threads = 2, .tuning = {{"reader-tail", percent}}};
      auto s = GraphStore::create(path, default_geometry(65536, 4 << 20, 4 << 20, false, StoreMode::Dgap), StoreMode::Dgap,
                                  options);
      s->add_edges(std::span<const WeightedEdge>(first));
      s->flush_to_blocks();
      const uint64_t before = s->status().checkpoints;
      std::unique_ptr<StoreView> view;
      if (reader) view = StoreView::open(path);  // holds the checkpoint in force
      // 800 K operations logged against 1 M in the pages: past 50%, but below 2^20 ...
      s->add_edges(std::span<const WeightedEdge>(below));
      s->add_edges(std::span<const WeightedEdge>(below));
      REQUIRE(s->status().checkpoints == before);
      // ... then 1.2 M, past both bounds at 50% (one checkpoint, and the tail starts again), not
      // past 200%.
      s->add_edges(std::span<const WeightedEdge>(past));
      s->add_edges(std::span<const WeightedEdge>(past));
      REQUIRE(s->status().checkpoints == before + (reader && percent == 50 ? 1 : 0));
      if (view) REQUIRE(view->version() == first.size());  // the reader keeps its version
    }
}

TEST_CASE("store dgap: a section that outgrows its page splits into pages with equal shares of its edges") {
  // Filling pages to 15/16 and leaving the rest to the last would leave that page nearly empty,
  // and every pass over a store read in place reads pages whole.
  for (const bool weighted : {false, true})
    for (const uint64_t sources : {uint64_t{400}, uint64_t{700}, uint64_t{3000}}) {
      INFO((weighted ? "weighted" : "unweighted") << ", " << sources << " sources");
      std::mt19937_64 rng(sources);
      std::vector<WeightedEdge> edges;
      for (VertexId s = 10; s < 10 + sources; ++s)
        for (int k = 0; k < 4; ++k)
          edges.push_back({s, static_cast<VertexId>(rng() % 1000000), static_cast<Weight>(1 + rng() % 200)});
      std::sort(edges.begin(), edges.end(), [](const WeightedEdge& a, const WeightedEdge& b) {
        return std::tie(a.src, a.dst) < std::tie(b.src, b.dst);
      });
      std::vector<std::byte> filled;
      PackedPageWriter writer(weighted, filled, store::kSectionFillBytes);
      for (const WeightedEdge& e : edges) writer.add(e);
      writer.finish();
      REQUIRE(writer.pages() >= 2);

      const std::vector<store::EncodedSection> parts = store::encode_section(edges, weighted, 5);
      REQUIRE(parts.size() == writer.pages());
      REQUIRE(parts.front().key == 5);
      uint64_t at = 0, fewest = edges.size(), most = 0;
      for (const store::EncodedSection& part : parts) {
        REQUIRE(part.page.size() == kStorePageBytes);
        REQUIRE(part.edges == packed_page_edges(part.page.data()));
        if (at > 0) REQUIRE(part.key == store::edge_key(edges[at].src, edges[at].dst));
        std::vector<std::byte> records;
        PackedPageProblem problem;
        REQUIRE(decode_packed_pages(part.page, weighted, records, &problem) == part.edges);
        for (uint64_t e = 0; e < part.edges; ++e) {
          WeightedEdge got{0, 0, 1};
          std::memcpy(&got, records.data() + e * edge_bytes(weighted), edge_bytes(weighted));
          REQUIRE(got.src == edges[at + e].src);
          REQUIRE(got.dst == edges[at + e].dst);
          if (weighted) REQUIRE(got.weight == edges[at + e].weight);
        }
        at += part.edges;
        fewest = std::min<uint64_t>(fewest, part.edges);
        most = std::max<uint64_t>(most, part.edges);
      }
      REQUIRE(at == edges.size());
      REQUIRE(most - fewest <= 1);
    }
  // Equal edges that alone take more than a page still split where the writer cuts them.
  std::vector<WeightedEdge> same(5000, WeightedEdge{3, 4, 1});
  const std::vector<store::EncodedSection> parts = store::encode_section(same, false, 0);
  uint64_t total = 0;
  for (const store::EncodedSection& part : parts) total += part.edges;
  REQUIRE(parts.size() >= 2);
  REQUIRE(total == same.size());
}

TEST_CASE("store: a power cut that tears a batch extending a part-full log line keeps the durable batches") {
  // A persist is not atomic: a power cut can put a batch's checksum word on the media without its
  // records (the word's page or line was written back first) and before its head. The line's
  // other word still covers the records before the head, whichever of the two the batch wrote.
  const StoreMode mode = GENERATE(StoreMode::XPGraph, StoreMode::Dgap, StoreMode::Gear);  // naive: no crash recovery
  const bool weighted = GENERATE(false, true);
  INFO(store_mode_name(mode) << (weighted ? ", weighted" : ""));
  TempDir dir;
  const std::string path = dir.file("store.pm"), torn = dir.file("torn.pm");
  const StoreGeometry geometry = default_geometry(256, 4096, 4096, weighted, mode);
  const StoreLayout layout(geometry);
  auto batch = [](VertexId first) {
    std::vector<WeightedEdge> edges;
    for (VertexId v = first; v < first + 10; ++v) edges.push_back({v, v + 1, v + 2});
    return edges;
  };
  GraphStore::create(path, geometry, mode, {});
  std::vector<WeightedEdge> durable;
  // Batches of 10 in a line of 32: the second and third extend the first's line (writing its
  // second word, then its first again), the fourth ends it and starts the next.
  for (VertexId first : {VertexId{0}, VertexId{10}, VertexId{20}, VertexId{30}}) {
    const std::string before = read_small_file(path);
    const std::vector<WeightedEdge> next = batch(first);
    GraphStore::open(path, {})->add_edges(std::span<const WeightedEdge>(next));
    // The image a torn persist of `next` leaves: the store before it, with its lines' checksum
    // words as the batch wrote them, its records and head not.
    const std::string after = read_small_file(path);
    std::string image = before;
    for (uint64_t word = 0; word < kLogSumWords; ++word) {
      const uint64_t at = layout.log_sum_offset(0, word), bytes = 2 * sizeof(uint64_t);  // lines 0 and 1
      image.replace(at, bytes, after.substr(at, bytes));
    }
    const bool torn_differs = image != before;  // not the strings: Catch would print a whole store
    REQUIRE(torn_differs);
    {
      File out(torn, File::Mode::Write);
      out.pwrite_all(std::as_bytes(std::span(image)), 0);
    }
    {
      auto s = GraphStore::open(torn, {});
      REQUIRE(s->status().head == durable.size());
      for (VertexId v = 0; v < 40; ++v) {
        std::vector<std::pair<VertexId, Weight>> expected;
        for (const WeightedEdge& e : durable)
          if (e.src == v) expected.push_back({e.dst, weighted ? e.weight : 1});
        REQUIRE(s->out_edges(v) == expected);
      }
    }
    durable.insert(durable.end(), next.begin(), next.end());
  }
}
