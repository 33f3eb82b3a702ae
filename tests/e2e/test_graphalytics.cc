// LDBC Graphalytics' rules end to end: a six-vertex graph whose expected outputs were computed by
// hand (below), run with `--out-format graphalytics` and `pagerank:variant=graphalytics`, and
// checked with `graphso validate`, which must also reject a result with one changed value.
#include <catch2/catch.hpp>

#include <cctype>
#include <filesystem>

#include "base/file.h"
#include "tests/e2e/cli.h"
#include "tests/test_graphs.h"

using namespace graphso;
using namespace graphso::testing;
namespace fs = std::filesystem;

namespace {

// 0->1 (3), 0->2 (7), 1->2 (2), 2->0 (1), 3->2 (1), 3->4 (5); vertex 4 has no out-edges and 5 no
// edges at all: both are dangling. Out-degrees 2, 1, 1, 2, 0, 0.
constexpr const char* kEdges = "# vertices: 6\n0 1 3\n0 2 7\n1 2 2\n2 0 1\n3 2 1\n3 4 5\n";

// From 0: 1 and 2 one hop away; 3, 4 and 5 unreachable (Graphalytics: 2^63 - 1).
constexpr const char* kBfs = "0 0\n1 1\n2 1\n3 9223372036854775807\n4 9223372036854775807\n5 9223372036854775807\n";
// From 0 over the weights: 1 at 3, 2 at min(7, 3 + 2) = 5; the rest unreachable.
constexpr const char* kSssp = "0 0\n1 3\n2 5\n3 Infinity\n4 Infinity\n5 Infinity\n";
// {0, 1, 2, 3, 4} and {5}, labelled by anything one-to-one (here 7 and 9).
constexpr const char* kWcc = "0 7\n1 7\n2 7\n3 7\n4 7\n5 9\n";
// Two iterations, d = 0.85, n = 6, from 1/6. Each gives every vertex (1 - d)/6 plus d/6 of the rank
// the dangling vertices 4 and 5 held, plus d x rank/out-degree along each in-edge.
// Iteration 1: dangling 2/6, base 0.15/6 + 0.85/18 = 13/180;
//   PR1 = 77/360, 103/720, 16/45, 13/180, 103/720, 13/180.
// Iteration 2: dangling 103/720 + 13/180 = 155/720, base 0.025 + 0.85 x 155/4320 = 959/17280;
//   PR2(0) = base + 0.85 x 16/45                     = 30907/86400
//   PR2(1) = base + 0.85 x 77/720                    = 12649/86400
//   PR2(2) = base + 0.85 x (77/720 + 103/720 + 13/360) = 25807/86400
//   PR2(3) = PR2(5) = base                           = 959/17280
//   PR2(4) = base + 0.85 x 13/360                    = 7447/86400
// They sum to 1: no rank is lost, which is what the variant is for.
std::string expected_pagerank() {
  const double pr[] = {30907.0 / 86400, 12649.0 / 86400, 25807.0 / 86400, 959.0 / 17280, 7447.0 / 86400, 959.0 / 17280};
  std::string out;
  for (int v = 0; v < 6; ++v) out += fmt::format("{} {:.17g}\n", v, pr[v]);
  return out;
}

struct Prepared {
  TempDir dir;
  std::string graph = dir.file("g");
  Prepared() {
    write_text(dir.file("g.wel"), kEdges);
    REQUIRE(graphso_cli({"convert", dir.file("g.wel"), "-o", dir.file("g.bin")}).status == 0);
    REQUIRE(graphso_cli({"prep", dir.file("g.bin"), "-o", graph}).status == 0);
  }
};

CliResult validate(const std::string& results, const std::string& expected, const std::string& algo) {
  return graphso_cli({"validate", results, expected, "--algo", algo});
}

}  // namespace

