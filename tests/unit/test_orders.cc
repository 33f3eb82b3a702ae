// Vertex orders (prep --order) and read granularity (run --granularity): the relabelling is a
// checked permutation stored with the graph; results come out in original ids equal to the
// reference for every order, sharing mode and granularity; the orders and page reads pay where
// they should; the cost model decides as its figures say.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <set>

#include "datasets/vertex_orders.h"
#include "base/checksum.h"
#include "base/file.h"
#include "base/mix.h"
#include "engine/gridgraph/grid_graph.h"
#include "engine/gridgraph/grid_engine.h"
#include "io/read_plan.h"
#include "middleware/read_granularity.h"
#include "tests/test_graphs.h"

using namespace graphso;
using graphso::testing::TempDir;

namespace {

// A width x height lattice of two-way weighted streets whose ids are scrambled (no locality left
// for the natural order to use). Returns the set; `corner` is the scrambled id of (0, 0).
EdgeSet scrambled_lattice(uint32_t width, uint32_t height, VertexId* corner) {
  const uint64_t n = uint64_t{width} * height;
  std::vector<VertexId> id(n);
  std::iota(id.begin(), id.end(), VertexId{0});
  for (uint64_t i = n - 1; i > 0; --i) std::swap(id[i], id[mix64(i) % (i + 1)]);
  EdgeSet set;
  set.vertices = n;
  set.weighted = true;
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      uint64_t v = uint64_t{y} * width + x;
      Weight w = 1 + static_cast<Weight>(mix64(v) % 9);
      if (x + 1 < width) {
        set.edges.push_back({id[v], id[v + 1], w});
        set.edges.push_back({id[v + 1], id[v], w});
      }
      if (y + 1 < height) {
        set.edges.push_back({id[v], id[v + width], w + 1});
        set.edges.push_back({id[v + width], id[v], w + 1});
      }
    }
  *corner = id[0];
  return set;
}

std::string prepare(const TempDir& dir, const EdgeSet& set, OrderKind order, VertexId root, const std::string& name,
                    EdgeEncoding encoding = EdgeEncoding::Packed) {
  GridPrepOptions options;
  options.partitions = 4;
  options.encoding = encoding;
  options.order = order;
  options.order_root = root;
  return graphso::testing::prepare_graph(dir, set, options, name);
}

