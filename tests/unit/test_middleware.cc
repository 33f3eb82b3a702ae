// The GraphSO middleware: TChunk table (round trip, corruption, exact source index), active
// chunks against brute force, the scheduler's order and sizes, the cache's eviction order.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <unistd.h>

#include "base/checked_file.h"
#include "base/error.h"
#include "base/file.h"
#include "base/packed_pages.h"
#include "base/run_edges.h"
#include "engine/gridgraph/grid_graph.h"
#include "engine/gridgraph/grid_engine.h"
#include "middleware/active_chunks.h"
#include "middleware/graphso.h"
#include "middleware/chunk_cache.h"
#include "middleware/scheduler.h"
#include "middleware/tchunk.h"
#include "tests/test_graphs.h"

using namespace graphso;
using graphso::testing::TempDir;

namespace {

// An R-MAT graph prepared as a 4 x 4 grid, opened, and described to the middleware.
struct Prepared {
  Prepared(uint32_t scale, bool weighted, uint64_t seed, EdgeEncoding encoding = EdgeEncoding::Raw)
      : set(graphso::testing::rmat_edges(scale, 8, weighted, seed, dir)),
        graph_dir(graphso::testing::prepare_graph(dir, set, {.partitions = 4, .encoding = encoding}, "g")),
        graph(GridGraph::open(graph_dir)),
        layout(gridgraph_layout(graph)) {}
  TempDir dir;
  EdgeSet set;
  std::string graph_dir;
  GridGraph graph;
  EngineLayout layout;
};

// A chunk's bytes into the cache, as GraphSO puts them: admitted, then copied in.
bool offer(ChunkCache& cache, uint32_t chunk, std::span<const std::byte> bytes, double priority) {
  std::byte* entry = cache.admit(chunk, bytes.size(), priority);
  if (entry) std::memcpy(entry, bytes.data(), bytes.size());
  return entry != nullptr;
}

}  // namespace

TEST_CASE("TChunk table: chunks cover every partition exactly, fields and source index are exact") {
  const EdgeEncoding encoding = GENERATE(EdgeEncoding::Raw, EdgeEncoding::Packed);
  INFO(encoding_name(encoding));
  Prepared g(12, true, 17, encoding);
  const EdgeSet& set = g.set;
  const GridGraph& graph = g.graph;
  const EngineLayout& layout = g.layout;
  // Packed: chunks of two pages, so that partitions span several.
  const uint64_t chunk_bytes = encoding == EdgeEncoding::Raw ? 4096 : 8192;
  TChunkTable table = TChunkTable::build(layout, chunk_bytes);
  uint64_t total = 0;
  std::map<uint32_t, uint64_t> covered;  // partition -> edges covered so far, in order
  for (uint32_t id = 0; id < table.chunks().size(); ++id) {
    const ChunkInfo& c = table.chunk(id);
    if (encoding == EdgeEncoding::Raw) {
      REQUIRE(c.bytes == uint64_t{c.edges} * 12);
      REQUIRE(c.bytes <= 4096 + 12);
      // Chunks follow the file's 4 KiB grid: each starts within one record of a grid line,
      // unless it is a partition's first.
      if (c.first_edge > 0) REQUIRE(c.offset % 4096 < 12);
    } else {
      // Whole pages, on the file's chunk grid unless a partition's first, never more than a chunk.
      REQUIRE(c.offset % 4096 == 0);
      REQUIRE(c.bytes % 4096 == 0);
      REQUIRE(c.bytes <= chunk_bytes);
      if (c.first_edge > 0) REQUIRE(c.offset % chunk_bytes == 0);
      REQUIRE(c.edges > c.bytes / 12);  // fewer bytes than raw records
    }
    REQUIRE(c.first_edge == covered[c.partition]);  // contiguous, in order, no gaps
    covered[c.partition] += c.edges;
    total += c.edges;
    auto edges = graphso::testing::chunk_edges(layout, c);
    std::map<VertexId, uint64_t> runs;
    VertexId min_dst = UINT32_MAX, max_dst = 0;
    for (const auto& e : edges) {
      ++runs[e.src];
      min_dst = std::min(min_dst, e.dst);
      max_dst = std::max(max_dst, e.dst);
    }
    REQUIRE(c.first_src == runs.begin()->first);
    REQUIRE(c.last_src == runs.rbegin()->first);
    REQUIRE(c.min_dst == min_dst);
    REQUIRE(c.max_dst == max_dst);
    REQUIRE(c.distinct_sources == runs.size());
    uint64_t degree_sum = 0;
    for (const auto& [s, n] : runs) degree_sum += graph.out_degrees()[s];
    REQUIRE(c.source_degree_sum == degree_sum);
    std::map<VertexId, uint64_t> indexed;
    table.for_each_source(id, [&](VertexId s, uint64_t n) { indexed[s] = n; });
    REQUIRE(indexed == runs);
  }
  REQUIRE(total == set.edges.size());
  for (uint32_t p = 0; p < layout.partitions.size(); ++p) REQUIRE(covered[p] == layout.partitions[p].edges);
}