TEST_CASE("graphalytics: hand-computed outputs of BFS, SSSP, WCC and PageRank validate; one changed value does not") {
  Prepared p;
  write_text(p.dir.file("bfs"), kBfs);
  write_text(p.dir.file("sssp"), kSssp);
  write_text(p.dir.file("wcc"), kWcc);
  write_text(p.dir.file("pr"), expected_pagerank());
  const std::string sharing = GENERATE("independent", "partition", "chunk");
  INFO("--sharing " << sharing);
  const std::string out = p.dir.file("out-" + sharing);
  CliResult run = graphso_cli({"run", p.graph, "--job", "bfs:source=0", "--job", "sssp:source=0", "--job", "wcc", "--job",
                               "pagerank:iterations=2:variant=graphalytics", "--sharing", sharing, "--out-format", "graphalytics",
                               "--out", out});
  INFO(run.err);
  REQUIRE(run.status == 0);
  REQUIRE(read_small_file(out + "/0-bfs.txt") == kBfs);  // the unreachable value, written as Graphalytics does
  REQUIRE(read_small_file(out + "/1-sssp.txt") == kSssp);
  for (auto [file, expected, algo] : {std::tuple{"0-bfs.txt", "bfs", "bfs"}, std::tuple{"1-sssp.txt", "sssp", "sssp"},
                                      std::tuple{"2-wcc.txt", "wcc", "wcc"}, std::tuple{"3-pagerank.txt", "pr", "pagerank"}}) {
    INFO(file);
    CliResult ok = validate(out + "/" + file, p.dir.file(expected), algo);
    INFO(ok.err);
    REQUIRE(ok.status == 0);
    REQUIRE_THAT(ok.out, Catch::Contains("at all 6 vertices"));
  }

  // One changed value, for each rule: an exit 1 and one line naming the vertex.
  write_text(p.dir.file("bfs-bad"), std::string(kBfs).replace(std::string(kBfs).find("2 1"), 3, "2 2"));
  require_one_line_error(validate(p.dir.file("bfs-bad"), p.dir.file("bfs"), "bfs"),
                         "1 of 6 vertices differ from " + p.dir.file("bfs") + " (exact rule); the first is vertex 2: 2, expected 1");
  write_text(p.dir.file("wcc-bad"), "0 7\n1 7\n2 7\n3 7\n4 9\n5 9\n");  // 4 moved to 5's component
  require_one_line_error(validate(p.dir.file("wcc-bad"), p.dir.file("wcc"), "wcc"), "break the equivalence");
  // PR2(5) = 0.05549769: 0.0554990 is 0.0024% off (inside 0.01%), 0.05556 is 0.11% off.
  const std::string pr = read_small_file(out + "/3-pagerank.txt");
  const std::string pr_head = pr.substr(0, pr.rfind('\n', pr.size() - 2) + 1);
  REQUIRE(pr.substr(pr_head.size(), 2) == "5 ");
  write_text(p.dir.file("pr-close"), pr_head + "5 0.0554990\n");
  REQUIRE(validate(p.dir.file("pr-close"), p.dir.file("pr"), "pagerank").status == 0);
  write_text(p.dir.file("pr-bad"), pr_head + "5 0.05556\n");
  require_one_line_error(validate(p.dir.file("pr-bad"), p.dir.file("pr"), "pagerank"),
                         "1 of 6 vertices differ from " + p.dir.file("pr") + " (epsilon rule, 0.01% relative); the first is vertex 5");
  write_text(p.dir.file("sssp-bad"), "0 0\n1 3\n2 5\n3 Infinity\n4 12\n5 Infinity\n");
  require_one_line_error(validate(p.dir.file("sssp-bad"), p.dir.file("sssp"), "sssp"), "vertex 4: 12, expected inf");
}

TEST_CASE("graphalytics: the default PageRank keeps GAP's rule and fails Graphalytics' validation on dangling vertices") {
  Prepared p;
  write_text(p.dir.file("pr"), expected_pagerank());
  const std::string out = p.dir.file("out");
  REQUIRE(graphso_cli({"run", p.graph, "--job", "pagerank:iterations=2", "--out", out}).status == 0);
  require_one_line_error(validate(out + "/0-pagerank.txt", p.dir.file("pr"), "pagerank"), "vertices differ");
  require_usage_error(graphso_cli({"run", p.graph, "--job", "pagerank:variant=networkx"}),
                      "variant = 'networkx' (expected gap or graphalytics)");
}

