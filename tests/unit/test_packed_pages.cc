// The packed edge encoding: round trips, explicit splits, the narrowest weights, and damage that
// the page sums would not see (a wrong but intact page) decoded as an error, never a wild read.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <random>
#include <tuple>
#include <vector>

#include "base/error.h"
#include "base/packed_pages.h"

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