TEST_CASE("TChunk table: save/load round trip; damage and a foreign graph are errors") {
  Prepared g(11, false, 3);
  const EngineLayout& layout = g.layout;
  bool built = false;
  TChunkTable first = TChunkTable::load_or_build(layout, 8192, &built);
  REQUIRE(built);
  TChunkTable again = TChunkTable::load_or_build(layout, 8192, &built);
  REQUIRE_FALSE(built);
  REQUIRE(again.chunks().size() == first.chunks().size());
  REQUIRE(std::memcmp(again.chunks().data(), first.chunks().data(), first.chunks().size() * sizeof(ChunkInfo)) == 0);
  REQUIRE(again.memory_bytes() == first.memory_bytes());

  // Built while streamed to the file (never holding the index), the file is byte for byte the one
  // an in-memory build saves, CRC included, and only what the capacity allows stays resident.
  std::string path = TChunkTable::path(layout, 8192);
  const std::string streamed = read_small_file(path);
  TChunkTable::build(layout, 8192).save(layout);
  REQUIRE(read_small_file(path) == streamed);
  REQUIRE(first.index_bytes() > 0);
  REQUIRE(first.resident_index_bytes() == first.index_memory_bytes());  // load_or_build's default: all of it
  ::unlink(path.c_str());
  const TChunkTable lean = TChunkTable::build_and_save(layout, 8192, 0);
  REQUIRE(lean.resident_index_bytes() == 0);
  REQUIRE(read_small_file(path) == streamed);
  Bitmap some(layout.vertices);
  for (VertexId v = 0; v < layout.vertices; v += 3) some.set(v);
  for (uint32_t m = 0; m < lean.chunks().size(); ++m) {
    REQUIRE(lean.active_in(m, some).edges == first.active_in(m, some).edges);
    REQUIRE(lean.active_in(m, some).sources == first.active_in(m, some).sources);
  }
  REQUIRE(lean.index_bytes_read() > 0);

  {
    File f(path, File::Mode::ReadWrite);
    std::byte x{0x33};
    f.pwrite_all(std::span<const std::byte>(&x, 1), 200);
  }
  REQUIRE_THROWS_WITH(TChunkTable::load(layout, 8192), Catch::Contains("checksum mismatch"));
  File(path, File::Mode::ReadWrite).truncate(100);
  REQUIRE_THROWS_WITH(TChunkTable::load(layout, 8192), Catch::Contains("truncated or corrupt"));

  // An index that disagrees with its records under a good checksum (written so, not damaged on
  // the way) is refused when its skip points are built, not read past its chunk's entries.
  first.save(layout);
  {
    std::string bytes = read_small_file(path);
    const size_t index_at = 72 + first.chunks().size() * sizeof(ChunkInfo);  // header, records
    bytes[index_at] = 0x7f;  // the first source lies 127 ids past the first chunk's first
    bytes.resize(bytes.size() - 4);  // its CRC, written again for the changed bytes
    write_sealed_file(path, bytes);
    REQUIRE_THROWS_WITH(TChunkTable::load(layout, 8192), Catch::Contains("the source index of chunk 0 does not match its record"));
    REQUIRE_NOTHROW(TChunkTable::load(layout, 8192, 0));  // not resident: no skip points, nothing read yet
  }
  first.save(layout);
  EngineLayout other = layout;
  other.identity ^= 1;  // the graph was prepared again
  REQUIRE_THROWS_WITH(TChunkTable::load(other, 8192), Catch::Contains("belongs to another graph"));
  // And a graph really prepared from other edges has another identity.
  Prepared h(11, false, 4);
  REQUIRE(h.layout.identity != layout.identity);
}

