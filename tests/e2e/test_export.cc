// graphso export: a prepared graph (relabelled, weighted) and a graphso edge list back out as text
// or .bin, in original ids, equal to the edges that went in; the text round-trips through
// convert; a damaged block is a one-line error with nothing written.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "base/file.h"
#include "datasets/edge_list.h"
#include "tests/e2e/cli.h"
#include "tests/test_graphs.h"

using namespace graphso;
using namespace graphso::testing;

namespace {

using EdgeTriple = std::tuple<VertexId, VertexId, Weight>;

std::vector<EdgeTriple> sorted_triples(const std::vector<WeightedEdge>& edges) {
  std::vector<EdgeTriple> out;
  for (const WeightedEdge& e : edges) out.emplace_back(e.src, e.dst, e.weight);
  std::sort(out.begin(), out.end());
  return out;
}

// The "src dst weight" lines of an exported text edge list, and its declared vertex count.
std::vector<EdgeTriple> read_text_export(const std::string& path, uint64_t& declared_vertices) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::vector<EdgeTriple> out;
  std::string line;
  declared_vertices = 0;
  while (std::getline(in, line)) {
    if (line.rfind("# vertices: ", 0) == 0) declared_vertices = std::stoull(line.substr(12));
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    uint64_t s, d, w;
    std::string extra;
    REQUIRE((fields >> s >> d >> w));
    REQUIRE_FALSE((fields >> extra));
    out.emplace_back(static_cast<VertexId>(s), static_cast<VertexId>(d), static_cast<Weight>(w));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<WeightedEdge> read_bin(const std::string& path, EdgeListInfo& info) {
  EdgeListReader reader(path);
  info = reader.info();
  std::vector<WeightedEdge> all, batch;
  while (reader.next_batch(batch, 1000)) all.insert(all.end(), batch.begin(), batch.end());
  return all;
}

}  // namespace

TEST_CASE("export: a relabelled weighted graph comes back in original ids, as text and as .bin") {
  TempDir dir;
  // Ids up to 1199 with 1150..1199 isolated except for 1199's self-loop; 1200..1299 exist only
  // in the vertex count the edge list declares.
  std::vector<WeightedEdge> edges;
  for (VertexId v = 0; v < 1100; ++v) {
    edges.push_back({v, (v * 7 + 1) % 1100, v % 13 + 1});
    edges.push_back({v, (v * v + 3) % 1100, v % 5});
  }
  edges.push_back({1199, 1199, 2});
  write_edges(dir.file("e.bin"), EdgeSet{edges, 1300, true, {}});
  for (const char* order : {"natural", "degree", "bfs"}) {
    INFO("order " << order);
    const std::string g = dir.file(std::string("g-") + order);
    CliResult prep = graphso_cli({"prep", dir.file("e.bin"), "-o", g, "--order", order, "--partitions", "3"});
    INFO(prep.err);
    REQUIRE(prep.status == 0);

    CliResult text = graphso_cli({"export", g, "-o", g + ".txt"});
    INFO(text.err);
    REQUIRE(text.status == 0);
    REQUIRE_THAT(text.out, Catch::Contains("1300 vertices, 2201 edges, weighted, original ids"));
    uint64_t declared = 0;
    REQUIRE(read_text_export(g + ".txt", declared) == sorted_triples(edges));
    REQUIRE(declared == 1300);

    REQUIRE(graphso_cli({"export", g, "-o", g + ".out.bin", "--format", "bin"}).status == 0);
    EdgeListInfo info;
    REQUIRE(sorted_triples(read_bin(g + ".out.bin", info)) == sorted_triples(edges));
    REQUIRE(info.vertices == 1300);
    REQUIRE(info.weighted);

    // Back in through convert: the same edges and the same vertex count.
    CliResult convert = graphso_cli({"convert", g + ".txt", "--weighted", "-o", g + ".again.bin"});
    INFO(convert.err);
    REQUIRE(convert.status == 0);
    REQUIRE(sorted_triples(read_bin(g + ".again.bin", info)) == sorted_triples(edges));
    REQUIRE(info.vertices == 1300);
  }
  // An edge list exports as it is.
  CliResult direct = graphso_cli({"export", dir.file("e.bin"), "-o", "-"});
  REQUIRE(direct.status == 0);
  REQUIRE_THAT(direct.out, Catch::StartsWith("# graphso export of ") && Catch::Contains("\n# vertices: 1300\n"));
  REQUIRE(std::count(direct.out.begin(), direct.out.end(), '\n') == 2 + 2201);
}

TEST_CASE("export: bad input and damaged blocks are one-line errors that write nothing") {
  TempDir dir;
  std::vector<WeightedEdge> edges;
  for (VertexId v = 0; v < 500; ++v) edges.push_back({v, (v * 3 + 1) % 500, 1});
  write_edges(dir.file("e.bin"), EdgeSet{edges, 500, false, {}});
  REQUIRE(graphso_cli({"prep", dir.file("e.bin"), "-o", dir.file("g"), "--partitions", "2"}).status == 0);
  REQUIRE(graphso_cli({"export", dir.file("g"), "-o", dir.file("ok.txt")}).status == 0);

  require_usage_error(graphso_cli({"export", dir.file("g"), "-o", dir.file("x"), "--format", "parquet2"}),
                      "unknown export format 'parquet2' (expected edgelist, bin, gr, graphalytics, sg, metis or parquet)");
  require_usage_error(graphso_cli({"export", dir.file("g"), "-o", "-", "--format", "bin"}), "--format bin needs a file");
  require_usage_error(graphso_cli({"export", dir.file("g")}), "the option '--output' is required");
  require_one_line_error(graphso_cli({"export", dir.file("nothing"), "-o", dir.file("x")}),
                         "no such graph directory or edge list");
  {
    File row(dir.file("g/grid.row"), File::Mode::ReadWrite);
    std::byte x{0x5a};
    row.pwrite_all(std::span<const std::byte>(&x, 1), 9);
  }
  for (const char* format : {"edgelist", "bin"}) {
    require_one_line_error(graphso_cli({"export", dir.file("g"), "-o", dir.file("x"), "--format", format}),
                           "grid.row: block (0, 0) checksum mismatch (corrupt)");
  }
  // Nothing written, no temporaries left; the earlier export is untouched.
  REQUIRE(files_in(dir.path()) == std::vector<std::string>{"e.bin", "g", "ok.txt"});
}

TEST_CASE("real weights: convert, prep, SSSP, export and convert back keep every weight; stores keep them; integer formats refuse them") {
  TempDir dir;
  const std::string text = dir.file("r.wel");
  write_text(text, "0 1 0.5\n1 2 1e-7\n2 0 123456.78\n0 2 3.25\n2 3 0\n");
  // Read as integers, the first fraction is an error that says what to do.
  require_one_line_error(graphso_cli({"convert", text, "-o", dir.file("int.bin")}),
                         "r.wel:1: weight '0.5' is not an integer in [0, 2^32-1] (a graph of real weights: convert --real-weights)");
  const std::string edges = dir.file("r.bin"), graph = dir.file("r");
  CliResult converted = graphso_cli({"convert", text, "-o", edges, "--real-weights"});
  INFO(converted.err);
  REQUIRE(converted.status == 0);
  REQUIRE_THAT(converted.out, Catch::Contains("5 edges, real weights"));
  REQUIRE(graphso_cli({"prep", edges, "-o", graph, "--engine", "both"}).status == 0);
  REQUIRE_THAT(graphso_cli({"inspect", graph}).out, Catch::Contains("weighted:         yes (real, binary32)"));
  // Distances in double over the binary32 weights: 0.5 + 1e-7 beats 3.25, 3 is 0 further.
  for (const char* engine : {"gridgraph", "xstream"}) {
    const std::string out = dir.file(std::string("out-") + engine);
    REQUIRE(graphso_cli({"run", graph, "--engine", engine, "--job", "sssp:source=0", "--verify", "--out", out}).status == 0);
    REQUIRE(read_small_file(out + "/0-sssp.txt") == "0 0\n1 0.5\n2 0.5000001\n3 0.5000001\n");
  }
  // Text, Graphalytics and .bin exports carry the reals, and read back as the same graph.
  const std::string exported = dir.file("e.el"), again = dir.file("again.bin");
  REQUIRE(graphso_cli({"export", graph, "-o", exported}).status == 0);
  REQUIRE_THAT(read_small_file(exported), Catch::Contains("2 0 123456.78\n") && Catch::Contains("1 2 1e-07\n"));
  REQUIRE(graphso_cli({"convert", exported, "-o", again, "--real-weights"}).status == 0);
  REQUIRE(graphso_cli({"export", again, "-o", dir.file("again.el")}).status == 0);
  auto lines = [](const std::string& path) {  // the edges, without the comment lines
    std::vector<std::string> out;
    std::istringstream in(read_small_file(path));
    for (std::string line; std::getline(in, line);)
      if (!line.starts_with("#")) out.push_back(line);
    std::sort(out.begin(), out.end());
    return out;
  };
  REQUIRE(lines(dir.file("again.el")) == lines(exported));
  REQUIRE(graphso_cli({"export", graph, "-o", dir.file("ga.e"), "--format", "graphalytics"}).status == 0);
  REQUIRE_THAT(read_small_file(dir.file("ga.properties")), Catch::Contains("edge-properties.types = real"));
  CliResult from_graphalytics = graphso_cli({"convert", dir.file("ga.properties"), "-o", dir.file("ga.bin")});
  REQUIRE_THAT(from_graphalytics.out, Catch::Contains("real weights"));
  // A store keeps them (its superblock says so): SSSP on it in place, and its snapshot, give the
  // same distances; weights of the other kind, or none, are refused before anything is ingested.
  for (const char* mode : {"xpgraph", "dgap", "gear", "ftgraph"}) {
    INFO(mode);
    const std::string store = dir.file(std::string("store-") + mode), out = dir.file(std::string("store-out-") + mode);
    REQUIRE_THAT(graphso_cli({"ingest", store, "--input", edges, "--store-mode", mode}).out, Catch::Contains("real weights"));
    REQUIRE(graphso_cli({"run", store, "--job", "sssp:source=0", "--verify", "--out", out}).status == 0);
    REQUIRE(read_small_file(out + "/0-sssp.txt") == "0 0\n1 0.5\n2 0.5000001\n3 0.5000001\n");
  }
  const std::string store = dir.file("store-xpgraph");
  REQUIRE(graphso_cli({"snapshot", store, "-o", dir.file("snap")}).status == 0);
  REQUIRE_THAT(graphso_cli({"inspect", dir.file("snap")}).out, Catch::Contains("weighted:         yes (real, binary32)"));
  write_text(dir.file("int.wel"), "0 1 5\n2 3 1\n");
  REQUIRE(graphso_cli({"convert", dir.file("int.wel"), "-o", dir.file("int.bin")}).status == 0);
  require_one_line_error(graphso_cli({"ingest", store, "--input", dir.file("int.bin")}), "has integer weights and " + store + " keeps real ones");
  write_text(dir.file("none.el"), "0 1\n");
  REQUIRE(graphso_cli({"convert", dir.file("none.el"), "-o", dir.file("none.bin")}).status == 0);
  require_one_line_error(graphso_cli({"ingest", store, "--input", dir.file("none.bin")}), "is unweighted and " + store + " keeps real weights");
  REQUIRE(graphso_cli({"ingest", dir.file("int-store"), "--input", dir.file("int.bin")}).status == 0);
  require_one_line_error(graphso_cli({"ingest", dir.file("int-store"), "--input", edges}), "has real weights and");
  // The store still holds exactly what it held.
  REQUIRE_THAT(graphso_cli({"store-stat", store}).out, Catch::Contains("weighted: yes (real, binary32)\n") && Catch::Contains("edges: 5\n"));
  // Formats whose weights are integers refuse them with one line, writing nothing.
  require_one_line_error(graphso_cli({"export", graph, "-o", dir.file("x.gr"), "--format", "gr"}),
                         "export: DIMACS weights are integers and this graph's are real");
  require_one_line_error(graphso_cli({"export", graph, "-o", dir.file("x.wsg"), "--format", "sg"}), "export: GAPBS weights are integers");
  REQUIRE_FALSE(path_exists(dir.file("x.gr")));
  REQUIRE_FALSE(path_exists(dir.file("x.wsg")));
}
