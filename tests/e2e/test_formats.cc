// The field's graph formats through `convert`: each file is laid out here by a small writer that
// shares no code with graphso's readers, as its own tool reads it (GAPBS's reader.h, DIMACS's
// challenge format, METIS's manual, Graphalytics' dataset layout), built from a shipped graph.
// Converted, it must hold exactly the graph's edges and give results equal to the in-memory
// reference (`run --verify`); each round-trips through `export` (convert -> export -> convert);
// malformed files are one-line errors that leave no output.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>

#include "base/file.h"
#include "datasets/edge_input.h"
#include "reference/reference.h"
#include "tests/e2e/cli.h"
#include "tests/test_graphs.h"

using namespace graphso;
using namespace graphso::testing;

namespace {

using Arc = std::tuple<VertexId, VertexId, Weight>;

std::vector<Arc> sorted_arcs(const std::vector<WeightedEdge>& edges, bool weighted) {
  std::vector<Arc> out;
  for (const WeightedEdge& e : edges) out.emplace_back(e.src, e.dst, weighted ? e.weight : 1);
  std::sort(out.begin(), out.end());
  return out;
}

// Out-lists (or in-lists) of a graph, each sorted by neighbour.
std::vector<std::vector<std::pair<VertexId, Weight>>> lists(const EdgeSet& set, bool incoming) {
  std::vector<std::vector<std::pair<VertexId, Weight>>> out(set.vertices);
  for (const WeightedEdge& e : set.edges) out[incoming ? e.dst : e.src].emplace_back(incoming ? e.src : e.dst, e.weight);
  for (auto& l : out) std::sort(l.begin(), l.end());
  return out;
}

template <typename T>
void put(std::ofstream& out, T value) {
  out.write(reinterpret_cast<const char*>(&value), sizeof value);
}

// GAPBS's serialized layout (its writer.h): bool directed, int64 arcs, int64 vertices, offsets and
// neighbours of the out-CSR, and for a directed graph the in-CSR.
void write_gapbs(const std::string& path, const EdgeSet& set, bool directed) {
  std::ofstream out(path, std::ios::binary);
  put<bool>(out, directed);
  put<int64_t>(out, static_cast<int64_t>(set.edges.size()));
  put<int64_t>(out, static_cast<int64_t>(set.vertices));
  for (bool incoming : directed ? std::vector<bool>{false, true} : std::vector<bool>{false}) {
    const auto csr = lists(set, incoming);
    int64_t offset = 0;
    put<int64_t>(out, 0);
    for (const auto& l : csr) put<int64_t>(out, offset += static_cast<int64_t>(l.size()));
    for (const auto& l : csr)
      for (const auto& [v, w] : l) {
        put<int32_t>(out, static_cast<int32_t>(v));
        if (set.weighted) put<int32_t>(out, static_cast<int32_t>(w));
      }
  }
  REQUIRE(out.good());
}

void write_dimacs(const std::string& path, const EdgeSet& set) {
  std::ofstream out(path);
  out << "c " << set.vertices << " vertices\np sp " << set.vertices << " " << set.edges.size() << "\n";
  for (const WeightedEdge& e : set.edges) out << "a " << e.src + 1 << " " << e.dst + 1 << " " << e.weight << "\n";
  REQUIRE(out.good());
}

// METIS: a symmetric graph's lists, 1-based, with weights when it has them (fmt 1).
void write_metis(const std::string& path, const EdgeSet& set) {
  std::ofstream out(path);
  out << "% written by the format test\n" << set.vertices << " " << set.edges.size() / 2 << (set.weighted ? " 1" : "") << "\n";
  for (const auto& l : lists(set, false)) {
    for (size_t i = 0; i < l.size(); ++i) {
      out << (i ? " " : "") << l[i].first + 1;
      if (set.weighted) out << " " << l[i].second;
    }
    out << "\n";
  }
  REQUIRE(out.good());
}

// The id a Graphalytics copy gives vertex v: sparse, above 2^32, in the same order.
uint64_t sparse_id(uint64_t v) { return 1000000000007ull + 5 * v; }

// A Graphalytics dataset of an undirected graph: every vertex, each edge once (u <= v), directed = false.
void write_graphalytics(const std::string& base, const EdgeSet& symmetric_set) {
  const std::string name = base.substr(base.find_last_of('/') + 1);
  std::ofstream v(base + ".v"), e(base + ".e"), p(base + ".properties");
  for (uint64_t x = 0; x < symmetric_set.vertices; ++x) v << sparse_id(x) << "\n";
  for (const WeightedEdge& edge : symmetric_set.edges)
    if (edge.src <= edge.dst) e << sparse_id(edge.src) << " " << sparse_id(edge.dst) << "\n";
  p << "graph." << name << ".vertex-file = " << name << ".v\ngraph." << name << ".edge-file = " << name << ".e\ngraph." << name
    << ".directed = false\n";
  REQUIRE((v.good() && e.good() && p.good()));
}

EdgeSet converted(const std::string& input, const std::string& output) {
  const CliResult r = graphso_cli({"convert", input, "-o", output});
  INFO(r.err);
  REQUIRE(r.status == 0);
  return read_edge_input(output, {});
}

// The graph prepared and a batch run with --verify: every result equal to the reference.
void run_verified(const std::string& bin, const std::string& dir, const std::vector<std::string>& jobs) {
  REQUIRE(graphso_cli({"prep", bin, "-o", dir}).status == 0);
  std::vector<std::string> args = {"run", dir, "--verify", "--mem", "1G"};
  for (const std::string& j : jobs) args.insert(args.end(), {"--job", j});
  const CliResult r = graphso_cli(args);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  REQUIRE_THAT(r.out, Catch::Contains("verified"));
}

}  // namespace