TEST_CASE("TChunk table: a frontier's counts in a chunk are the same found from skip points as decoded whole") {
  const EdgeEncoding encoding = GENERATE(EdgeEncoding::Raw, EdgeEncoding::Packed);
  INFO(encoding_name(encoding));
  Prepared g(13, false, 31, encoding);
  const EngineLayout& layout = g.layout;
  const TChunkTable resident = TChunkTable::load_or_build(layout, 65536);  // skip points for every chunk
  const TChunkTable lean = TChunkTable::load(layout, 65536, 0);            // none: every entry list decoded
  REQUIRE(resident.resident_index_bytes() > resident.index_bytes());
  REQUIRE(lean.resident_index_bytes() == 0);
  const uint64_t n = layout.vertices;
  std::mt19937_64 random(7);
  uint64_t looked_up = 0;  // (chunk, frontier) pairs thin enough for the skip points
  std::vector<std::map<VertexId, uint64_t>> runs(resident.chunks().size());  // each chunk's sources and their edges
  for (uint32_t m = 0; m < runs.size(); ++m)
    for (const auto& e : graphso::testing::chunk_edges(layout, resident.chunk(m))) ++runs[m][e.src];
  for (const uint64_t one_in : {1ull, 2ull, 40ull, 300ull, 3000ull, 20000ull}) {
    Bitmap frontier(n);
    for (uint64_t v = 0; v < n; ++v)
      if (random() % one_in == 0) frontier.set(v);
    frontier.set(n - 1);  // the last id, and runs of neighbours: the cursor at and past a source
    for (uint64_t v = n / 2; v < n / 2 + 40; ++v) frontier.set(v);
    INFO("one in " << one_in);
    for (uint32_t m = 0; m < resident.chunks().size(); ++m) {
      const ChunkInfo& c = resident.chunk(m);
      TChunkTable::ActiveCounts expected;
      for (const auto& [source, edges] : runs[m])
        if (frontier.test(source)) expected.sources += 1, expected.edges += edges;
      const uint64_t in_range = frontier.count_in(c.first_src, uint64_t{c.last_src} + 1);
      looked_up += in_range != 0 && in_range * TChunkTable::kLookupBelowOneIn < c.distinct_sources;
      const auto a = resident.active_in(m, frontier), b = lean.active_in(m, frontier);
      INFO("chunk " << m << ", " << in_range << " ids of its range in the frontier, " << c.distinct_sources << " sources");
      REQUIRE(a.sources == expected.sources);
      REQUIRE(a.edges == expected.edges);
      REQUIRE(b.sources == expected.sources);
      REQUIRE(b.edges == expected.edges);
    }
  }
  REQUIRE(looked_up > 10);
}

TEST_CASE("TChunk table: thin frontiers asked together are looked up in one walk, each counted as if alone") {
  Prepared g(13, false, 37, EdgeEncoding::Packed);
  const EngineLayout& layout = g.layout;
  const TChunkTable table = TChunkTable::load_or_build(layout, 65536);
  const uint64_t n = layout.vertices;
  std::mt19937_64 random(11);
  // Frontiers as a batch has them: thin ones that overlap (BFS from neighbouring sources), one
  // that holds no id of many chunks, their union (the report's), and a dense one decoded whole.
  std::vector<Bitmap> frontiers(6, Bitmap(n));
  for (uint64_t v = 0; v < n; ++v) {
    const uint64_t r = random() % 4000;
    if (r < 10) frontiers[0].set(v);
    if (r >= 5 && r < 20) frontiers[1].set(v);
    if (r == 30 && v < n / 3) frontiers[2].set(v);
    if (random() % 3 == 0) frontiers[5].set(v);
  }
  for (uint64_t v = n / 2; v < n / 2 + 50; ++v) frontiers[1].set(v);  // a run: the cursor walks on
  frontiers[0].set(n - 1);
  frontiers[3] = frontiers[0];  // two jobs with one frontier
  for (int k = 0; k < 4; ++k) frontiers[4].or_with(frontiers[k]);
  std::vector<BitmapRank> ranks;
  for (const Bitmap& f : frontiers) ranks.emplace_back(f);
  uint64_t walked_together = 0;  // chunks where two or more frontiers were thin
  for (uint32_t m = 0; m < table.chunks().size(); ++m) {
    const ChunkInfo& c = table.chunk(m);
    std::vector<TChunkTable::ActiveCounts> together(frontiers.size());
    table.active_in(m, ranks, together);
    uint64_t thin = 0;
    for (size_t k = 0; k < frontiers.size(); ++k) {
      const uint64_t in_range = frontiers[k].count_in(c.first_src, uint64_t{c.last_src} + 1);
      thin += in_range != 0 && in_range * TChunkTable::kLookupBelowOneIn < c.distinct_sources;
      TChunkTable::ActiveCounts expected;
      std::set<VertexId> seen;
      for (const auto& e : graphso::testing::chunk_edges(layout, c))
        if (frontiers[k].test(e.src)) expected.sources += seen.insert(e.src).second, expected.edges += 1;
      INFO("chunk " << m << ", frontier " << k);
      REQUIRE(together[k].sources == expected.sources);
      REQUIRE(together[k].edges == expected.edges);
    }
    walked_together += thin >= 2;
  }
  REQUIRE(walked_together > 10);
}