TEST_CASE("validate: files that are not results, and results of different vertices, are one-line errors") {
  TempDir dir;
  write_text(dir.file("a"), "0 1\n1 2\n");
  write_text(dir.file("b"), "0 1\n1 2\n2 3\n");
  write_text(dir.file("dup"), "0 1\n0 1\n");
  write_text(dir.file("words"), "0 one\n");
  write_text(dir.file("three"), "0 1 2\n");
  require_one_line_error(validate(dir.file("a"), dir.file("b"), "bfs"), "vertex 2 is missing from the results");
  require_one_line_error(validate(dir.file("b"), dir.file("a"), "bfs"), "vertex 2 is not expected");
  require_one_line_error(validate(dir.file("dup"), dir.file("a"), "bfs"), "vertex 0 appears more than once");
  require_one_line_error(validate(dir.file("words"), dir.file("a"), "bfs"), "words:1: value 'one' is not an integer");
  require_one_line_error(validate(dir.file("three"), dir.file("a"), "bfs"), "three:1: expected 'vertex value', got more");
  require_one_line_error(validate(dir.file("missing"), dir.file("a"), "bfs"), "missing: cannot open");
  require_usage_error(validate(dir.file("a"), dir.file("a"), "lpa"), "--algo 'lpa'");
  REQUIRE(validate(dir.file("a"), dir.file("a"), "wcc").status == 0);
}

namespace {

// graph.NAME.<key> from an official dataset's properties file ("" when absent).
std::string property(const std::string& text, const std::string& name, const std::string& key) {
  const std::string prefix = "graph." + name + "." + key;
  for (size_t at = 0, nl; at < text.size(); at = nl + 1) {
    nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    const std::string line = text.substr(at, nl - at);
    if (!line.starts_with(prefix)) continue;
    const size_t eq = line.find('=');
    if (eq == std::string::npos || line.find_first_not_of(" \t", prefix.size()) != eq) continue;
    const size_t a = line.find_first_not_of(" \t", eq + 1);
    return a == std::string::npos ? "" : line.substr(a, line.find_last_not_of(" \t\r") + 1 - a);
  }
  return "";
}

}  // namespace

TEST_CASE("graphalytics: the official example and test datasets' outputs of all six algorithms validate, with their real weights, in both engines and every sharing mode") {
  const std::string data = datasets_dir() + "/graphalytics";
  TempDir dir;
  uint64_t validated = 0;
  for (const std::string name : {"example-directed", "example-undirected", "test-bfs-directed", "test-bfs-undirected",
                                 "test-pr-directed", "test-pr-undirected", "test-wcc-directed", "test-wcc-undirected",
                                 "test-cdlp-directed", "test-cdlp-undirected", "test-lcc-directed", "test-lcc-undirected",
                                 "test-sssp-directed", "test-sssp-undirected"}) {
    INFO(name);
    const std::string properties = read_small_file(data + "/" + name + ".properties");
    // The converted graph as the properties say: the weighted ones' weights are real (0.5).
    const std::string edges = dir.file(name + ".bin"), graph = dir.file(name);
    CliResult converted = graphso_cli({"convert", data + "/" + name + ".properties", "-o", edges});
    INFO(converted.err);
    REQUIRE(converted.status == 0);
    if (!property(properties, name, "edge-properties.names").empty()) REQUIRE_THAT(converted.out, Catch::Contains("real weights"));
    REQUIRE(graphso_cli({"prep", edges, "-o", graph, "--engine", "both"}).status == 0);
    // The algorithms it lists that graphso runs, with its parameters.
    const std::string algorithms = property(properties, name, "algorithms");
    std::vector<std::pair<std::string, std::string>> runs;  // job, expected-output suffix
    if (algorithms.find("bfs") != std::string::npos)
      runs.push_back({"bfs:source=" + property(properties, name, "bfs.source-vertex"), "BFS"});
    if (algorithms.find("wcc") != std::string::npos) runs.push_back({"wcc", "WCC"});
    if (algorithms.find("pr") != std::string::npos) {
      REQUIRE(property(properties, name, "pr.damping-factor") == "0.85");  // graphso's damping
      runs.push_back({"pagerank:variant=graphalytics:iterations=" + property(properties, name, "pr.num-iterations"), "PR"});
    }
    // Small buffers: the vertices are taken in several ranges.
    if (algorithms.find("cdlp") != std::string::npos)
      runs.push_back({"cdlp:slots=2:iterations=" + property(properties, name, "cdlp.max-iterations"), "CDLP"});
    if (algorithms.find("lcc") != std::string::npos) runs.push_back({"lcc:slots=2", "LCC"});
    if (algorithms.find("sssp") != std::string::npos)
      runs.push_back({"sssp:source=" + property(properties, name, "sssp.source-vertex"), "SSSP"});
    REQUIRE_FALSE(runs.empty());
    for (const char* engine : {"gridgraph", "xstream"})
      for (const char* sharing : {"independent", "partition", "chunk"}) {
        INFO(engine << " " << sharing);
        const std::string out = dir.file(fmt::format("{}-{}-{}", name, engine, sharing));
        std::vector<std::string> run = {"run", graph, "--engine", engine, "--sharing", sharing, "--out-format", "graphalytics", "--out", out};
        for (const auto& [job, suffix] : runs) run.insert(run.end(), {"--job", job});
        CliResult ran = graphso_cli(run);
        INFO(ran.err);
        REQUIRE(ran.status == 0);
        for (size_t k = 0; k < runs.size(); ++k) {
          std::string algo = runs[k].second == "PR" ? "pagerank" : runs[k].second;
          for (char& c : algo) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          CliResult ok = validate(fmt::format("{}/{}-{}.txt", out, k, runs[k].first.substr(0, runs[k].first.find(':'))),
                                  data + "/" + name + "-" + runs[k].second, algo);
          INFO(runs[k].first << ": " << ok.err);
          REQUIRE(ok.status == 0);
          ++validated;
        }
      }
  }
  REQUIRE(validated == 6 * (6 + 6 + 12));
}