TEST_CASE("formats: GAPBS .sg (directed soc-slashdot, undirected email-enron) and .wsg (osm-rome) read as written") {
  TempDir dir;
  const EdgeSet slashdot = load_dataset("soc-slashdot0902-d.el.gz");
  write_gapbs(dir.file("slashdot.sg"), slashdot, true);
  const EdgeSet a = converted(dir.file("slashdot.sg"), dir.file("slashdot.bin"));
  REQUIRE(a.vertices == slashdot.vertices);
  REQUIRE(!a.weighted);
  REQUIRE(sorted_arcs(a.edges, false) == sorted_arcs(slashdot.edges, false));
  run_verified(dir.file("slashdot.bin"), dir.file("slashdot"), {"bfs:source=0", "wcc", "pagerank:iterations=5"});
  // convert -> export --format sg -> the same file, byte for byte (lists sorted the same way).
  REQUIRE(graphso_cli({"export", dir.file("slashdot"), "-o", dir.file("again.sg"), "--format", "sg"}).status == 0);
  REQUIRE(read_small_file(dir.file("again.sg")) == read_small_file(dir.file("slashdot.sg")));

  const EdgeSet enron = load_dataset("email-enron-u.el.gz");  // symmetrised: both directions stored
  write_gapbs(dir.file("enron.sg"), enron, false);
  REQUIRE(sorted_arcs(converted(dir.file("enron.sg"), dir.file("enron.bin")).edges, false) == sorted_arcs(enron.edges, false));
  // Symmetric: exported undirected, as it was written.
  REQUIRE(graphso_cli({"export", dir.file("enron.bin"), "-o", dir.file("enron-again.sg"), "--format", "sg"}).status == 0);
  REQUIRE(read_small_file(dir.file("enron-again.sg")) == read_small_file(dir.file("enron.sg")));

  const EdgeSet rome = load_dataset("osm-rome.wel.gz");
  write_gapbs(dir.file("rome.wsg"), rome, true);
  const EdgeSet r = converted(dir.file("rome.wsg"), dir.file("rome.bin"));
  REQUIRE(r.weighted);
  REQUIRE(sorted_arcs(r.edges, true) == sorted_arcs(rome.edges, true));
  run_verified(dir.file("rome.bin"), dir.file("rome"), {"sssp:source=0", "wcc"});
  // GAPBS tells a weighted file by its name; exported as .wsg, the same arcs come back.
  require_one_line_error(graphso_cli({"export", dir.file("rome"), "-o", dir.file("x.sg"), "--format", "sg"}),
                         "write this weighted graph to a .wsg file");
  REQUIRE(graphso_cli({"export", dir.file("rome"), "-o", dir.file("again.wsg"), "--format", "sg"}).status == 0);
  REQUIRE(sorted_arcs(converted(dir.file("again.wsg"), dir.file("again.bin")).edges, true) == sorted_arcs(rome.edges, true));
}