TEST_CASE("GetActiveChunks equals brute force over each chunk's edges, for every job") {
  const EdgeEncoding encoding = GENERATE(EdgeEncoding::Raw, EdgeEncoding::Packed);
  INFO(encoding_name(encoding));
  Prepared g(12, false, 23, encoding);
  const EdgeSet& set = g.set;
  const EngineLayout& layout = g.layout;
  TChunkTable table = TChunkTable::build(layout, 2048);
  const uint64_t n = set.vertices;
  Bitmap sparse(n), dense(n), none(n), wcc(n);
  for (uint64_t v = 0; v < n; v += 97) sparse.set(v);
  for (uint64_t v = 0; v < n; ++v)
    if (v % 3) dense.set(v);
  wcc.set(5);
  std::vector<JobFrontier> jobs = {{&sparse, false}, {&dense, false}, {&none, false}, {&wcc, true}};
  // The report's accounting frontier: another bitmap (counted in the same decode), or a job's own.
  Bitmap accounting(n);
  for (uint64_t v = 0; v < n; v += 5) accounting.set(v);
  const Bitmap* by_source = GENERATE_REF(as<const Bitmap*>{}, nullptr, &accounting, &dense);
  ActiveChunks active = get_active_chunks(table, jobs, 2, by_source);

  std::map<uint32_t, const ChunkDemand*> by_chunk;
  for (const auto& d : active.chunks) by_chunk[d.chunk] = &d;
  for (uint32_t id = 0; id < table.chunks().size(); ++id) {
    const ChunkInfo& c = table.chunk(id);
    auto edges = graphso::testing::chunk_edges(layout, c);
    std::vector<uint32_t> want_jobs;
    std::vector<uint64_t> want_edges;
    uint64_t want_sources = 0;
    for (uint32_t j = 0; j < jobs.size(); ++j) {
      std::set<VertexId> sources;
      uint64_t active_edges = 0;
      bool destination = false;
      for (const auto& e : edges) {
        if (jobs[j].frontier->test(e.src)) {
          sources.insert(e.src);
          ++active_edges;
        }
        if (jobs[j].both_directions && e.dst <= c.max_dst && jobs[j].frontier->any_in(c.min_dst, c.max_dst + 1ull))
          destination = true;
      }
      if (sources.empty() && !destination) continue;
      want_jobs.push_back(j);
      want_edges.push_back(destination ? c.edges : active_edges);
      want_sources += sources.size();
    }
    if (want_jobs.empty()) {
      REQUIRE(by_chunk.count(id) == 0);
      continue;
    }
    REQUIRE(by_chunk.count(id) == 1);
    const ChunkDemand& d = *by_chunk[id];
    REQUIRE(d.jobs == want_jobs);
    REQUIRE(d.active_edges == want_edges);
    REQUIRE(d.active_sources == want_sources);
    REQUIRE(d.priority == Approx(chunk_priority(c, want_jobs.size(), want_sources)));
    uint64_t accounted = 0;
    for (const auto& e : edges) accounted += by_source && by_source->test(e.src);
    REQUIRE(d.accounted_edges == (by_source ? accounted : EdgeRun::kUncounted));
  }
}

TEST_CASE("Formula 2 priority and the scheduler: cache first, then by priority, each partition by id and within size") {
  Prepared g(12, false, 29);
  const EdgeSet& set = g.set;
  const EngineLayout& layout = g.layout;
  TChunkTable table = TChunkTable::build(layout, 4096);

  ChunkInfo c{};
  c.distinct_sources = 4;
  c.source_degree_sum = 40;
  REQUIRE(chunk_priority(c, 3, 5) == Approx(3 * 5 * 10.0));

  Bitmap frontier(set.vertices);
  for (uint64_t v = 0; v < set.vertices; v += 7) frontier.set(v);
  std::vector<JobFrontier> jobs = {{&frontier, false}};
  ActiveChunks active = get_active_chunks(table, jobs, 2);
  REQUIRE(active.chunks.size() > 20);
  ChunkCache cache(64 * 1024);
  std::vector<std::byte> bytes(4096);
  REQUIRE(offer(cache, active.chunks[3].chunk, bytes, 1.0));
  REQUIRE(offer(cache, active.chunks[9].chunk, bytes, 1.0));
  const uint64_t partition = 5 * 8192;
  auto plan = plan_logical_partitions(active, table, cache, partition);
  REQUIRE(plan[0].from_cache);
  REQUIRE(plan[0].demands == std::vector<uint32_t>{3, 9});
  std::vector<double> priorities;
  size_t served = plan[0].demands.size();
  for (size_t p = 1; p < plan.size(); ++p) {
    REQUIRE_FALSE(plan[p].from_cache);
    uint64_t used = 0;
    for (size_t k = 0; k < plan[p].demands.size(); ++k) {
      const ChunkDemand& d = active.chunks[plan[p].demands[k]];
      const ChunkInfo& info = table.chunk(d.chunk);
      used += align_up(info.offset + info.bytes, 4096) - align_down(info.offset, 4096);
      if (k) REQUIRE(active.chunks[plan[p].demands[k - 1]].chunk < d.chunk);  // by id inside a partition
    }
    REQUIRE(used <= partition);
    // Every chunk of an earlier partition has at least the priority of every chunk of a later one.
    double lowest = 1e300, highest = 0;
    for (uint32_t d : plan[p].demands) {
      lowest = std::min(lowest, active.chunks[d].priority);
      highest = std::max(highest, active.chunks[d].priority);
    }
    if (!priorities.empty()) REQUIRE(highest <= priorities.back());
    priorities.push_back(lowest);
    served += plan[p].demands.size();
  }
  REQUIRE(served == active.chunks.size());
}