TEST_CASE("graphalytics: SSSP weighs the property sssp.weight-property names, not hops and not another column") {
  TempDir dir;
  // Two edge properties; SSSP's is the second, "cost". Hop counts would give 1 1 2, the first
  // column 100 100 200.
  write_text(dir.file("d.v"), "1\n2\n3\n4\n");
  write_text(dir.file("d.e"), "1 2 100 5\n1 3 100 20\n2 3 100 20\n3 4 100 20\n");
  write_text(dir.file("d.properties"),
             "graph.d.directed = true\ngraph.d.edge-properties.names = time, cost\ngraph.d.edge-properties.types = int, int\n"
             "graph.d.sssp.weight-property = cost\ngraph.d.sssp.source-vertex = 1\ngraph.d.meta.vertices = 4\ngraph.d.meta.edges = 4\n");
  REQUIRE(graphso_cli({"convert", dir.file("d.properties"), "-o", dir.file("d.bin")}).status == 0);
  REQUIRE(graphso_cli({"prep", dir.file("d.bin"), "-o", dir.file("g")}).status == 0);
  REQUIRE(graphso_cli({"run", dir.file("g"), "--job", "sssp:source=1", "--out-format", "graphalytics", "--out", dir.file("out")}).status == 0);
  REQUIRE(read_small_file(dir.file("out/0-sssp.txt")) == "1 0\n2 5\n3 20\n4 40\n");
  // A weight property the names lack, or a declared count the files do not hold: one line,
  // nothing written.
  write_text(dir.file("d.properties"), "graph.d.edge-properties.names = time, weight\ngraph.d.sssp.weight-property = cost\n");
  CliResult named = graphso_cli({"convert", dir.file("d.properties"), "-o", dir.file("x.bin")});
  require_one_line_error(named, "sssp.weight-property = cost is not among edge-properties.names (time, weight)");
  write_text(dir.file("d.properties"), "graph.d.edge-properties.names = time, cost\ngraph.d.meta.edges = 5\n");
  require_one_line_error(graphso_cli({"convert", dir.file("d.properties"), "-o", dir.file("x.bin")}), "meta.edges = 5, but");
  REQUIRE_FALSE(path_exists(dir.file("x.bin")));
}

