// The packed edge encoding: round trips, explicit splits, the narrowest weights, and damage that
// the page sums would not see (a wrong but intact page) decoded as an error, never a wild read.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <random>
#include <tuple>
#include <vector>

#include "base/decoded_chunk.h"
#include "base/error.h"
#include "base/packed_pages.h"
#include "base/run_edges.h"

using namespace graphso;

namespace {

std::vector<WeightedEdge> sorted(std::vector<WeightedEdge> edges) {
  std::sort(edges.begin(), edges.end(), [](const WeightedEdge& a, const WeightedEdge& b) {
    return std::tie(a.src, a.dst, a.weight) < std::tie(b.src, b.dst, b.weight);
  });
  return edges;
}

std::vector<std::byte> encode(const std::vector<WeightedEdge>& edges, bool weighted) {
  std::vector<std::byte> pages;
  PackedPageWriter writer(weighted, pages);
  for (const WeightedEdge& e : edges) writer.add(e);
  writer.finish();
  REQUIRE(pages.size() == writer.pages() * kPackedPageBytes);
  return pages;
}

std::vector<WeightedEdge> decode(const std::vector<std::byte>& pages, bool weighted) {
  const uint64_t count = packed_edges_in(pages);
  std::vector<std::byte> records;
  PackedPageProblem problem;
  const int64_t n = decode_packed_pages(pages, weighted, records, &problem);
  INFO(problem.what);
  REQUIRE(n == static_cast<int64_t>(count));
  std::vector<WeightedEdge> edges(count, WeightedEdge{0, 0, 1});
  for (uint64_t e = 0; e < count; ++e) std::memcpy(&edges[e], records.data() + e * edge_bytes(weighted), edge_bytes(weighted));
  return edges;
}

// The edges of a run of decoded source groups, through the loops' own interface.
std::vector<WeightedEdge> edges_of(const EdgeRun& run) {
  std::vector<WeightedEdge> edges;
  for_each_edge(run, [&](VertexId src, VertexId dst, Weight w) { edges.push_back({src, dst, w}); });
  return edges;
}

EdgeRun grouped_run(const DecodedGroups& groups, bool weighted) {
  EdgeRun run;
  run.weighted = weighted;
  run.count = groups.edges;
  run.groups = groups.view();
  return run;
}

bool same(const std::vector<WeightedEdge>& a, const std::vector<WeightedEdge>& b, bool weighted) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k)
    if (a[k].src != b[k].src || a[k].dst != b[k].dst || (weighted && a[k].weight != b[k].weight)) return false;
  return true;
}

}  // namespace

TEST_CASE("packed pages: random sorted edges decode to themselves, weighted or not, in any page run") {
  std::mt19937_64 rng(7);
  for (bool weighted : {false, true})
    for (uint32_t span : {1000u, 1u << 20, 0xFFFFFFFEu}) {  // dense ids, sparse ids, the whole id space
      INFO("weighted " << weighted << ", ids below " << span);
      std::vector<WeightedEdge> edges;
      for (int k = 0; k < 20000; ++k) {
        // Weights of every width, so a page's width follows its largest.
        const uint32_t w = static_cast<uint32_t>(rng() >> (32 + rng() % 32));
        edges.push_back({static_cast<VertexId>(rng() % span), static_cast<VertexId>(rng() % span), weighted ? w : 1});
      }
      edges = sorted(edges);
      const std::vector<std::byte> pages = encode(edges, weighted);
      REQUIRE(same(decode(pages, weighted), edges, weighted));
      // Any run of whole pages decodes alone, to the edges it holds, in order.
      uint64_t before = 0;
      for (uint64_t p = 0; p < pages.size(); p += kPackedPageBytes) {
        const std::vector<std::byte> one(pages.begin() + static_cast<int64_t>(p), pages.begin() + static_cast<int64_t>(p + kPackedPageBytes));
        const std::vector<WeightedEdge> got = decode(one, weighted);
        REQUIRE(same(got, std::vector<WeightedEdge>(edges.begin() + static_cast<int64_t>(before),
                                                    edges.begin() + static_cast<int64_t>(before + got.size())),
                     weighted));
        const auto [first, last] = packed_source_range(one);
        REQUIRE(first == got.front().src);
        REQUIRE(last == got.back().src);
        before += got.size();
      }
    }
}