TEST_CASE("the scheduler reads file-adjacent chunks together, in extents placed by their highest priority") {
  Prepared g(14, false, 31);
  TChunkTable table = TChunkTable::build(g.layout, 4096);
  Bitmap frontier(g.set.vertices);
  for (uint64_t v = 0; v < g.set.vertices; v += 7) frontier.set(v);
  std::vector<JobFrontier> jobs = {{&frontier, false}};
  ActiveChunks active = get_active_chunks(table, jobs, 2);
  REQUIRE(active.chunks.size() > 200);
  const ChunkCache cache(0);
  const uint64_t partition = 32 * 8192;  // extents of at most 4 chunks (an eighth)
  auto follows = [&](uint32_t a, uint32_t b) {
    const ChunkInfo &x = table.chunk(active.chunks[a].chunk), &y = table.chunk(active.chunks[b].chunk);
    return x.file == y.file && x.offset + x.bytes == y.offset;
  };
  auto range_of = [&](uint32_t d) { return g.layout.partitions[table.chunk(active.chunks[d].chunk).partition].dst_begin; };
  for (PassOrder order : {PassOrder::Priority, PassOrder::Source, PassOrder::Destination}) {
    INFO(pass_order_name(order));
    auto plan = plan_logical_partitions(active, table, cache, partition, order, kExtentBytes, g.layout.partitions);
    REQUIRE(plan.size() >= 4);
    std::vector<uint32_t> all;
    uint64_t reads = 0;
    std::vector<double> highest;
    for (const LogicalPartition& lp : plan) {
      REQUIRE_FALSE(lp.from_cache);
      uint64_t used = 0;
      double top = 0;
      for (size_t k = 0; k < lp.demands.size(); ++k) {
        const ChunkInfo& info = table.chunk(active.chunks[lp.demands[k]].chunk);
        used += align_up(info.offset + info.bytes, 4096) - align_down(info.offset, 4096);
        if (k) REQUIRE(active.chunks[lp.demands[k - 1]].chunk < active.chunks[lp.demands[k]].chunk);
        reads += k == 0 || !follows(lp.demands[k - 1], lp.demands[k]);
        top = std::max(top, active.chunks[lp.demands[k]].priority);
      }
      REQUIRE(used <= partition);
      highest.push_back(top);
      all.insert(all.end(), lp.demands.begin(), lp.demands.end());
    }
    REQUIRE(all.size() == active.chunks.size());
    // One read per extent at most (taken by priority one chunk at a time, nearly one per chunk).
    REQUIRE(reads * 3 <= active.chunks.size());
    // Logical partitions by the groups of two destination ranges they hold (one thread: two
    // ranges together), in plan order.
    const uint64_t range_size = g.graph.meta().range_size;
    std::vector<std::vector<VertexId>> groups;
    for (const LogicalPartition& lp : plan) {
      std::vector<VertexId> r;
      for (uint32_t d : lp.demands) r.push_back(range_of(d) / range_size / 2);
      std::sort(r.begin(), r.end());
      r.erase(std::unique(r.begin(), r.end()), r.end());
      groups.push_back(r);
    }
    if (order == PassOrder::Source) {
      REQUIRE(std::is_sorted(all.begin(), all.end()));
    } else if (order == PassOrder::Destination) {
      // Group after group: a partition's groups all come after the last one's, and only a group
      // cut where a partition ends is in two of them.
      uint64_t pairs = 0;
      for (size_t p = 0; p < groups.size(); ++p) {
        pairs += groups[p].size();
        if (p) REQUIRE(groups[p - 1].back() <= groups[p].front());
      }
      REQUIRE(pairs <= g.graph.meta().partitions / 2 + plan.size() - 1);
      // Inside a group, extents by priority: of two partitions wholly in one group, the later one
      // starts no higher.
      uint64_t within = 0;
      for (size_t p = 1; p < groups.size(); ++p)
        if (groups[p].size() == 1 && groups[p - 1] == groups[p]) {
          REQUIRE(highest[p] <= highest[p - 1]);
          ++within;
        }
      REQUIRE(within > 0);
      // With one group (threads enough for every range), destination order is priority order.
      const int every = static_cast<int>(g.graph.meta().partitions);
      auto one_group = plan_logical_partitions(active, table, cache, partition, order, kExtentBytes, g.layout.partitions, every);
      auto by_priority = plan_logical_partitions(active, table, cache, partition, PassOrder::Priority, kExtentBytes);
      REQUIRE(one_group.size() == by_priority.size());
      for (size_t p = 0; p < one_group.size(); ++p) REQUIRE(one_group[p].demands == by_priority[p].demands);
    } else {
      double most = 0;
      for (const ChunkDemand& d : active.chunks) most = std::max(most, d.priority);
      REQUIRE(highest[0] == most);
      REQUIRE(std::is_sorted(highest.rbegin(), highest.rend()));
      REQUIRE_FALSE(std::is_sorted(all.begin(), all.end()));
    }
  }
  // Extents of 0 bytes: every chunk placed alone, each partition's chunks at least as high as
  // every later one's.
  auto plan = plan_logical_partitions(active, table, cache, partition, PassOrder::Priority, 0);
  for (size_t p = 1; p < plan.size(); ++p) {
    double lowest = 1e300, highest = 0;
    for (uint32_t d : plan[p - 1].demands) lowest = std::min(lowest, active.chunks[d].priority);
    for (uint32_t d : plan[p].demands) highest = std::max(highest, active.chunks[d].priority);
    REQUIRE(highest <= lowest);
  }
}

