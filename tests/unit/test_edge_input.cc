// Reading foreign edge lists: formats, gzip, transforms, and the one-line errors on bad input.
#include <zlib.h>

#include <catch2/catch.hpp>
#include <fstream>

#include "datasets/edge_input.h"
#include "datasets/edge_list.h"
#include "base/error.h"
#include "base/file.h"
#include "tests/test_graphs.h"

using namespace graphso;
using graphso::testing::error_of;
using graphso::testing::TempDir;

namespace {

std::string write_text(const TempDir& dir, const std::string& name, const std::string& text) {
  std::string path = dir.file(name);
  std::ofstream(path) << text;
  return path;
}


}  // namespace

TEST_CASE("SNAP-style text: comments, tabs, blank lines, n = largest id + 1") {
  TempDir dir;
  auto path = write_text(dir, "g.el", "# comment\n% another\n0\t1\n\n  2 3\r\n1 0\n5 2");
  EdgeSet set = read_edge_input(path, {});
  REQUIRE(set.vertices == 6);
  REQUIRE_FALSE(set.weighted);
  REQUIRE(set.edges.size() == 4);
  CHECK(set.edges[1].src == 2);
  CHECK(set.edges[1].dst == 3);
  CHECK(set.edges[3].src == 5);
  CHECK(set.edges[3].dst == 2);  // last line without a newline
}

TEST_CASE("weighted text (.wel) keeps integer weights; a third column is dropped only when asked, and must be numeric") {
  TempDir dir;
  EdgeSet set = read_edge_input(write_text(dir, "g.wel", "0 1 7\n1 2 3.0\n"), {});
  REQUIRE(set.weighted);
  REQUIRE(set.edges[0].weight == 7);
  REQUIRE(set.edges[1].weight == 3);
  // Without --weighted a weight column is an error, not a silently unweighted graph.
  const std::string h = write_text(dir, "h.el", "0 1\n0 1 7\n");
  CHECK_THAT(error_of([&] { read_edge_input(h, {}); }),
             Catch::Contains("h.el:2: a third column '7' (a weight?): convert with --weighted to keep it as the edge weight, or --ignore-weights"));
  EdgeInputOptions drop;
  drop.ignore_weights = true;
  EdgeSet unweighted = read_edge_input(h, drop);
  REQUIRE_FALSE(unweighted.weighted);
  REQUIRE(unweighted.edges[1].weight == 1);
  // A dropped column must still be numbers; real ones are fine to drop.
  CHECK_THAT(error_of([&] { read_edge_input(write_text(dir, "x.el", "0 1 x\n"), drop); }),
             Catch::Contains("x.el:1: value 'x' is not a finite number"));
  CHECK(read_edge_input(write_text(dir, "r.el", "0 1 0.5\n"), drop).edges.size() == 1);
  EdgeInputOptions both = drop;
  both.weighted = true;
  CHECK_THAT(error_of([&] { read_edge_input(h, both); }), Catch::Contains("--weighted and --ignore-weights: choose one"));
}