TEST_CASE("formats: a DIMACS .gr of the shipped road network reads as written and round-trips through export") {
  TempDir dir;
  EdgeSet road = load_dataset("road-FLA-u.el.gz");
  road.weighted = true;
  for (WeightedEdge& e : road.edges) e.weight = 1 + (std::min(e.src, e.dst) * 7 + std::max(e.src, e.dst) * 13) % 100;
  write_dimacs(dir.file("fla.gr"), road);
  const EdgeSet a = converted(dir.file("fla.gr"), dir.file("fla.bin"));
  REQUIRE(a.vertices == road.vertices);
  REQUIRE(sorted_arcs(a.edges, true) == sorted_arcs(road.edges, true));
  run_verified(dir.file("fla.bin"), dir.file("fla"), {"bfs:source=0", "sssp:source=0", "wcc"});

  // convert -> export --format gr -> convert: the same edge list.
  REQUIRE(graphso_cli({"export", dir.file("fla"), "-o", dir.file("again.gr"), "--format", "gr"}).status == 0);
  REQUIRE(sorted_arcs(converted(dir.file("again.gr"), dir.file("again.bin")).edges, true) == sorted_arcs(road.edges, true));
  // An unweighted graph exports lengths of 1.
  write_text(dir.file("u.el"), "0 1\n1 2\n");
  REQUIRE(graphso_cli({"convert", dir.file("u.el"), "-o", dir.file("u.bin")}).status == 0);
  REQUIRE(graphso_cli({"export", dir.file("u.bin"), "-o", dir.file("u.gr"), "--format", "gr"}).status == 0);
  REQUIRE_THAT(read_small_file(dir.file("u.gr")), Catch::EndsWith("p sp 3 2\na 1 2 1\na 2 3 1\n"));
}

TEST_CASE("formats: METIS files of email-enron (unweighted) and osm-rome (edge weights) read as written") {
  TempDir dir;
  const EdgeSet enron = load_dataset("email-enron-u.el.gz");
  write_metis(dir.file("enron.graph"), enron);
  REQUIRE(sorted_arcs(converted(dir.file("enron.graph"), dir.file("enron.bin")).edges, false) == sorted_arcs(enron.edges, false));
  run_verified(dir.file("enron.bin"), dir.file("enron"), {"bfs:source=100", "wcc"});
  // convert -> export --format metis -> the same lists as written (the comment line aside).
  REQUIRE(graphso_cli({"export", dir.file("enron"), "-o", dir.file("again.graph"), "--format", "metis"}).status == 0);
  auto without_comment = [](const std::string& text) { return text.substr(text.find('\n') + 1); };
  REQUIRE(without_comment(read_small_file(dir.file("again.graph"))) == without_comment(read_small_file(dir.file("enron.graph"))));
  // METIS holds undirected graphs only.
  write_text(dir.file("d.el"), "0 1\n1 2\n2 1\n");
  REQUIRE(graphso_cli({"convert", dir.file("d.el"), "-o", dir.file("d.bin")}).status == 0);
  require_one_line_error(graphso_cli({"export", dir.file("d.bin"), "-o", dir.file("d.graph"), "--format", "metis"}),
                         "METIS holds undirected graphs, and this one is not symmetric: 0 -> 1 has no reverse");
  REQUIRE(!path_exists(dir.file("d.graph")));
  const EdgeSet rome = load_dataset("osm-rome.wel.gz");
  REQUIRE(reference::symmetric(rome.edges));
  write_metis(dir.file("rome.graph"), rome);
  const EdgeSet r = converted(dir.file("rome.graph"), dir.file("rome.bin"));
  REQUIRE(r.weighted);
  REQUIRE(sorted_arcs(r.edges, true) == sorted_arcs(rome.edges, true));
  REQUIRE(graphso_cli({"export", dir.file("rome.bin"), "-o", dir.file("rome-again.graph"), "--format", "metis"}).status == 0);
  REQUIRE(sorted_arcs(converted(dir.file("rome-again.graph"), dir.file("rome-again.bin")).edges, true) == sorted_arcs(rome.edges, true));
}