TEST_CASE("packed pages: a source larger than a page continues on the next, with parallel edges and self-loops") {
  std::vector<WeightedEdge> edges;
  for (VertexId d = 0; d < 50000; d += 3) edges.push_back({42, d, 1});
  edges.push_back({42, 49999, 1});
  edges.push_back({42, 49999, 1});  // parallel
  edges.push_back({43, 43, 1});     // self-loop
  edges.push_back({0xFFFFFFFEu, 0, 1});
  edges = sorted(edges);
  const std::vector<std::byte> pages = encode(edges, false);
  REQUIRE(pages.size() > kPackedPageBytes);
  REQUIRE(same(decode(pages, false), edges, false));
  // Dense ids pack: about two bytes an edge here, against eight raw.
  REQUIRE(pages.size() < edges.size() * 3);
}

TEST_CASE("packed pages decoded source by source: the same edges, one group a source, in any piece") {
  std::mt19937_64 rng(13);
  // Unweighted (0), and weights of each width: 1, 2, 3 and 4 bytes.
  for (uint64_t most_weight : {uint64_t{0}, uint64_t{255}, uint64_t{65535}, uint64_t{1} << 20, uint64_t{0xFFFFFFFF}})
    for (uint32_t span : {300u, 1u << 20, 0xFFFFFFFEu}) {
      const bool weighted = most_weight != 0;
      INFO("weights up to " << most_weight << ", ids below " << span);
      std::vector<WeightedEdge> edges;
      for (int k = 0; k < 30000; ++k)
        edges.push_back({static_cast<VertexId>(rng() % span), static_cast<VertexId>(rng() % span),
                         weighted ? static_cast<Weight>(rng() % (most_weight + 1)) : 1});
      for (VertexId d = 0; d < 9000; ++d) edges.push_back({7, d * 5, 1});  // a source over several pages
      edges = sorted(edges);
      const std::vector<std::byte> pages = encode(edges, weighted);
      REQUIRE(pages.size() > 10 * kPackedPageBytes);
      DecodedGroups groups;
      PackedPageProblem problem;
      // Every run of pages, from one page to all of them, into the same (growing) buffer.
      for (int trial = 0; trial < 40; ++trial) {
        const uint64_t count = pages.size() / kPackedPageBytes;
        const uint64_t first = trial == 0 ? 0 : rng() % count;
        const uint64_t last = trial == 0 ? count : first + 1 + rng() % (count - first);
        const std::span<const std::byte> run_pages(pages.data() + first * kPackedPageBytes, (last - first) * kPackedPageBytes);
        uint64_t before = 0;
        for (uint64_t p = 0; p < first; ++p) before += packed_page_edges(pages.data() + p * kPackedPageBytes);
        const int64_t n = decode_packed_groups(run_pages, weighted, groups, &problem);
        INFO(problem.what);
        REQUIRE(n == static_cast<int64_t>(packed_edges_in(run_pages)));
        const std::vector<WeightedEdge> want(edges.begin() + static_cast<int64_t>(before), edges.begin() + static_cast<int64_t>(before) + n);
        const EdgeRun run = grouped_run(groups, weighted);
        REQUIRE(same(edges_of(run), want, weighted));
        // One group a source: sources strictly increase, a source split between pages included.
        for (uint64_t g = 1; g < groups.groups; ++g) REQUIRE(groups.sources[g - 1] < groups.sources[g]);
        // Any piece, starting or stopping inside a group, holds its own edges.
        for (int cut = 0; cut < 20; ++cut) {
          const uint64_t at = rng() % static_cast<uint64_t>(n), size = 1 + rng() % (static_cast<uint64_t>(n) - at);
          const EdgeRun piece = run.piece(at, size);
          REQUIRE(piece.count == size);
          REQUIRE(same(edges_of(piece), std::vector<WeightedEdge>(want.begin() + static_cast<int64_t>(at),
                                                                  want.begin() + static_cast<int64_t>(at + size)),
                       weighted));
        }
      }
    }
}