TEST_CASE("chunk cache: inserts while room, then evicts lowest priority first, never for a colder chunk") {
  ChunkCache cache(3000);
  std::vector<std::byte> kb(1000, std::byte{7});
  REQUIRE(offer(cache, 1, kb, 5.0));
  REQUIRE(offer(cache, 2, kb, 1.0));
  REQUIRE(offer(cache, 3, kb, 3.0));
  REQUIRE(cache.used() == 3000);
  REQUIRE_FALSE(offer(cache, 4, kb, 0.5));  // colder than everything cached
  REQUIRE(offer(cache, 5, kb, 4.0));        // evicts 2 (priority 1)
  REQUIRE(cache.cached_chunks() == std::vector<uint32_t>{1, 3, 5});
  cache.refresh({{1, 9.0}, {5, 2.0}});     // 3 is no longer wanted: priority 0
  REQUIRE(cache.priority(3) == 0);
  std::vector<std::byte> two_kb(2000, std::byte{9});
  REQUIRE(offer(cache, 6, two_kb, 2.5));    // needs 2000 bytes: evicts 3 (0) then 5 (2.0)
  REQUIRE(cache.cached_chunks() == std::vector<uint32_t>{1, 6});
  REQUIRE(cache.stats().evictions == 3);
  REQUIRE(cache.lookup(6)[1999] == std::byte{9});
  REQUIRE(cache.lookup(2) == nullptr);
  REQUIRE(cache.stats().hits == 1);
  REQUIRE(cache.stats().misses == 1);
  REQUIRE_FALSE(offer(cache, 7, std::vector<std::byte>(4000), 100.0));  // larger than the cache
}

TEST_CASE("chunk cache: a refresh moves only what changed, and leaves every priority as a full one would") {
  // A model of what refresh() promises (every cached chunk its given priority, or 0) against the
  // cache after random rounds of admissions and refreshes; each eviction takes the model's coldest.
  std::mt19937_64 random(5);
  ChunkCache cache(40 * 100);  // 40 chunks of 100 bytes
  std::map<uint32_t, double> model;
  for (int round = 0; round < 300; ++round) {
    std::vector<std::pair<uint32_t, double>> priorities;
    for (uint32_t id = 0; id < 60; ++id)
      if (random() % 3 == 0) priorities.emplace_back(id, static_cast<double>(random() % 5));  // ties, and 0s
    cache.refresh(priorities);
    for (auto& [id, p] : model) p = 0;
    for (const auto& [id, p] : priorities)
      if (model.count(id)) model[id] = p;
    for (const auto& [id, p] : model) REQUIRE(cache.priority(id) == p);
    // Admissions: the coldest goes first (lowest priority, then highest id), only for a hotter one.
    for (int k = 0; k < 3; ++k) {
      const uint32_t id = static_cast<uint32_t>(random() % 60);
      const double p = static_cast<double>(random() % 6);
      if (model.count(id)) continue;
      auto coldest = model.begin();
      for (auto it = model.begin(); it != model.end(); ++it)
        if (it->second < coldest->second || (it->second == coldest->second && it->first > coldest->first)) coldest = it;
      const bool full = model.size() == 40;
      const bool taken = cache.admit(id, 100, p) != nullptr;
      REQUIRE(taken == (!full || coldest->second < p));
      if (taken && full) {
        REQUIRE_FALSE(cache.contains(coldest->first));
        model.erase(coldest);
      }
      if (taken) model[id] = p;
    }
    REQUIRE(cache.cached_chunks().size() == model.size());
  }
}

TEST_CASE("chunk cache: admit() takes an entry to fill, which a later, hotter admission may evict") {
  ChunkCache cache(2000);
  std::byte* a = cache.admit(1, 1000, 1.0);
  REQUIRE(a != nullptr);
  std::memset(a, 1, 1000);
  REQUIRE(cache.admit(1, 1000, 9.0) == nullptr);  // already cached
  std::byte* b = cache.admit(2, 1000, 2.0);
  REQUIRE(b != nullptr);
  REQUIRE(cache.admit(3, 1000, 0.5) == nullptr);  // colder than both
  std::byte* c = cache.admit(4, 1000, 3.0);       // evicts 1, admitted just before
  REQUIRE(c != nullptr);
  REQUIRE_FALSE(cache.contains(1));
  REQUIRE(cache.contains(2));
  REQUIRE(cache.used() == 2000);
  std::memset(b, 2, 1000);
  std::memset(c, 4, 1000);
  REQUIRE(cache.lookup(2)[999] == std::byte{2});
  REQUIRE(cache.lookup(4)[0] == std::byte{4});
}