TEST_CASE("formats: a Graphalytics copy of email-enron runs in the dataset's ids and validates against the reference") {
  TempDir dir;
  const EdgeSet enron = load_dataset("email-enron-u.el.gz");
  write_graphalytics(dir.file("enron"), enron);
  const CliResult c = graphso_cli({"convert", dir.file("enron.e"), "-o", dir.file("enron.bin")});
  INFO(c.err);
  REQUIRE(c.status == 0);
  REQUIRE_THAT(c.out, Catch::Contains("the dataset's own ids in " + dir.file("enron.bin.ids")));
  REQUIRE(sorted_arcs(read_edge_input(dir.file("enron.bin"), {}).edges, false) == sorted_arcs(enron.edges, false));
  REQUIRE(graphso_cli({"prep", dir.file("enron.bin"), "-o", dir.file("g"), "--order", "degree"}).status == 0);

  // Sources in the dataset's ids; results too, with Graphalytics' unreachable values.
  const VertexId source = 100;
  const std::string s = std::to_string(sparse_id(source));
  const CliResult run = graphso_cli({"run", dir.file("g"), "--job", "bfs:source=" + s, "--job", "sssp:source=" + s, "--job", "wcc",
                                     "--job", "pagerank:iterations=10:variant=graphalytics", "--out-format", "graphalytics", "--out",
                                     dir.file("out")});
  INFO(run.err);
  REQUIRE(run.status == 0);
  require_usage_error(graphso_cli({"run", dir.file("g"), "--job", "bfs:source=100"}), "source = 100 is not a vertex of the graph");

  // The expected outputs from the reference, written in the dataset's ids by this test.
  const reference::Csr csr = reference::build_csr(enron.vertices, enron.edges);
  const auto bfs = reference::bfs(csr, source);
  const auto sssp = reference::sssp(csr, source);
  const auto wcc = reference::wcc(enron.vertices, enron.edges);
  const auto pr = reference::pagerank(csr, 10, true);
  std::ofstream eb(dir.file("bfs")), es(dir.file("sssp")), ew(dir.file("wcc")), ep(dir.file("pr"));
  uint64_t unreached = 0;
  for (uint64_t v = 0; v < enron.vertices; ++v) {
    const uint64_t id = sparse_id(v);
    eb << id << " " << (bfs[v] == reference::kUnreached ? std::string("9223372036854775807") : std::to_string(bfs[v])) << "\n";
    es << id << " " << (sssp[v] == reference::kInfinity ? std::string("Infinity") : std::to_string(sssp[v])) << "\n";
    ew << id << " " << wcc[v] + 17 << "\n";  // other labels, the same components
    ep << id << " " << fmt::format("{:.17g}", pr[v]) << "\n";
    unreached += bfs[v] == reference::kUnreached;
  }
  for (std::ofstream* f : {&eb, &es, &ew, &ep}) f->close();
  REQUIRE(unreached > 0);  // enron has 1,065 components: the unreachable values are exercised
  for (auto [file, expected, algo] : {std::tuple{"0-bfs.txt", "bfs", "bfs"}, std::tuple{"1-sssp.txt", "sssp", "sssp"},
                                      std::tuple{"2-wcc.txt", "wcc", "wcc"}, std::tuple{"3-pagerank.txt", "pr", "pagerank"}}) {
    INFO(file);
    const CliResult v = graphso_cli({"validate", dir.file("out") + "/" + file, dir.file(expected), "--algo", algo});
    INFO(v.err);
    REQUIRE(v.status == 0);
  }
  // One changed value is caught.
  std::string results = read_small_file(dir.file("out") + "/0-bfs.txt");
  const size_t at = results.find(std::to_string(sparse_id(source)) + " 0\n");
  REQUIRE(at != std::string::npos);
  results.replace(at, std::to_string(sparse_id(source)).size() + 3, std::to_string(sparse_id(source)) + " 1\n");
  write_text(dir.file("bad"), results);
  require_one_line_error(graphso_cli({"validate", dir.file("bad"), dir.file("bfs"), "--algo", "bfs"}),
                         "the first is vertex " + std::to_string(sparse_id(source)) + ": 1, expected 0");

  // convert -> export --format graphalytics -> convert: the same edges and the same ids.
  REQUIRE(graphso_cli({"export", dir.file("g"), "-o", dir.file("again.e"), "--format", "graphalytics"}).status == 0);
  REQUIRE(read_small_file(dir.file("again.v")) == read_small_file(dir.file("enron.v")));
  REQUIRE_THAT(read_small_file(dir.file("again.properties")), Catch::Contains("graph.again.directed = true"));
  REQUIRE(sorted_arcs(converted(dir.file("again.e"), dir.file("again.bin")).edges, false) == sorted_arcs(enron.edges, false));
  REQUIRE(read_small_file(dir.file("again.bin.ids")) == read_small_file(dir.file("enron.bin.ids")));
  // The ids are checked on open: a damaged byte, or another graph's ids of the same count (whose
  // CRC is not the one this graph's meta recorded), is a one-line error.
  const std::string ids = dir.file("g") + "/dataset_ids", own = read_small_file(ids);
  flip_bit(ids, 40, 1);
  require_one_line_error(graphso_cli({"run", dir.file("g"), "--job", "wcc"}), "dataset_ids: checksum mismatch");
  {
    std::ofstream v(dir.file("other.v")), e(dir.file("other.e"));
    for (uint64_t x = 0; x < enron.vertices; ++x) v << 7 * x + 3 << "\n";
    e << "3 10\n";
  }
  REQUIRE(graphso_cli({"convert", dir.file("other.e"), "-o", dir.file("other.bin")}).status == 0);
  REQUIRE(graphso_cli({"prep", dir.file("other.bin"), "-o", dir.file("other")}).status == 0);
  write_text(ids, read_small_file(dir.file("other") + "/dataset_ids"));
  require_one_line_error(graphso_cli({"run", dir.file("g"), "--job", "wcc"}), "or another graph's dataset ids");
  write_text(ids, own);
  REQUIRE(graphso_cli({"run", dir.file("g"), "--job", "wcc"}).status == 0);
  // A later convert of a graph without ids removes the earlier file's, so prep never pairs them.
  write_text(dir.file("plain.el"), "0 1\n");
  REQUIRE(graphso_cli({"convert", dir.file("plain.el"), "-o", dir.file("again.bin")}).status == 0);
  REQUIRE(!path_exists(dir.file("again.bin.ids")));
}