TEST_CASE("a decoded chunk: docs/middleware.md's worked example, and random pages kept decoded in one block") {
  // 0->1, 0->4, 2->3: 2 groups, 3 edges; 16 + 4 x (4 x 2 + 1) + 4 x 3 = 64 bytes.
  DecodedGroups groups;
  REQUIRE(decode_packed_groups(encode({{0, 1, 1}, {0, 4, 1}, {2, 3, 1}}, false), false, groups, nullptr) == 3);
  REQUIRE(decoded_chunk_bytes(groups.groups, groups.edges, false) == 64);
  std::vector<std::byte> block(64);
  write_decoded_chunk(groups, false, block.data());
  std::vector<uint32_t> words(14);
  std::memcpy(words.data() + 2, block.data() + 16, 48);
  REQUIRE(std::vector<uint32_t>(words.begin() + 2, words.end()) == std::vector<uint32_t>{0, 2, 1, 3, 4, 3, 0, 2, 3, 0, 3, 0});
  uint64_t header[2];
  std::memcpy(header, block.data(), 16);
  REQUIRE((header[0] == 2 && header[1] == 3));
  // Random pages, weighted and not: the block's groups are the decode's, every edge, any piece.
  std::mt19937_64 rng(29);
  for (const bool weighted : {false, true}) {
    std::vector<WeightedEdge> edges;
    for (int k = 0; k < 20000; ++k)
      edges.push_back({static_cast<VertexId>(rng() % 5000), static_cast<VertexId>(rng() % 5000),
                       weighted ? static_cast<Weight>(rng() % 1000) : 1});
    edges = sorted(edges);
    REQUIRE(decode_packed_groups(encode(edges, weighted), weighted, groups, nullptr) == static_cast<int64_t>(edges.size()));
    std::vector<std::byte> kept(decoded_chunk_bytes(groups.groups, groups.edges, weighted));
    write_decoded_chunk(groups, weighted, kept.data());
    EdgeRun run;
    run.count = edges.size();
    run.weighted = weighted;
    run.groups = decoded_chunk_groups(kept.data(), weighted);
    REQUIRE(run.groups.groups == groups.groups);
    REQUIRE(same(edges_of(run), edges, weighted));
    REQUIRE(same(edges_of(run.piece(777, 5000)), std::vector<WeightedEdge>(edges.begin() + 777, edges.begin() + 5777), weighted));
  }
}

TEST_CASE("packed pages decoded source by source: a source's destination bounds, and finding a source") {
  std::vector<WeightedEdge> edges;
  for (VertexId d = 10; d < 12000; d += 2) edges.push_back({3, d, 1});  // over two pages at least
  edges.push_back({9, 4, 1});
  edges.push_back({9, 5, 1});
  for (VertexId s = 20; s < 30; ++s) edges.push_back({s, s * 2, 1});
  const std::vector<std::byte> pages = encode(edges, false);
  REQUIRE(pages.size() >= 2 * kPackedPageBytes);
  DecodedGroups groups;
  PackedPageProblem problem;
  REQUIRE(decode_packed_groups(pages, false, groups, &problem) == static_cast<int64_t>(edges.size()));
  const EdgeRun run = grouped_run(groups, false);
  const GroupEdges<false> view(run);
  uint64_t cursor = 0;
  const SourceEdges three = view.find_source(3, cursor);
  REQUIRE(three.count() == 5995);
  REQUIRE(view.destination_bounds(three) == std::pair<VertexId, VertexId>(10, 11998));
  REQUIRE(view.find_source(5, cursor).count() == 0);  // no such source
  const SourceEdges nine = view.find_source(9, cursor);
  REQUIRE(nine.count() == 2);
  REQUIRE(view.destination_bounds(nine) == std::pair<VertexId, VertexId>(4, 5));
  REQUIRE(view.find_source(29, cursor).count() == 1);
  REQUIRE(view.find_source(30, cursor).count() == 0);
  // A piece from the middle of source 3's edges: the bounds are its group's.
  const EdgeRun piece = run.piece(100, 10);
  const GroupEdges<false> piece_view(piece);
  piece_view.for_each_source([&](const SourceEdges& s) {
    REQUIRE(s.src == 3);
    REQUIRE(piece_view.destination_bounds(s) == std::pair<VertexId, VertexId>(10, 11998));
  });
  // Pages out of order (a source before the previous page's last) are refused: the last page
  // (last source 29), then the first (first source 3).
  std::vector<std::byte> swapped(pages.end() - static_cast<int64_t>(kPackedPageBytes), pages.end());
  swapped.insert(swapped.end(), pages.begin(), pages.begin() + static_cast<int64_t>(kPackedPageBytes));
  REQUIRE(decode_packed_groups(swapped, false, groups, &problem) < 0);
  REQUIRE(problem.page == 1);
  REQUIRE(problem.what == "its first source comes before the previous page's last");
}