TEST_CASE("the cache takes a load's chunks on every thread: each cached chunk holds its own bytes, after evictions") {
  // A cache of a third of the graph, partitions of several 4 KiB chunks and two threads: round 1
  // reads every chunk and the cache evicts while it fills, within a load too (a logical
  // partition's chunks go by in file order, not by priority, so a later one may evict one admitted
  // just before, which must then not be copied into); round 2 serves what stayed from the cache,
  // each run checked against the chunk's edges on file. Copying into an evicted entry corrupted
  // the heap here (and is a use after free under `make asan`).
  Prepared g(13, true, 21);
  ReaderFactory readers{ReaderOptions{}};
  const TChunkTable full = TChunkTable::build(g.layout, 4096);
  uint64_t graph_bytes = 0;
  for (const ChunkInfo& c : full.chunks()) graph_bytes += c.bytes;
  GraphSOConfig config;
  config.threads = 2;
  config.chunk_bytes = 4096;
  config.cache_ratio = 0.5;
  config.graph_budget_bytes = 2 * (graph_bytes / 3);
  auto mw = GraphSO::Init(g.layout, config, readers);
  const TChunkTable& table = mw->table();
  REQUIRE(mw->cache_capacity() < graph_bytes / 2);
  REQUIRE(mw->partition_bytes() >= 4 * 4096);
  uint64_t served_from_cache = 0;
  auto serve = [&](const LoadedPartition& lp) {
    for (const EdgeRun& run : lp.runs) {
      graphso::testing::check_served_chunk(g.layout, table, run);
      served_from_cache += lp.from_cache;
    }
  };
  Bitmap all(g.layout.vertices);
  all.set_all();
  for (int round = 0; round < 2; ++round) {
    ActiveChunks active = mw->GetActiveChunks(std::vector<JobFrontier>{{&all, false}});
    REQUIRE(active.chunks.size() == table.chunks().size());
    while (std::optional<LoadedPartition> lp = mw->Schedule(active)) serve(*lp);
  }
  const CacheStats cache = mw->stats().cache;
  REQUIRE(cache.evictions > 0);
  REQUIRE(cache.hits > 0);
  REQUIRE(served_from_cache == cache.hits);
}

namespace {
// The edges a run holds, records or decoded source groups alike (weight 1 when unweighted).
std::vector<WeightedEdge> edges_of(const EdgeRun& run) {
  std::vector<WeightedEdge> out;
  for_each_edge(run, [&](VertexId src, VertexId dst, Weight w) { out.push_back({src, dst, w}); });
  return out;
}
bool same_edges(const std::vector<WeightedEdge>& a, const std::vector<WeightedEdge>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(WeightedEdge)) == 0;
}
}  // namespace

TEST_CASE("decoded cache: a packed graph's chunks are served as their source groups, the chunk's edges, after evictions") {
  // As above on packed pages, with the cache holding chunks decoded: a run read from the device
  // and taken by the cache is handed decoded already (its entry filled before the engine sees
  // it); one the cache refused comes packed; one served from the cache in round 2 is decoded.
  // Each holds exactly its chunk's edges, however evictions went.
  const bool weighted = GENERATE(false, true);
  INFO("weighted " << weighted);
  Prepared g(13, weighted, 23, EdgeEncoding::Packed);
  ReaderFactory readers{ReaderOptions{}};
  const TChunkTable full = TChunkTable::build(g.layout, 4096);
  uint64_t graph_bytes = 0;
  for (const ChunkInfo& c : full.chunks()) graph_bytes += c.bytes;
  GraphSOConfig config;
  config.threads = 2;
  config.chunk_bytes = 4096;
  config.cache_ratio = 0.5;
  config.graph_budget_bytes = 2 * graph_bytes;  // a cache of the packed graph: part of it decoded
  config.cache_form = CacheForm::Auto;
  REQUIRE(std::string(GraphSO::Init(g.layout, config, readers)->cache_form()) == "packed");  // too small for auto
  config.cache_form = CacheForm::Decoded;
  auto mw = GraphSO::Init(g.layout, config, readers);
  REQUIRE(std::string(mw->cache_form()) == "decoded");
  REQUIRE(mw->whole_graph_cache_bytes() > mw->cache_capacity());
  const TChunkTable& table = mw->table();
  uint64_t decoded = 0, packed = 0, from_cache = 0;
  Bitmap all(g.layout.vertices);
  all.set_all();
  for (int round = 0; round < 2; ++round) {
    ActiveChunks active = mw->GetActiveChunks(std::vector<JobFrontier>{{&all, false}});
    while (std::optional<LoadedPartition> lp = mw->Schedule(active)) {
      for (const EdgeRun& run : lp->runs) {
        uint32_t id = UINT32_MAX;
        for (uint32_t m = 0; m < table.chunks().size(); ++m)
          if (table.chunk(m).partition == run.partition && table.chunk(m).first_edge == run.first_edge) id = m;
        REQUIRE(id != UINT32_MAX);
        REQUIRE(run.count == table.chunk(id).edges);
        if (run.packed) {
          ++packed;
          std::vector<std::byte> records;
          REQUIRE(decode_packed_pages({run.data, run.packed_bytes}, run.weighted, records, nullptr) == static_cast<int64_t>(run.count));
          EdgeRun raw = run;
          raw.packed = false;
          raw.data = records.data();
          REQUIRE(same_edges(edges_of(raw), graphso::testing::chunk_edges(g.layout, table.chunk(id))));
        } else {
          REQUIRE(run.grouped());
          ++decoded;
          from_cache += lp->from_cache;
          REQUIRE(run.groups.groups == table.chunk(id).distinct_sources);
          REQUIRE(same_edges(edges_of(run), graphso::testing::chunk_edges(g.layout, table.chunk(id))));
        }
      }
    }
  }
  const CacheStats cache = mw->stats().cache;
  REQUIRE(cache.evictions > 0);
  REQUIRE(from_cache == cache.hits);
  REQUIRE(from_cache > 0);
  REQUIRE(packed > 0);  // refused by a full cache of hotter chunks
  REQUIRE(decoded > from_cache);  // taken as they were read
  REQUIRE(mw->cache_used() <= mw->cache_capacity());
}

