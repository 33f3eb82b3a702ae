// The prepared grid: layout invariants, and every kind of damaged directory rejected on open.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "base/error.h"
#include "base/file.h"
#include "engine/gridgraph/grid_graph.h"
#include "prep/grid_prep.h"
#include "tests/test_graphs.h"

using namespace graphso;
using graphso::testing::error_of;
using graphso::testing::TempDir;

namespace {

std::vector<WeightedEdge> read_block(const GridGraph& g, const std::string& path, uint64_t offset, uint64_t count,
                                     uint64_t bytes) {
  const GridMeta& m = g.meta();
  std::vector<std::byte> raw(bytes);
  File(path, File::Mode::Read).pread_exact(raw, offset);
  if (m.packed()) {
    std::vector<std::byte> records;
    PackedPageProblem problem;
    REQUIRE(decode_packed_pages(raw, m.weighted, records, &problem) == static_cast<int64_t>(count));
    raw = std::move(records);
  }
  std::vector<WeightedEdge> edges(count, WeightedEdge{0, 0, 1});
  for (uint64_t e = 0; e < count; ++e) std::memcpy(&edges[e], raw.data() + e * m.edge_size(), m.edge_size());
  return edges;
}

}  // namespace

TEST_CASE("prep: every edge lands once in its block, sorted by source, same in both files") {
  const EdgeEncoding encoding = GENERATE(EdgeEncoding::Packed, EdgeEncoding::Raw);
  INFO(encoding_name(encoding));
  TempDir dir;
  for (bool weighted : {false, true}) {
    EdgeSet set = graphso::testing::rmat_edges(11, 8, weighted, 3, dir);
    std::string graph_dir = graphso::testing::prepare_graph(dir, set, {.partitions = 5, .encoding = encoding}, weighted ? "w" : "u");
    GridGraph g = GridGraph::open(graph_dir);
    const GridMeta& m = g.meta();
    REQUIRE(m.partitions == 5);
    REQUIRE(m.range_size % 64 == 0);
    REQUIRE(m.edges == set.edges.size());
    REQUIRE(m.weighted == weighted);
    std::vector<WeightedEdge> all;
    for (uint32_t i = 0; i < m.partitions; ++i)
      for (uint32_t j = 0; j < m.partitions; ++j) {
        uint64_t count = m.block_edges[m.block_index(i, j)];
        auto row = read_block(g, g.files().grid_row(), m.row_offset(i, j), count, m.block_bytes(i, j));
        auto col = read_block(g, g.files().grid_col(), m.col_offset(i, j), count, m.block_bytes(i, j));
        // Raw, records back to back; packed, whole pages holding fewer bytes than the records.
        if (encoding == EdgeEncoding::Raw) REQUIRE(m.block_bytes(i, j) == count * m.edge_size());
        else REQUIRE((m.block_bytes(i, j) % 4096 == 0 && (count == 0) == (m.block_bytes(i, j) == 0)));
        REQUIRE(std::memcmp(row.data(), col.data(), row.size() * sizeof(WeightedEdge)) == 0);
        for (uint64_t e = 0; e < count; ++e) {
          REQUIRE(m.range_of(row[e].src) == i);
          REQUIRE(m.range_of(row[e].dst) == j);
          if (e) REQUIRE(row[e - 1].src <= row[e].src);
        }
        all.insert(all.end(), row.begin(), row.end());
      }
    auto key = [](const WeightedEdge& a, const WeightedEdge& b) {
      return std::tie(a.src, a.dst, a.weight) < std::tie(b.src, b.dst, b.weight);
    };
    std::vector<WeightedEdge> want = set.edges;
    std::sort(want.begin(), want.end(), key);
    std::sort(all.begin(), all.end(), key);
    REQUIRE(all.size() == want.size());
    REQUIRE(std::equal(all.begin(), all.end(), want.begin(), [](auto& a, auto& b) {
      return a.src == b.src && a.dst == b.dst && a.weight == b.weight;
    }));
    std::vector<uint32_t> degree(set.vertices, 0);
    for (const auto& e : set.edges) ++degree[e.src];
    REQUIRE(g.out_degrees() == degree);
    g.verify_blocks();
  }
}

TEST_CASE("prep with tiny staging buffers and the automatic grid size") {
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(12, 4, false, 9, dir);
  graphso::testing::write_edges(dir.file("e.bin"), set);
  GridPrepOptions options;
  options.staging_bytes = 1;  // every block buffer is one page: many flushes
  prepare_grid(dir.file("e.bin"), dir.file("g"), options);
  GridGraph g = GridGraph::open(dir.file("g"));
  REQUIRE(g.meta().partitions == default_partitions(set.vertices));
  g.verify_blocks();
}

TEST_CASE("damaged graph directories give a clear error naming the file") {
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(10, 8, false, 5, dir);
  auto fresh = [&](const std::string& name) { return graphso::testing::prepare_graph(dir, set, 4, name); };

  SECTION("truncated grid file") {
    std::string g = fresh("t");
    File(g + "/grid.row", File::Mode::ReadWrite).truncate(4096);
    CHECK_THAT(error_of([&] { GridGraph::open(g); }), Catch::Contains("grid.row: size 4096 bytes, expected") &&
                                                          Catch::Contains("truncated or corrupt"));
  }
  SECTION("corrupted meta") {
    std::string g = fresh("c");
    File f(g + "/meta", File::Mode::ReadWrite);
    std::byte x{0x55};
    f.pwrite_all(std::span<const std::byte>(&x, 1), 70);
    CHECK_THAT(error_of([&] { GridGraph::open(g); }), Catch::Contains("meta: checksum mismatch"));
  }
  SECTION("meta of another version") {
    std::string g = fresh("v");
    File f(g + "/meta", File::Mode::ReadWrite);
    uint32_t version = 99;
    f.pwrite_all(as_bytes_of(version), 8);
    CHECK_THAT(error_of([&] { GridGraph::open(g); }), Catch::Contains("graph format version 99"));
  }
  SECTION("truncated meta") {
    std::string g = fresh("m");
    File(g + "/meta", File::Mode::ReadWrite).truncate(30);
    CHECK_THAT(error_of([&] { GridGraph::open(g); }), Catch::Contains("meta: too short"));
  }
  SECTION("corrupt degrees") {
    std::string g = fresh("d");
    File f(g + "/degrees", File::Mode::ReadWrite);
    uint32_t junk = 123456;
    f.pwrite_all(as_bytes_of(junk), 0);
    CHECK_THAT(error_of([&] { GridGraph::open(g); }), Catch::Contains("degrees: checksum mismatch"));
  }
  SECTION("a flipped edge is caught by --verify's block checksum") {
    std::string g = fresh("b");
    File f(g + "/grid.col", File::Mode::ReadWrite);
    uint32_t junk = 0xFFFFFFF0u;
    f.pwrite_all(as_bytes_of(junk), 0);
    GridGraph opened = GridGraph::open(g);  // sizes and meta are fine
    CHECK_THAT(error_of([&] { opened.verify_blocks(); }), Catch::Contains("grid.col: block (0, 0) checksum mismatch"));
  }
  SECTION("not a graph directory, or prep interrupted before meta") {
    CHECK_THAT(error_of([&] { GridGraph::open(dir.file("nope")); }), Catch::Contains("no such graph directory"));
    std::filesystem::create_directory(dir.file("empty"));
    CHECK_THAT(error_of([&] { GridGraph::open(dir.file("empty")); }), Catch::Contains("not a prepared graph"));
  }
}