TEST_CASE("formats: malformed files of each kind are one-line errors and leave no output") {
  TempDir dir;
  struct Bad {
    std::string name;
    std::string bytes;
    std::string error;
  };
  // Header, then each CSR's offsets and neighbours (a directed graph's in-CSR second).
  auto gapbs = [](bool directed, int64_t arcs, int64_t n, const std::vector<std::vector<int64_t>>& offsets,
                  const std::vector<std::vector<int32_t>>& neighbours) {
    std::string b(1, directed ? '\1' : '\0');
    b.append(reinterpret_cast<const char*>(&arcs), 8).append(reinterpret_cast<const char*>(&n), 8);
    for (size_t k = 0; k < offsets.size(); ++k) {
      b.append(reinterpret_cast<const char*>(offsets[k].data()), offsets[k].size() * 8);
      b.append(reinterpret_cast<const char*>(neighbours[k].data()), neighbours[k].size() * 4);
    }
    return b;
  };
  const std::vector<Bad> cases = {
      {"a.gr", "p sp 3 1\na 1 4 1\n", "a.gr:2: destination id 4 outside 1..3"},
      {"b.gr", "p sp 3 2\na 1 2 1\n", "b.gr:2: the file ends after 1 arcs, the problem line declares 2"},
      {"c.gr", "a 1 2 1\n", "c.gr:1: an arc before the problem line"},
      {"d.gr", "p sp 3 1\na 1 2 -4\n", "d.gr:2: weight '-4' is not an integer"},
      {"e.gr", "p max 3 1\n", "e.gr:1: expected the problem line 'p sp VERTICES ARCS'"},
      {"f.co", "v 1 10 20\n", "a DIMACS coordinate file holds no arcs"},
      {"a.sg", "\x02" + std::string(16, '\0'), "the directed flag is 2"},
      {"b.sg", gapbs(false, 2, 2, {{0, 1, 2}}, {{1}}), "bytes do not hold the undirected graph of 2 vertices and 2 arcs"},
      {"c.sg", gapbs(false, 2, 2, {{0, 2, 1}}, {{1, 0}}), "the out CSR's offset of vertex 2 (1) is below vertex 1's (2)"},
      {"d.sg", gapbs(false, 2, 2, {{0, 1, 2}}, {{1, 7}}), "out CSR: neighbour 7 of arc 1 is outside 0..1"},
      {"e.sg", gapbs(true, 1, 2, {{0, 1, 1}, {0, 1, 1}}, {{1}, {1}}), "the in-CSR is not the out-CSR's transpose: arc 0 -> 1 is in the out CSR only"},
      {"f.sg", gapbs(false, -1, 2, {}, {}), "-1 arcs"},
      {"a.graph", "3 1\n2\n1\n3\n", "a.graph:4: vertex 3 lists itself"},
      {"b.graph", "3 2\n2\n1\n", "b.graph:3: the file ends after 2 vertex lines, the header declares 3"},
      {"c.graph", "2 1 1\n2 5\n1 6\n", "vertex 1 lists 2 (weight 5), but vertex 2 does not list 1 with that weight"},
      {"d.graph", "2 1 2\n2\n1\n", "FMT '2' is not up to three binary digits"},
      {"e.graph", "2 1\n2 x\n1\n", "e.graph:2: neighbour 'x' is not a non-negative integer"},
      {"a.e", "1 2\n", "a.v: missing"},
  };
  write_text(dir.file("b.v"), "1\n2\n2\n");
  write_text(dir.file("b.e"), "1 2\n");
  write_text(dir.file("c.v"), "1\n2\n");
  write_text(dir.file("c.e"), "1 3\n");
  write_text(dir.file("d.v"), "1\n2\n");
  write_text(dir.file("d.e"), "1 2 0.5\n");
  write_text(dir.file("d.properties"), "graph.d.edge-properties.names = weight\n");
  write_text(dir.file("e.v"), "1\n2\n");
  write_text(dir.file("e.e"), "1 2\n");
  write_text(dir.file("e.properties"), "graph.e.directed = yes\n");
  std::vector<Bad> all = cases;
  all.push_back({"b.e", "", "b.v: vertex 2 is listed more than once"});
  all.push_back({"c.e", "", "c.e:1: destination 3 is not in " + dir.file("c.v")});
  all.push_back({"d.e", "", "d.e:1: weight '0.5' is not an integer in [0, 2^32-1] (a graph of real weights: convert --real-weights)"});
  all.push_back({"e.e", "", "graph.e.directed = 'yes' (expected true or false)"});
  for (const Bad& bad : all) {
    INFO(bad.name);
    if (!bad.bytes.empty()) write_text(dir.file(bad.name), bad.bytes);
    require_one_line_error(graphso_cli({"convert", dir.file(bad.name), "-o", dir.file("out.bin")}), bad.error);
    REQUIRE(!path_exists(dir.file("out.bin")));
  }
}