// Every edge of the graph directory, mapped back to original ids, sorted.
std::vector<std::tuple<VertexId, VertexId, Weight>> edges_in_original_ids(const std::string& graph_dir) {
  GridGraph graph = GridGraph::open(graph_dir);
  std::vector<std::tuple<VertexId, VertexId, Weight>> out;
  graph.read_original_edges([&](std::span<const WeightedEdge> edges) {
    for (const WeightedEdge& e : edges) out.emplace_back(e.src, e.dst, e.weight);
  });
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::tuple<VertexId, VertexId, Weight>> sorted_edges(const EdgeSet& set) {
  std::vector<std::tuple<VertexId, VertexId, Weight>> out;
  for (const WeightedEdge& e : set.edges) out.emplace_back(e.src, e.dst, set.weighted ? e.weight : 1);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("vertex order: a checked permutation, stored with the graph and verified on open") {
  REQUIRE_THAT(graphso::testing::error_of([] { VertexOrder::from_new_ids(OrderKind::Degree, {0, 2, 2}); }),
               Catch::Contains("not a permutation"));
  REQUIRE_THAT(graphso::testing::error_of([] { VertexOrder::from_new_ids(OrderKind::Degree, {0, 3, 1}); }),
               Catch::Contains("not a permutation"));
  VertexOrder order = VertexOrder::from_new_ids(OrderKind::Bfs, {2, 0, 1});
  REQUIRE(order.to_new(0) == 2);
  REQUIRE(order.to_original(2) == 0);
  REQUIRE_THAT(graphso::testing::error_of([] { parse_order("gorder"); }), Catch::Contains("unknown vertex order 'gorder'"));

  TempDir dir;
  VertexId corner = 0;
  EdgeSet set = scrambled_lattice(20, 30, &corner);
  for (OrderKind kind : {OrderKind::Natural, OrderKind::Degree, OrderKind::Bfs}) {
    INFO("order " << order_name(kind));
    std::string g = prepare(dir, set, kind, kNoVertex, order_name(kind));
    GridGraph graph = GridGraph::open(g);
    REQUIRE(graph.order().kind() == kind);
    REQUIRE(path_exists(GraphFiles(g).order()) == (kind != OrderKind::Natural));
    REQUIRE(graph.meta().symmetric);
    // Relabelling round-trips: the stored edges, mapped back, are exactly the input.
    REQUIRE(edges_in_original_ids(g) == sorted_edges(set));
    // Degrees are stored by new id.
    for (VertexId v = 0; v < set.vertices; ++v) {
      uint64_t degree = std::count_if(set.edges.begin(), set.edges.end(), [&](const WeightedEdge& e) { return e.src == v; });
      REQUIRE(graph.out_degrees()[graph.order().to_new(v)] == degree);
    }
  }
  std::string g = dir.file("bfs");
  SECTION("a damaged order file is an error naming it") {
    File f(GraphFiles(g).order(), File::Mode::ReadWrite);
    uint32_t x = 7;
    f.pwrite_all(as_bytes_of(x), 8);
    REQUIRE_THAT(graphso::testing::error_of([&] { GridGraph::open(g); }), Catch::Contains("order: checksum mismatch"));
  }
  SECTION("a truncated order file is an error naming it") {
    File(GraphFiles(g).order(), File::Mode::ReadWrite).truncate(40);
    REQUIRE_THAT(graphso::testing::error_of([&] { GridGraph::open(g); }), Catch::Contains("order: size 40 bytes"));
  }
  SECTION("a missing order file is an error naming the order") {
    std::remove(GraphFiles(g).order().c_str());
    REQUIRE_THAT(graphso::testing::error_of([&] { GridGraph::open(g); }), Catch::Contains("prepared with --order bfs"));
  }
}

TEST_CASE("vertex orders: degree puts hubs first; bfs numbers breadth-first levels in id order") {
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(10, 8, false, 5, dir);
  std::string path = dir.file("edges.bin");
  graphso::testing::write_edges(path, set);
  EdgeListReader reader(path);
  std::vector<uint64_t> degree(set.vertices, 0);
  for (const WeightedEdge& e : set.edges) {
    ++degree[e.src];
    if (e.src != e.dst) ++degree[e.dst];
  }
  VertexOrder by_degree = compute_vertex_order(OrderKind::Degree, reader);
  for (VertexId id = 1; id < set.vertices; ++id)
    REQUIRE(degree[by_degree.to_original(id - 1)] >= degree[by_degree.to_original(id)]);

  // BFS from a root: ids grow with the hop distance from it over the undirected graph.
  reference::Csr undirected = reference::build_csr(set.vertices, [&] {
    std::vector<WeightedEdge> both = set.edges;
    for (const WeightedEdge& e : set.edges) both.push_back({e.dst, e.src, 1});
    return both;
  }());
  const VertexId root = static_cast<VertexId>(std::max_element(degree.begin(), degree.end()) - degree.begin());
  std::vector<uint32_t> hops = reference::bfs(undirected, root);
  OrderCost cost;
  VertexOrder bfs = compute_vertex_order(OrderKind::Bfs, reader, root, &cost);
  REQUIRE(bfs.to_new(root) == 0);
  REQUIRE(cost.memory_bytes > set.edges.size() * 8);  // it holds the undirected adjacency
  uint32_t last = 0;
  uint64_t reached = 0;
  for (VertexId id = 0; id < set.vertices; ++id) {
    uint32_t h = hops[bfs.to_original(id)];
    if (h == UINT32_MAX) break;  // the root's component is numbered first
    REQUIRE(h >= last);
    last = h;
    ++reached;
  }
  REQUIRE(reached == static_cast<uint64_t>(std::count_if(hops.begin(), hops.end(), [](uint32_t h) { return h != UINT32_MAX; })));
  REQUIRE_THAT(graphso::testing::error_of([&] { compute_vertex_order(OrderKind::Bfs, reader, 1u << 20); }),
               Catch::Contains("--order-root 1048576 is out of range"));
}

TEST_CASE("every order x sharing mode x read granularity: results in original ids equal the reference") {
  TempDir dir;
  VertexId corner = 0;
  struct Graph {
    std::string name;
    EdgeSet set;
    VertexId source;
  };
  std::vector<Graph> graphs;
  graphs.push_back({"lattice", scrambled_lattice(40, 60, &corner), 0});
  graphs.back().source = corner;
  graphs.push_back({"rmat", graphso::testing::rmat_edges(11, 8, true, 3, dir), 7});
  graphs.push_back({"enron", graphso::testing::load_dataset("email-enron-u.el.gz"), 11});
  for (const Graph& gr : graphs) {
    std::vector<std::string> jobs = {fmt::format("bfs:source={}", gr.source), fmt::format("sssp:source={}", gr.source), "wcc",
                                     "wcc:method=label", "pagerank:iterations=5", "pagerank-delta:tolerance=0.01",
                                     fmt::format("ppr:source={},{}:tolerance=0.001", gr.source, gr.source + 1), "kcore",
                                     "cdlp:iterations=4", "lcc:slots=2"};
    for (OrderKind kind : {OrderKind::Natural, OrderKind::Degree, OrderKind::Bfs})
      for (EdgeEncoding encoding : {EdgeEncoding::Packed, EdgeEncoding::Raw}) {
        std::string g = prepare(dir, gr.set, kind, kind == OrderKind::Bfs ? gr.source : kNoVertex,
                                gr.name + "-" + order_name(kind) + "-" + encoding_name(encoding), encoding);
        uint64_t mem = graphso::testing::budget_for(g, jobs, 0.25);
        // R-MAT is directed: wcc:method=label then needs in-edges too (EdgeUse::BothWays).
        REQUIRE(GridGraph::open(g).meta().symmetric == (gr.name != "rmat"));
        struct Mode {
          Sharing sharing;
          Granularity granularity;
        };
        std::vector<Mode> modes = {Mode{Sharing::Chunk, Granularity::Page}, Mode{Sharing::Chunk, Granularity::Auto}};
        // Packed, every mode; raw (whose chunks may be read by pages), the page reads again.
        if (encoding == EdgeEncoding::Packed)
          modes.insert(modes.begin(), {Mode{Sharing::Independent, Granularity::Chunk}, Mode{Sharing::Partition, Granularity::Chunk},
                                       Mode{Sharing::Chunk, Granularity::Chunk}});
        for (Mode mode : modes) {
          INFO(gr.name << ", order " << order_name(kind) << ", " << encoding_name(encoding) << ", "
                       << sharing_name(mode.sharing) << ", granularity " << granularity_name(mode.granularity));
          auto batch = graphso::testing::run_batch_on(g, jobs, mode.sharing, mem, {.granularity = mode.granularity});
          REQUIRE(batch.report.order == order_name(kind));
          REQUIRE(batch.report.encoding == encoding_name(encoding));
          for (size_t j = 0; j < batch.jobs.size(); ++j)
            graphso::testing::check_against_reference(batch.specs[j], *batch.jobs[j], gr.set, &batch.order);
          // A packed chunk is read whole (its pages are not located per source).
          if (mode.granularity == Granularity::Page)
            REQUIRE((batch.report.chunk_stats.chunks_by_pages > 0) == (encoding == EdgeEncoding::Raw));
          if (encoding == EdgeEncoding::Packed && mode.sharing == Sharing::Chunk) REQUIRE(batch.report.granularity == "chunk");
        }
      }
  }
}

TEST_CASE("bfs order and page reads cut the bytes a traversal reads on a graph without id locality") {
  TempDir dir;
  VertexId corner = 0;
  // Long and narrow, one block: at most 16 vertices on a BFS wavefront, scattered over 64 KiB
  // chunks of 16 pages, so a chunk holds few active sources, pages apart.
  EdgeSet set = scrambled_lattice(16, 768, &corner);
  std::vector<std::string> jobs = {fmt::format("bfs:source={}", corner), "bfs:source=0"};
  GridPrepOptions options;
  options.partitions = 1;
  options.encoding = EdgeEncoding::Raw;  // page reads are of raw chunks
  std::string natural = graphso::testing::prepare_graph(dir, set, options, "natural");
  options.order = OrderKind::Bfs;
  options.order_root = corner;
  std::string bfs = graphso::testing::prepare_graph(dir, set, options, "bfs");
  uint64_t mem = graphso::testing::budget_for(natural, jobs, 0.5);
  // Level-synchronous rounds, where the premise holds: an asynchronous pass runs many levels at
  // once, so its active sources are no longer a thin wavefront.
  auto chunk = graphso::testing::run_batch_on(natural, jobs, Sharing::Chunk, mem, {.chunk_bytes = 65536, .async = AsyncPolicy::Off});
  auto page = graphso::testing::run_batch_on(natural, jobs, Sharing::Chunk, mem,
                                             {.chunk_bytes = 65536, .granularity = Granularity::Page, .async = AsyncPolicy::Off});
  // The same graph-data budget: the bfs order's id maps come on top.
  auto ordered = graphso::testing::run_batch_on(bfs, jobs, Sharing::Chunk, graphso::testing::budget_for(bfs, jobs, 0.5),
                                                {.chunk_bytes = 65536, .async = AsyncPolicy::Off});
  for (auto* b : {&chunk, &page, &ordered})
    for (size_t j = 0; j < b->jobs.size(); ++j)
      graphso::testing::check_against_reference(b->specs[j], *b->jobs[j], set, &b->order);
  INFO("natural order: " << chunk.report.io.bytes_read << " bytes by chunks, " << page.report.io.bytes_read
                         << " by pages; bfs order: " << ordered.report.io.bytes_read << " by chunks");
  REQUIRE(page.report.io.bytes_read < chunk.report.io.bytes_read / 2);
  REQUIRE(page.report.chunk_stats.page_bytes > 0);
  REQUIRE(page.report.io.requests > chunk.report.io.requests);  // the price: more, smaller reads
  REQUIRE(ordered.report.io.bytes_read < chunk.report.io.bytes_read / 4);
}

TEST_CASE("the cost model: runs merge across gaps cheaper to read than a request; whole when every page is needed") {
  TempDir dir;
  VertexId corner = 0;
  EdgeSet set = scrambled_lattice(32, 64, &corner);
  GridPrepOptions options;
  options.partitions = 1;  // one 96 KiB block: chunks of 16 pages
  options.encoding = EdgeEncoding::Raw;  // page reads are of raw chunks
  std::string g = graphso::testing::prepare_graph(dir, set, options, "g");
  GridGraph graph = GridGraph::open(g);
  EngineLayout layout = gridgraph_layout(graph);
  TChunkTable table = TChunkTable::build(layout, 65536);
  // Every 97th vertex: a few sources per chunk, pages apart.
  Bitmap frontier(set.vertices);
  for (VertexId v = 0; v < set.vertices; v += 97) frontier.set(v);
  std::vector<JobFrontier> jobs = {{&frontier, false}};

  auto plan = [&](Granularity granularity, const DeviceProfile* device) {
    ActiveChunks active = get_active_chunks(table, jobs, 1);
    REQUIRE(!active.chunks.empty());
    choose_granularity(table, jobs, layout.edge_size(), granularity, device, active, 1);
    return active;
  };
  DeviceProfile cheap_requests;
  cheap_requests.per_byte_seconds = 1e-9;
  cheap_requests.per_request_seconds = 0;
  DeviceProfile dear_requests;
  dear_requests.per_byte_seconds = 1e-9;
  dear_requests.per_request_seconds = 1;  // a request costs as much as reading a gigabyte
  ActiveChunks whole = plan(Granularity::Chunk, &cheap_requests);
  for (const ChunkDemand& d : whole.chunks) REQUIRE(d.page_runs.empty());
  // With dear requests every gap is worth reading: one run per chunk at most.
  ActiveChunks dear = plan(Granularity::Auto, &dear_requests);
  for (const ChunkDemand& d : dear.chunks) REQUIRE(d.page_runs.size() <= 1);
  ActiveChunks cheap = plan(Granularity::Auto, &cheap_requests);
  for (const ChunkDemand& d : cheap.chunks) {
    const ChunkInfo& c = table.chunk(d.chunk);
    if (d.page_runs.empty()) {  // only when its active edges touch every page it has
      std::set<uint64_t> pages;
      uint64_t edge = 0;
      table.for_each_source(d.chunk, [&](VertexId s, uint64_t n) {
        if (frontier.test(s))
          for (uint64_t e = edge; e < edge + n; ++e) pages.insert((c.offset + e * layout.edge_size()) / 4096);
        edge += n;
      });
      REQUIRE(pages.size() * 4096 == aligned_span({c.file, c.offset, c.bytes}));
      continue;
    }
    REQUIRE(d.page_bytes < align_up(c.bytes, 4096) + 4096);
    // The runs hold every active edge of the chunk.
    uint64_t edge = 0, covered = 0;
    table.for_each_source(d.chunk, [&](VertexId s, uint64_t n) {
      if (frontier.test(s))
        for (const EdgeSpan& r : d.page_runs)
          if (edge >= r.first && edge + n <= r.first + r.count) covered += n;
      edge += n;
    });
    REQUIRE(covered == d.active_edges[0]);
  }
  // Cheap requests and sources far apart: several runs in one chunk somewhere.
  size_t most_runs = 0;
  for (const ChunkDemand& d : cheap.chunks) most_runs = std::max(most_runs, d.page_runs.size());
  REQUIRE(most_runs > 1);
  // Every source active: every page is needed, so chunks are read whole, even in page mode.
  frontier.set_all();
  ActiveChunks all = plan(Granularity::Page, &cheap_requests);
  for (const ChunkDemand& d : all.chunks) REQUIRE(d.page_runs.empty());
  REQUIRE_THAT(graphso::testing::error_of([&] { plan(Granularity::Auto, nullptr); }), Catch::Contains("measured device profile"));
}

TEST_CASE("the device is measured with the run's reader: bandwidth and random reads are positive") {
  TempDir dir;
  std::string path = dir.file("data");
  {
    File f(path, File::Mode::Write);
    std::vector<std::byte> block(1 << 20, std::byte{7});
    for (int i = 0; i < 4; ++i) f.pwrite_all(block, uint64_t(i) << 20);
  }
  write_page_sums(path);  // the run's reader verifies what it reads, the probe's reads too
  ReaderFactory factory{ReaderOptions{}};
  auto reader = factory.open(path);
  AlignedBuffer buffer(256 << 10);
  DeviceProfile p = measure_device(*reader, 4 << 20, buffer.data(), buffer.size(), 4 << 20, 256);
  REQUIRE(p.sequential_bytes_per_second > 0);
  REQUIRE(p.random_reads_per_second > 0);
  REQUIRE(p.per_request_seconds >= 0);
  REQUIRE(reader->stats().bytes_read == (4u << 20) + 256 * 4096);
}