TEST_CASE("malformed text gives file:line and what is wrong") {
  TempDir dir;
  auto bad = [&](const std::string& text) {
    return error_of([&] { read_edge_input(write_text(dir, "bad.el", text), {}); });
  };
  CHECK_THAT(bad("0 1\n1 x\n"), Catch::Contains("bad.el:2: destination id 'x' is not a non-negative integer"));
  CHECK_THAT(bad("0 1\n7\n"), Catch::Contains("bad.el:2: expected 'src dst'"));
  CHECK_THAT(bad("-1 2\n"), Catch::Contains("bad.el:1: negative source id '-1'"));
  CHECK_THAT(bad("0 4294967295\n"), Catch::Contains("bad.el:1: vertex id 4294967295 is out of range"));
  CHECK_THAT(bad("0 99999999999999999999999\n"), Catch::Contains("bad.el:1: destination id"));
  CHECK_THAT(error_of([&] { read_edge_input(write_text(dir, "bad4.wel", "0 1 2 3\n"), {}); }),
             Catch::Contains("bad4.wel:1: unexpected extra column '3'"));
  CHECK_THAT(error_of([&] { read_edge_input(write_text(dir, "bad.wel", "0 1\n"), {}); }),
             Catch::Contains("bad.wel:1: missing weight"));
  CHECK_THAT(error_of([&] { read_edge_input(write_text(dir, "bad2.wel", "0 1 2.5\n"), {}); }),
             Catch::Contains("bad2.wel:1: weight '2.5' is not an integer"));
  CHECK_THAT(error_of([&] { read_edge_input(write_text(dir, "neg.wel", "0 1 -3\n"), {}); }),
             Catch::Contains("neg.wel:1: weight '-3' is not an integer"));
}

TEST_CASE("gzip input is read directly") {
  TempDir dir;
  std::string path = dir.file("g.el.gz");
  gzFile gz = gzopen(path.c_str(), "wb");
  REQUIRE(gz);
  std::string text;
  for (int i = 0; i < 100000; ++i) text += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  REQUIRE(gzwrite(gz, text.data(), static_cast<unsigned>(text.size())) == static_cast<int>(text.size()));
  gzclose(gz);
  EdgeSet set = read_edge_input(path, {});
  REQUIRE(set.edges.size() == 100000);
  REQUIRE(set.vertices == 100001);
  REQUIRE(set.edges[99999].src == 99999);
}

TEST_CASE("Matrix Market: 1-based, symmetric expansion, values as weights, counts checked") {
  TempDir dir;
  auto path = write_text(dir, "g.mtx",
                         "%%MatrixMarket matrix coordinate integer symmetric\n% c\n4 4 3\n2 1 5\n3 3 1\n4 2 9\n");
  EdgeInputOptions weighted;
  weighted.weighted = true;
  EdgeSet set = read_edge_input(path, weighted);
  REQUIRE(set.vertices == 4);
  REQUIRE(set.edges.size() == 5);  // two off-diagonal entries mirrored, the diagonal once
  CHECK(set.edges[0].src == 1);
  CHECK(set.edges[0].dst == 0);
  CHECK(set.edges[0].weight == 5);
  CHECK(set.edges[1].src == 0);
  CHECK(set.edges[1].dst == 1);

  auto mtx_error = [&](const std::string& text) {
    return error_of([&] { read_edge_input(write_text(dir, "bad.mtx", text), {}); });
  };
  CHECK_THAT(mtx_error("%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n"),
             Catch::Contains("file ends after 1 entries, the header declares 2"));
  CHECK_THAT(mtx_error("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 4\n"),
             Catch::Contains("bad.mtx:3: column index 4 outside 1..3"));
  CHECK_THAT(mtx_error("%%MatrixMarket matrix array real general\n"), Catch::Contains("only coordinate"));
  // A graph's adjacency is square; values are weights only when asked for, dropped only when asked.
  CHECK_THAT(mtx_error("%%MatrixMarket matrix coordinate pattern general\n14 15 1\n1 2\n"),
             Catch::Contains("bad.mtx:2: a 14 x 15 matrix: a graph's adjacency matrix is square"));
  CHECK_THAT(mtx_error("%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 4\n"),
             Catch::Contains("bad.mtx:1: the matrix has integer values: convert with --weighted"));
  EdgeInputOptions drop;
  drop.ignore_weights = true;
  EdgeSet dropped = read_edge_input(path, drop);
  REQUIRE_FALSE(dropped.weighted);
  REQUIRE(dropped.edges.size() == 5);
  REQUIRE(dropped.edges[0].weight == 1);
  CHECK_THAT(mtx_error("0 1\n"), Catch::Contains("bad.mtx:1: expected '%%MatrixMarket"));
}