TEST_CASE("Formula 1 chunk size: clamped, a power of two, smaller with more cores and vertices") {
  REQUIRE(formula_chunk_bytes(1ull << 30, 1 << 20, 2, 20ull << 20) == 4ull << 20);
  REQUIRE(formula_chunk_bytes(1ull << 30, 1 << 20, 16, 20ull << 20) == 512ull << 10);
  REQUIRE(formula_chunk_bytes(1ull << 30, 1ull << 31, 16, 20ull << 20) == 64ull << 10);  // 57 KiB, clamped low
  REQUIRE(formula_chunk_bytes(1ull << 30, 1 << 10, 1, 256ull << 20) == 8ull << 20);    // clamped high
  uint64_t here = formula_chunk_bytes(1ull << 30, 1 << 20, 2);
  REQUIRE(here >= 64 * 1024);
  REQUIRE(here <= 8 << 20);
  REQUIRE((here & (here - 1)) == 0);
}

TEST_CASE("Init: the chunk records, the cache, the resident index and two buffers fit the budget; a chunk size that cannot is refused before building") {
  Prepared g(14, true, 9);
  ReaderFactory readers{ReaderOptions{}};
  GraphSOConfig config;
  config.threads = 2;
  config.cache_ratio = 0.5;
  // Half the budget for the cache; the other half holds the 4 KiB records, two 4 KiB buffers and a
  // little of the source index: the rest of it is read on demand.
  const TChunkTable::Shape shape4k = TChunkTable::shape(g.layout, 4096);
  const uint64_t index4k = TChunkTable::build(g.layout, 4096).index_bytes();
  // (room for the two threads' index read buffers too)
  config.graph_budget_bytes = 2 * (shape4k.records_bytes() + 2 * shape4k.largest_span + index4k / 4 + (32 << 10));
  config.chunk_bytes = 4096;
  auto mw = GraphSO::Init(g.layout, config, readers);
  const TChunkTable& table = mw->table();
  INFO("budget " << config.graph_budget_bytes << ", index " << table.index_bytes() << ", resident " << table.resident_index_bytes());
  REQUIRE(table.resident_index_bytes() > 0);
  REQUIRE(table.resident_index_bytes() < table.index_bytes());
  REQUIRE(mw->cache_capacity() + table.memory_bytes() + 2 * mw->partition_bytes() <= config.graph_budget_bytes);
  for (const ChunkInfo& c : table.chunks())
    REQUIRE(align_up(c.offset + c.bytes, 4096) - align_down(c.offset, 4096) <= mw->partition_bytes());
  // Every chunk's entries read back from the file equal the built table's.
  const TChunkTable built = TChunkTable::build(g.layout, 4096);
  for (uint32_t id = 0; id < table.chunks().size(); ++id) {
    std::vector<std::pair<VertexId, uint64_t>> a, b;
    table.for_each_source(id, [&](VertexId v, uint64_t e) { a.emplace_back(v, e); });
    built.for_each_source(id, [&](VertexId v, uint64_t e) { b.emplace_back(v, e); });
    REQUIRE(a == b);
  }
  REQUIRE(table.index_bytes_read() > 0);
  // A chosen size fits; a size whose two one-chunk buffers cannot is refused, no table built for it.
  config.chunk_bytes = 0;
  REQUIRE(GraphSO::Init(g.layout, config, readers)->table().chunk_bytes() >= 4096);
  config.chunk_bytes = std::bit_floor(config.graph_budget_bytes);
  REQUIRE_THAT(graphso::testing::error_of([&] { GraphSO::Init(g.layout, config, readers); }),
               Catch::Contains("too small for chunk mode"));
  REQUIRE(!path_exists(TChunkTable::path(g.layout, config.chunk_bytes)));
}