TEST_CASE("packed pages: unsorted input is refused when written") {
  std::vector<std::byte> pages;
  PackedPageWriter writer(false, pages);
  writer.add({5, 9, 1});
  REQUIRE_THROWS_AS(writer.add({5, 8, 1}), Error);
  REQUIRE_THROWS_AS(writer.add({4, 20, 1}), Error);
}

TEST_CASE("packed pages: any damage to a page's bytes decodes to an error or to edges, never past the page") {
  // The page sums catch damage first in a run; this is the decoder's own guard, for a page that
  // is wrong but intact. Run under ASan (make asan), a read outside the page would stop the test.
  std::mt19937_64 rng(11);
  std::vector<WeightedEdge> edges;
  for (int k = 0; k < 3000; ++k) edges.push_back({static_cast<VertexId>(rng() % 500), static_cast<VertexId>(rng() % 5000), static_cast<Weight>(rng() % 70000)});
  edges = sorted(edges);
  const std::vector<std::byte> pages = encode(edges, true);
  uint64_t errors = 0, decoded = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    // Each page alone, in a buffer of exactly its size.
    const uint64_t page = rng() % (pages.size() / kPackedPageBytes);
    std::vector<std::byte> one(pages.begin() + static_cast<int64_t>(page * kPackedPageBytes),
                               pages.begin() + static_cast<int64_t>((page + 1) * kPackedPageBytes));
    // Mostly the header and the streams' first bytes, where lengths live.
    const int flips = 1 + static_cast<int>(rng() % 3);
    for (int f = 0; f < flips; ++f) {
      const uint64_t at = rng() % 2 ? rng() % 64 : rng() % kPackedPageBytes;
      one[at] ^= static_cast<std::byte>(1u << (rng() % 8));
    }
    // Room for as many records as any header may claim.
    std::vector<std::byte> out(65536 * 12);
    PackedPageProblem problem;
    const int64_t n = decode_packed_pages(one, true, out.data(), &problem);
    // Source by source: the same verdict, the same edges (and never a read outside the page).
    DecodedGroups groups;
    PackedPageProblem group_problem;
    REQUIRE(decode_packed_groups(one, true, groups, &group_problem) == n);
    if (n >= 0) {
      std::vector<WeightedEdge> records(static_cast<uint64_t>(n));
      std::memcpy(records.data(), out.data(), records.size() * sizeof(WeightedEdge));
      REQUIRE(same(edges_of(grouped_run(groups, true)), records, true));
    }
    if (n < 0) {
      ++errors;
      REQUIRE(!problem.what.empty());
      REQUIRE(problem.page == 0);
    } else {
      ++decoded;
      REQUIRE(static_cast<uint64_t>(n) == packed_page_edges(one.data()));
    }
  }
  REQUIRE(errors > 1000);  // header damage is found
  REQUIRE(decoded > 0);    // a flipped destination or weight byte is not (the page sums are for that)
}

TEST_CASE("packed pages: parse_encoding") {
  REQUIRE(parse_encoding("packed") == EdgeEncoding::Packed);
  REQUIRE(parse_encoding("raw") == EdgeEncoding::Raw);
  REQUIRE_THROWS_WITH(parse_encoding("zip"), Catch::Contains("unknown edge encoding 'zip'"));
}