TEST_CASE("raw binary: record size from --weighted, size checked") {
  TempDir dir;
  std::vector<uint32_t> words = {0, 1, 1, 2, 2, 0};
  std::string path = dir.file("g.raw");
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(words.data()), words.size() * 4);
  EdgeSet plain = read_edge_input(path, {});
  REQUIRE(plain.edges.size() == 3);
  REQUIRE(plain.vertices == 3);
  EdgeInputOptions weighted;
  weighted.weighted = true;
  EdgeSet w = read_edge_input(path, weighted);
  REQUIRE(w.edges.size() == 2);
  REQUIRE(w.edges[0].weight == 1);  // 12-byte records: (0, 1, 1), (2, 2, 0)
  REQUIRE(w.edges[1].src == 2);
  REQUIRE(w.edges[1].weight == 0);
  std::ofstream(dir.file("odd.raw"), std::ios::binary).write("abcdefghij", 10);
  CHECK_THAT(error_of([&] { read_edge_input(dir.file("odd.raw"), {}); }),
             Catch::Contains("not a multiple of the 8-byte unweighted record"));
}

TEST_CASE("transforms: drop self-loops, symmetrize, dedup keeps the smallest weight") {
  EdgeSet set;
  set.vertices = 3;
  set.weighted = true;
  set.edges = {{0, 1, 5}, {0, 1, 3}, {1, 1, 1}, {2, 0, 4}};
  EdgeTransforms t;
  t.drop_self_loops = true;
  t.symmetrize = true;
  t.dedup = true;
  apply_transforms(set, t);
  std::vector<std::tuple<VertexId, VertexId, Weight>> got;
  for (auto& e : set.edges) got.emplace_back(e.src, e.dst, e.weight);
  std::vector<std::tuple<VertexId, VertexId, Weight>> want = {{0, 1, 3}, {0, 2, 4}, {1, 0, 3}, {2, 0, 4}};
  REQUIRE(got == want);
}

TEST_CASE("graphso edge list: round trip, corrupt header, truncation") {
  TempDir dir;
  EdgeSet set;
  set.vertices = 10;
  set.weighted = true;
  set.edges = {{0, 9, 2}, {3, 4, 1}};
  graphso::testing::write_edges(dir.file("g.bin"), set);
  EdgeListReader reader(dir.file("g.bin"));
  REQUIRE(reader.info().vertices == 10);
  REQUIRE(reader.info().edges == 2);
  REQUIRE(reader.info().weighted);
  std::vector<WeightedEdge> batch;
  REQUIRE(reader.next_batch(batch, 100));
  REQUIRE(batch.size() == 2);
  REQUIRE(batch[0].dst == 9);
  REQUIRE(batch[0].weight == 2);

  {
    File f(dir.file("g.bin"), File::Mode::ReadWrite);
    f.truncate(f.size() - 3);
  }
  CHECK_THAT(error_of([&] { EdgeListReader r(dir.file("g.bin")); }), Catch::Contains("truncated or corrupt"));
  graphso::testing::write_edges(dir.file("h.bin"), set);
  {
    File f(dir.file("h.bin"), File::Mode::ReadWrite);
    std::byte x{0x7f};
    f.pwrite_all(std::span<const std::byte>(&x, 1), 20);
  }
  CHECK_THAT(error_of([&] { EdgeListReader r(dir.file("h.bin")); }), Catch::Contains("checksum mismatch"));
  // A writer that fails before finish() leaves nothing behind.
  {
    EdgeListWriter writer(dir.file("never.bin"), false);
    writer.append(set.edges);
  }
  REQUIRE_FALSE(path_exists(dir.file("never.bin")));
  REQUIRE_FALSE(path_exists(dir.file("never.bin.tmp")));
}