TEST_CASE("graphalytics driver: each listed algorithm loaded, run, timed and validated; what graphso cannot run says why") {
  TempDir dir;
  const std::string data = datasets_dir() + "/graphalytics", in = dir.file("in");
  fs::create_directories(in);
  for (const std::string name : {"example-directed", "test-wcc-directed"})
    for (const auto& entry : fs::directory_iterator(data))
      if (entry.path().filename().string().starts_with(name + ".") || entry.path().filename().string().starts_with(name + "-"))
        fs::copy_file(entry.path(), in + "/" + entry.path().filename().string());
  // A dataset with integer weights under another name, and its SSSP output computed by hand.
  write_text(in + "/costs.v", "1\n2\n3\n4\n");
  write_text(in + "/costs.e", "1 2 100 5\n1 3 100 20\n2 3 100 20\n3 4 100 20\n");
  write_text(in + "/costs.properties",
             "graph.costs.directed = true\ngraph.costs.edge-properties.names = time, cost\ngraph.costs.sssp.weight-property = cost\n"
             "graph.costs.algorithms = sssp, bfs\ngraph.costs.sssp.source-vertex = 1\ngraph.costs.bfs.source-vertex = 1\n");
  write_text(in + "/costs-SSSP", "1 0\n2 5\n3 20\n4 40\n");
  const std::string out = dir.file("out");
  CliResult r = graphso_cli({"graphalytics", in, "-o", out, "--sharing", "chunk"});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  auto row = [&r](const std::string& dataset, const std::string& algo) {
    const size_t at = r.out.find(fmt::format("{:<24} {:<6}", dataset, algo));
    REQUIRE(at != std::string::npos);
    return r.out.substr(at, r.out.find('\n', at) - at);
  };
  // All six run and valid, SSSP over the real weights.
  for (const char* algo : {"bfs", "cdlp", "lcc", "pr", "sssp", "wcc"})
    REQUIRE_THAT(row("example-directed", algo), Catch::EndsWith("valid"));
  REQUIRE_THAT(row("example-directed", "batch"), Catch::Contains("6 algorithms in one batch") && Catch::EndsWith("6 of 6 valid"));
  REQUIRE_THAT(row("test-wcc-directed", "wcc"), Catch::EndsWith("valid"));
  REQUIRE_THAT(row("costs", "sssp"), Catch::EndsWith("valid"));  // weighed by cost: 5, 20, 40
  REQUIRE_THAT(row("costs", "bfs"), Catch::EndsWith("no expected output"));
  const std::string json = read_small_file(out + "/graphalytics.json");
  REQUIRE_THAT(json, Catch::Contains("\"job\": \"pagerank:variant=graphalytics:iterations=2:damping=0.85\"") &&
                         Catch::Contains("\"evps\": ") && Catch::Contains("\"makespan_alone_seconds\": ") &&
                         Catch::EndsWith("\"ok\": true\n}\n"));
  REQUIRE(read_small_file(out + "/costs/sssp/0-sssp.txt") == "1 0\n2 5\n3 20\n4 40\n");

  // A wrong expected output: the row says which vertex, the command fails with one line.
  write_text(in + "/costs-SSSP", "1 0\n2 5\n3 25\n4 40\n");
  CliResult wrong = graphso_cli({"graphalytics", in + "/costs.properties", "-o", dir.file("out2")});
  REQUIRE(wrong.status == 1);
  REQUIRE_THAT(wrong.out, Catch::Contains("the first is vertex 3: 20, expected 25"));
  require_one_line_error(wrong, "graphalytics: some runs failed or did not validate");
  REQUIRE_THAT(read_small_file(dir.file("out2/graphalytics.json")), Catch::Contains("\"ok\": false"));
  // Inputs that are not datasets.
  require_usage_error(graphso_cli({"graphalytics", in + "/costs.e", "-o", dir.file("out3")}), "is neither a NAME.properties file nor a directory");
  fs::create_directories(dir.file("empty"));
  require_one_line_error(graphso_cli({"graphalytics", dir.file("empty"), "-o", dir.file("out3")}), "holds no .properties file");
  write_text(in + "/nosource.properties", "graph.nosource.algorithms = bfs\n");
  write_text(in + "/nosource.v", "1\n2\n");
  write_text(in + "/nosource.e", "1 2\n");
  require_one_line_error(graphso_cli({"graphalytics", in + "/nosource.properties", "-o", dir.file("out4")}),
                         "nosource.properties: graph.nosource.bfs.source-vertex is not given");
  REQUIRE_FALSE(fs::exists(dir.file("out4")));  // every dataset's parameters found before anything runs
  write_text(in + "/nosource.properties", "graph.nosource.directed = true\n");
  require_one_line_error(graphso_cli({"graphalytics", in + "/nosource.properties", "-o", dir.file("out4")}),
                         "graph.nosource.algorithms names no algorithm to run");
  REQUIRE_FALSE(fs::exists(dir.file("out4")));
}