// A Graphalytics dataset as its properties say (datasets/graphalytics_input.cc): the weight column
// chosen by sssp.weight-property among several, the declared counts checked, extra or missing
// columns refused, real weights read when integral.
TEST_CASE("Graphalytics: the weight property by name, declared counts, columns as the properties list them") {
  TempDir dir;
  auto dataset = [&](const std::string& name, const std::string& properties, const std::string& edges) {
    write_text(dir, name + ".v", "10\n20\n30\n");
    write_text(dir, name + ".e", edges);
    std::string text;
    for (size_t at = 0, nl; at < properties.size(); at = nl + 1) {
      nl = properties.find('\n', at);
      text += "graph." + name + "." + properties.substr(at, nl - at) + "\n";
    }
    return write_text(dir, name + ".properties", "# a comment\n" + text);
  };
  // The weight named "cost", the second of two properties: its column, not the first, nor none.
  const std::string two = dataset("two", "directed = true\nedge-properties.names = time, cost\nedge-properties.types = int, real\n"
                                         "sssp.weight-property = cost\nmeta.vertices = 3\nmeta.edges = 2\n",
                                  "10 20 100 5\n20 30 200 40.0\n");
  EdgeSet set = read_edge_input(two, {});
  REQUIRE(set.weighted);
  REQUIRE(set.vertices == 3);
  REQUIRE(set.edges.size() == 2);
  REQUIRE(set.real_weights);  // cost is typed real
  CHECK(set.edges[0].weight == real_weight_bits(5.0f));
  CHECK(set.edges[1].weight == real_weight_bits(40.0f));
  // The only property is the weight when none is named; undirected: each listed edge both ways.
  const std::string one = dataset("one", "directed = false\nedge-properties.names = cost\nmeta.edges = 1\n", "10 30 7\n");
  EdgeSet both = read_edge_input(one, {});
  REQUIRE(both.weighted);
  REQUIRE(both.edges.size() == 2);
  CHECK(both.edges[1].weight == 7);
  // No properties named: unweighted, and a third column is refused.
  const std::string none = dataset("none", "directed = true\n", "10 20\n20 30 9\n");
  CHECK_THAT(error_of([&] { read_edge_input(none, {}); }),
             Catch::Contains("none.e:2: unexpected extra column '9' ("));
  auto bad = [&](const std::string& name, const std::string& properties, const std::string& edges) {
    return error_of([&] { read_edge_input(dataset(name, properties, edges), {}); });
  };
  CHECK_THAT(bad("named", "edge-properties.names = weight\nsssp.weight-property = cost\n", "10 20 1\n"),
             Catch::Contains("named.properties: sssp.weight-property = cost is not among edge-properties.names (weight)"));
  CHECK_THAT(bad("short", "edge-properties.names = time, cost\nsssp.weight-property = cost\n", "10 20 1\n"),
             Catch::Contains("short.e:1: the line has 1 of the 2 edge properties (time, cost)"));
  CHECK_THAT(bad("nv", "meta.vertices = 4\n", "10 20\n"), Catch::Contains("nv.properties: meta.vertices = 4, but"));
  CHECK_THAT(bad("ne", "meta.edges = 3\n", "10 20\n"), Catch::Contains("ne.properties: meta.edges = 3, but"));
  CHECK_THAT(bad("types", "edge-properties.names = a, b\nedge-properties.types = real\n", "10 20 1 2\n"),
             Catch::Contains("types.properties: edge-properties.types lists 1 types for 2"));
  // A weight typed real is read as a real (binary32); one typed int must be an integer; a real
  // weight must be a finite number >= 0.
  const EdgeSet real = read_edge_input(dataset("real", "edge-properties.names = weight\nedge-properties.types = real\n", "10 20 0.5\n20 10 -0\n"), {});
  REQUIRE(real.real_weights);
  CHECK(real.edges[0].weight == real_weight_bits(0.5f));
  CHECK(real.edges[1].weight == real_weight_bits(0.0f));  // -0 stored as 0: the bits order as the values
  CHECK_THAT(bad("int", "edge-properties.names = weight\nedge-properties.types = int\n", "10 20 0.5\n"),
             Catch::Contains("int.e:1: weight '0.5' is not an integer in [0, 2^32-1] (a graph of real weights: convert --real-weights)"));
  CHECK_THAT(bad("negative", "edge-properties.names = weight\nedge-properties.types = real\n", "10 20 -0.5\n"),
             Catch::Contains("negative.e:1: weight '-0.5' is not a finite number in [0, 3.4e38] (real weights are stored as binary32)"));
  CHECK_THAT(bad("huge", "edge-properties.names = weight\nedge-properties.types = real\n", "10 20 1e39\n"),
             Catch::Contains("huge.e:1: weight '1e39' is not a finite number"));
  CHECK_THAT(bad("inf", "edge-properties.names = weight\nedge-properties.types = real\n", "10 20 inf\n"),
             Catch::Contains("inf.e:1: weight 'inf' is not a finite number"));
  CHECK_THAT(bad("nan", "edge-properties.names = time, weight\nsssp.weight-property = weight\n", "10 20 x 2\n"),
             Catch::Contains("nan.e:1:"));
  // --weighted where the properties name no weight is refused; --ignore-weights drops the named one.
  EdgeInputOptions weighted;
  weighted.weighted = true;
  CHECK_THAT(error_of([&] { read_edge_input(none, weighted); }), Catch::Contains("--weighted, but it names no weight"));
  EdgeInputOptions drop;
  drop.ignore_weights = true;
  EdgeSet dropped = read_edge_input(two, drop);
  REQUIRE_FALSE(dropped.weighted);
  CHECK(dropped.edges[1].weight == 1);
  // Without a properties file: a third column is a weight only under --weighted, dropped only
  // under --ignore-weights (where lines without one are fine too), an error otherwise.
  write_text(dir, "bare.v", "10\n20\n30\n");
  const std::string bare = write_text(dir, "bare.e", "10 20 4\n20 30\n");
  CHECK_THAT(error_of([&] { read_edge_input(bare, {}); }), Catch::Contains("bare.e:1: a third column '4' (a weight?)"));
  CHECK_THAT(error_of([&] { read_edge_input(bare, weighted); }), Catch::Contains("bare.e:2: missing weight (third column)"));
  EdgeSet bare_dropped = read_edge_input(bare, drop);
  REQUIRE_FALSE(bare_dropped.weighted);
  REQUIRE(bare_dropped.edges.size() == 2);
  write_text(dir, "bare.e", "10 20 4 5\n");
  CHECK_THAT(error_of([&] { read_edge_input(bare, weighted); }), Catch::Contains("bare.e:1: unexpected extra column '5'"));
  CHECK_THAT(error_of([&] { read_edge_input(bare, drop); }), Catch::Contains("bare.e:1: unexpected extra column '5'"));
  // Compact ids (numbered through a table) with a gap: an id in the gap is not a vertex.
  write_text(dir, "gap.v", "10\n12\n14\n");
  const std::string gap = write_text(dir, "gap.e", "10 12\n12 14\n");
  REQUIRE(read_edge_input(gap, {}).edges.at(1).dst == 2);
  write_text(dir, "gap.e", "10 12\n12 11\n");
  CHECK_THAT(error_of([&] { read_edge_input(gap, {}); }), Catch::Contains("gap.e:2: destination 11 is not in"));
  write_text(dir, "gap.e", "15 12\n");
  CHECK_THAT(error_of([&] { read_edge_input(gap, {}); }), Catch::Contains("gap.e:1: source 15 is not in"));
  write_text(dir, "bare.e", "10 20 4\n");
  EdgeSet bare_weighted = read_edge_input(bare, weighted);
  REQUIRE(bare_weighted.weighted);
  CHECK(bare_weighted.edges[0].weight == 4);
}
