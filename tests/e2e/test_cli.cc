// The graphso command line end to end: convert -> prep -> inspect -> run, results against the
// reference, and bad input of every kind rejected with one line, a non-zero exit and no output.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "base/file.h"
#include "tests/e2e/cli.h"
#include "tests/test_graphs.h"

using namespace graphso;
using namespace graphso::testing;

namespace {

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// "vertex value" lines -> values as strings, checking the vertex column counts 0..n-1.
std::vector<std::string> read_values(const std::string& path, uint64_t vertices) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::vector<std::string> values;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    uint64_t v;
    std::string value, extra;
    REQUIRE((fields >> v >> value));
    REQUIRE_FALSE((fields >> extra));
    REQUIRE(v == values.size());
    values.push_back(value);
  }
  REQUIRE(values.size() == vertices);
  return values;
}

struct Prepared {
  TempDir dir;
  EdgeSet set;
  std::string graph;
};

// A weighted graph with unreachable parts, prepared through the CLI from a text edge list.
std::unique_ptr<Prepared> prepare_through_cli() {
  auto p = std::make_unique<Prepared>();
  std::string text = "# weighted test graph\n";
  for (uint32_t v = 0; v < 3000; ++v) {
    text += std::to_string(v) + " " + std::to_string((v * 7 + 1) % 3000) + " " + std::to_string(v % 13 + 1) + "\n";
    text += std::to_string(v) + "\t" + std::to_string((v * v + 3) % 3000) + "\t" + std::to_string(v % 5) + "\n";
  }
  text += "3100 3101 4\n3101 3102 1\n";  // a component of its own; 3103..3199 isolated
  text += "3199 3199 1\n";
  write(p->dir.file("g.wel"), text);
  CliResult convert = graphso_cli({"convert", p->dir.file("g.wel"), "--dedup", "-o", p->dir.file("g.bin")});
  INFO(convert.err);
  REQUIRE(convert.status == 0);
  CliResult prep = graphso_cli({"prep", p->dir.file("g.bin"), "-o", p->dir.file("g"), "--partitions", "5"});
  INFO(prep.err);
  REQUIRE(prep.status == 0);
  // Too small a graph to measure the device on: the fixed default, and the reason.
  REQUIRE_THAT(prep.out, Catch::Contains("default chunk size 64.0 KiB (default: the largest edge file"));
  p->graph = p->dir.file("g");
  p->set = read_edge_input(p->dir.file("g.wel"), {});
  EdgeTransforms t;
  t.dedup = true;
  apply_transforms(p->set, t);
  return p;
}

}  // namespace

TEST_CASE("cli: convert, prep, inspect, run; results equal the reference in both modes") {
  auto p = prepare_through_cli();
  CliResult inspect = graphso_cli({"inspect", p->graph, "--verify"});
  REQUIRE(inspect.status == 0);
  REQUIRE_THAT(inspect.out, Catch::Contains("vertices:         3200") && Catch::Contains("5 x 5 blocks") &&
                                Catch::Contains("verify:           ok") && Catch::Contains(" chunks of ") &&
                                Catch::Contains("chunk size:       64.0 KiB by default (default: "));

  reference::Csr csr = reference::build_csr(p->set.vertices, p->set.edges);
  auto bfs = reference::bfs(csr, 3);
  auto sssp = reference::sssp(csr, 3);
  auto wcc = reference::wcc(p->set.vertices, p->set.edges);
  auto pr = reference::pagerank(csr, 15);
  for (const char* mode : {"independent", "partition", "chunk"}) {
    INFO("mode " << mode);
    std::string out = p->dir.file(std::string("out-") + mode);
    std::string report = p->dir.file(std::string("report-") + mode + ".json");
    CliResult run = graphso_cli({"run", p->graph, "--job", "bfs:source=3", "--job", "sssp:source=3:name=dist",
                                 "--job", "wcc", "--job", "pagerank:iterations=15", "--sharing", mode, "--mem",
                                 "400K", "--threads", "2", "--chunk-size", "8K", "--out", out, "--report", report});
    INFO(run.err);
    REQUIRE(run.status == 0);
    REQUIRE(run.err.empty());  // quiet when not on a terminal
    REQUIRE(files_in(out) == std::vector<std::string>{".graphso-results", "0-bfs.txt", "2-wcc.txt", "3-pagerank.txt", "dist.txt"});

    auto levels = read_values(out + "/0-bfs.txt", p->set.vertices);
    auto dists = read_values(out + "/dist.txt", p->set.vertices);
    auto labels = read_values(out + "/2-wcc.txt", p->set.vertices);
    auto ranks = read_values(out + "/3-pagerank.txt", p->set.vertices);
    for (uint64_t v = 0; v < p->set.vertices; ++v) {
      REQUIRE(levels[v] == (bfs[v] == reference::kUnreached ? "-1" : std::to_string(bfs[v])));
      REQUIRE(dists[v] == (sssp[v] == reference::kInfinity ? "inf" : std::to_string(sssp[v])));
      REQUIRE(labels[v] == std::to_string(wcc[v]));
      REQUIRE(std::fabs(std::stod(ranks[v]) - pr[v]) <= 1e-8 * pr[v]);  // 9 significant digits
    }
    REQUIRE(levels[3150] == "-1");
    REQUIRE(dists[3102] == "inf");

    std::string json = read_small_file(report);
    for (const char* key : {"\"mode\": \"", "\"wall_seconds\"", "\"bytes_read\"", "\"bytes_from_cache\"",
                            "\"edges_loaded\"", "\"active_edges_loaded\"", "\"peak_rss_bytes\"", "\"jobs\"",
                            "\"iterations\"", "\"converged\": true", "\"vertex_state_bytes\"", "\"graph_budget_bytes\"",
                            "\"rounds\""})
      REQUIRE_THAT(json, Catch::Contains(key));
    REQUIRE_THAT(json, Catch::Contains(std::string("\"mode\": \"") + mode + "\""));
  }
}

TEST_CASE("cli: prep --order; sources and results stay in original ids; --granularity; bad options") {
  auto p = prepare_through_cli();
  std::vector<std::string> jobs = {"--job", "bfs:source=3", "--job", "sssp:source=3", "--job", "wcc", "--job",
                                   "wcc:method=label", "--job", "pagerank:iterations=15"};
  auto run = [&](const std::string& graph, const std::string& name, std::vector<std::string> extra) {
    std::vector<std::string> args = {"run", graph, "--sharing", "chunk", "--mem", "400K", "--threads", "2",
                                     "--chunk-size", "8K", "--out", p->dir.file(name), "--report", p->dir.file(name + ".json")};
    args.insert(args.end(), jobs.begin(), jobs.end());
    args.insert(args.end(), extra.begin(), extra.end());
    CliResult r = graphso_cli(args);
    INFO(r.err);
    REQUIRE(r.status == 0);
    return r;
  };
  run(p->graph, "natural", {});
  for (const char* order : {"degree", "bfs"}) {
    INFO("order " << order);
    std::string g = p->dir.file(std::string("g-") + order);
    // Raw records: page-granular reads are of raw chunks (a packed graph's are read whole).
    std::vector<std::string> prep = {"prep", p->dir.file("g.bin"), "-o", g, "--partitions", "5", "--order", order,
                                     "--encoding", "raw"};
    if (std::string(order) == "bfs") prep.insert(prep.end(), {"--order-root", "3"});
    CliResult r = graphso_cli(prep);
    INFO(r.err);
    REQUIRE(r.status == 0);
    REQUIRE_THAT(r.out, Catch::Contains(std::string("vertex order ") + order + " computed in"));
    CliResult inspect = graphso_cli({"inspect", g, "--verify"});
    REQUIRE_THAT(inspect.out, Catch::Contains(std::string("vertex order:     ") + order) && Catch::Contains("verify:           ok"));
    for (const char* granularity : {"chunk", "page", "auto"}) {
      INFO("granularity " << granularity);
      std::string name = std::string(order) + "-" + granularity;
      CliResult result = run(g, name, {"--granularity", granularity});
      REQUIRE(files_in(p->dir.file(name)) == files_in(p->dir.file("natural")));
      for (const std::string& file : files_in(p->dir.file("natural")))
        REQUIRE(read_small_file(p->dir.file(name) + "/" + file) == read_small_file(p->dir.file("natural") + "/" + file));
      std::string json = read_small_file(p->dir.file(name + ".json"));
      REQUIRE_THAT(json, Catch::Contains(std::string("\"order\": \"") + order + "\"") &&
                             Catch::Contains(std::string("\"granularity\": \"") + granularity + "\""));
      if (std::string(granularity) != "chunk")
        REQUIRE_THAT(result.out, Catch::Contains("device") && Catch::Contains("random 4 KiB reads/s"));
    }
  }
  // A bad option is a usage error (exit 2); a root outside the input's vertices is found reading
  // the input (exit 1).
  require_usage_error(graphso_cli({"prep", p->dir.file("g.bin"), "-o", p->dir.file("x"), "--order", "random"}),
                      "unknown vertex order 'random'");
  require_usage_error(graphso_cli({"prep", p->dir.file("g.bin"), "-o", p->dir.file("x"), "--order-root", "3"}),
                      "--order-root needs --order bfs");
  require_one_line_error(graphso_cli({"prep", p->dir.file("g.bin"), "-o", p->dir.file("x"), "--order", "bfs", "--order-root", "9999"}),
                         "--order-root 9999 is out of range");
  // The same mistake over an existing graph leaves it as it was.
  require_one_line_error(graphso_cli({"prep", p->dir.file("g.bin"), "-o", p->graph, "--order", "bfs", "--order-root", "9999"}),
                         "--order-root 9999 is out of range");
  REQUIRE(graphso_cli({"inspect", p->graph, "--verify"}).status == 0);
  require_usage_error(graphso_cli({"run", p->graph, "--job", "wcc", "--granularity", "byte", "--sharing", "chunk"}),
                      "unknown read granularity 'byte'");
  require_usage_error(graphso_cli({"run", p->graph, "--job", "wcc", "--granularity", "page", "--sharing", "partition"}),
                      "--granularity applies to --sharing chunk only");
  require_usage_error(graphso_cli({"run", p->graph, "--job", "bfs:source=0", "--late-join", "on", "--sharing", "independent"}),
                      "--late-join applies to --sharing chunk only");
  require_usage_error(graphso_cli({"run", p->graph, "--job", "bfs:source=0", "--sharing", "chunk", "--late-join", "yes"}),
                      "--late-join 'yes' (expected on or off)");
  require_usage_error(graphso_cli({"run", p->graph, "--job", "bfs:source=0", "--sharing", "chunk", "--pass-order", "id"}),
                      "unknown pass order 'id' (expected priority, source or destination)");
  require_usage_error(graphso_cli({"run", p->graph, "--job", "bfs:source=0", "--extent-size", "64K", "--sharing", "partition"}),
                      "--extent-size applies to --sharing chunk only");
  require_usage_error(graphso_cli({"run", p->graph, "--job", "bfs:source=0", "--sharing", "chunk", "--extent-size", "big"}),
                      "--extent-size: 'big' is not a size");
  require_usage_error(graphso_cli({"run", p->graph, "--job", "wcc:method=fast"}), "method = 'fast' (expected union-find or label)");
  REQUIRE(!path_exists(p->dir.file("x") + "/meta"));
}

// What a user who names no sharing mode gets: chunk mode, for one job as for a batch (it measured
// fastest for one job too: docs/commands.md, "The default sharing mode").
TEST_CASE("cli: run without --sharing runs chunk mode, for one job and for several") {
  auto p = prepare_through_cli();
  for (const std::vector<std::string>& jobs : {std::vector<std::string>{"--job", "bfs:source=3"},
                                               std::vector<std::string>{"--job", "bfs:source=3", "--job", "wcc"}}) {
    std::vector<std::string> args = {"run", p->graph, "--report", "-"};
    args.insert(args.end(), jobs.begin(), jobs.end());
    const CliResult r = graphso_cli(args);
    INFO(r.err);
    REQUIRE(r.status == 0);
    REQUIRE_THAT(r.out, Catch::Contains("\"mode\": \"chunk\""));
    REQUIRE_THAT(r.err, Catch::Contains("mode chunk"));
  }
}

TEST_CASE("cli: idle OpenMP threads spin briefly, then sleep, unless the user chose how; --async auto|on|off; --update-overflow") {
  auto p = prepare_through_cli();
  auto report_of = [&](std::vector<std::string> argv) {
    for (const std::string& word : {std::string("run"), p->graph, std::string("--job"), std::string("pagerank-delta:tolerance=0.01"),
                                    std::string("--report"), std::string("-")})
      argv.push_back(word);
    const CliResult r = run_program(argv);
    INFO(r.err);
    REQUIRE(r.status == 0);
    return r.out;
  };
  // tests/run_tests.sh sets passive for the test binaries: taken away here, the program sets a
  // short spin (tools/graphso/main.cc) and leaves the policy to libgomp.
  const std::string unset = report_of({"env", "-u", "OMP_WAIT_POLICY", "-u", "GOMP_SPINCOUNT", graphso_binary()});
  REQUIRE_THAT(unset, Catch::Contains("\"gomp_spincount\": \"3000\"") && Catch::Contains("\"omp_wait_policy\": \"\""));
  REQUIRE_THAT(report_of({"env", "-u", "OMP_WAIT_POLICY", "GOMP_SPINCOUNT=100", graphso_binary()}),
               Catch::Contains("\"gomp_spincount\": \"100\""));
  REQUIRE_THAT(report_of({"env", "OMP_WAIT_POLICY=active", graphso_binary()}), Catch::Contains("\"omp_wait_policy\": \"active\""));
  for (const char* async : {"auto", "on", "off"}) {
    const CliResult r = graphso_cli({"run", p->graph, "--job", "pagerank-delta:tolerance=0.01", "--async", async, "--report", "-"});
    INFO(async << ": " << r.err);
    REQUIRE(r.status == 0);
    // The graph is resident (chunk mode, the default budget): there auto starts a delta job in
    // rounds, from round 1 (docs/jobs.md, "Falling back").
    REQUIRE_THAT(r.out, Catch::Contains("\"graph_resident\": true"));
    REQUIRE_THAT(r.out, Catch::Contains(std::string("\"async\": ") + (std::string(async) == "on" ? "true" : "false")));
    REQUIRE_THAT(r.out, Catch::Contains(std::string("\"sync_from_round\": ") + (std::string(async) == "auto" ? "1" : "0")));
  }
  require_usage_error(graphso_cli({"run", p->graph, "--job", "bfs:source=0", "--async", "sometimes"}),
                      "--async 'sometimes' (expected auto, on or off)");
  require_usage_error(graphso_cli({"run", p->graph, "--job", "bfs:source=0", "--update-overflow", "spill"}),
                      "--update-overflow applies to --engine xstream only");
  require_usage_error(graphso_cli({"run", p->graph, "--job", "bfs:source=0", "--engine", "xstream", "--update-overflow", "drop"}),
                      "--update-overflow 'drop' (expected apply or spill)");
}

TEST_CASE("cli: a TOML job file in chunk mode; the report has the chunk figures") {
  auto p = prepare_through_cli();
  write(p->dir.file("batch.toml"),
        "[[job]]\nalgo = \"bfs\"\nsource = 3\n\n[[job]]\nalgo = \"sssp\"\nsource = 3\nname = \"late\"\narrive_after = 2\n");
  std::string out = p->dir.file("out"), report = p->dir.file("r.json");
  CliResult run = graphso_cli({"run", p->graph, "--jobs", p->dir.file("batch.toml"), "--sharing", "chunk", "--graph-mem",
                               "48K", "--chunk-size", "4K", "--cache-ratio", "0.3", "--out", out, "--report", report});
  INFO(run.err);
  REQUIRE(run.status == 0);
  REQUIRE_THAT(run.out, Catch::Contains("chunks of 4.0 KiB:"));
  REQUIRE(files_in(out) == std::vector<std::string>{".graphso-results", "0-bfs.txt", "late.txt"});
  reference::Csr csr = reference::build_csr(p->set.vertices, p->set.edges);
  auto sssp = reference::sssp(csr, 3);
  auto dists = read_values(out + "/late.txt", p->set.vertices);
  for (uint64_t v = 0; v < p->set.vertices; ++v)
    REQUIRE(dists[v] == (sssp[v] == reference::kInfinity ? "inf" : std::to_string(sssp[v])));
  std::string json = read_small_file(report);
  for (const char* key : {"\"mode\": \"chunk\"", "\"chunk_bytes\": 4096", "\"chunks_loaded\"", "\"cache_hits\"",
                          "\"cache_misses\"", "\"active_chunks\"", "\"arrive_after\": 2", "\"tchunk_bytes\"",
                          "\"chunk_size_basis\": \"--chunk-size\"", "\"extent_bytes\": 1048576"})
    REQUIRE_THAT(json, Catch::Contains(key));
  REQUIRE_THAT(read_small_file(p->graph + "/tchunk.4096").substr(0, 7), Catch::Equals("GSOTCHK"));

  write(p->dir.file("bad.toml"), "[[job]]\nalgo = \"bfs\"\nsource = 99999\n");
  require_one_line_error(graphso_cli({"run", p->graph, "--jobs", p->dir.file("bad.toml")}),
                         "bad.toml:3: job 0: source = 99999 is out of range");
  require_one_line_error(graphso_cli({"run", p->graph, "--jobs", p->dir.file("batch.toml"), "--sharing", "chunk",
                                      "--graph-mem", "40K", "--cache-ratio", "0.95"}),
                         "too small for chunk mode");
  require_one_line_error(graphso_cli({"run", p->graph, "--jobs", p->dir.file("batch.toml"), "--graph-mem", "8K"}),
                         "--graph-mem 8.0 KiB is too small: graph data needs at least 32.0 KiB");
}

TEST_CASE("cli: --out-format bin writes raw arrays") {
  auto p = prepare_through_cli();
  CliResult run = graphso_cli({"run", p->graph, "--job", "sssp:source=0", "--job", "pagerank:iterations=3", "--out",
                               p->dir.file("bin"), "--out-format", "bin"});
  REQUIRE(run.status == 0);
  REQUIRE(File(p->dir.file("bin/0-sssp.bin"), File::Mode::Read).size() == 8 * p->set.vertices);
  std::string raw = read_small_file(p->dir.file("bin/0-sssp.bin"));
  std::vector<uint64_t> dist(p->set.vertices);
  std::memcpy(dist.data(), raw.data(), raw.size());
  REQUIRE(dist == reference::sssp(reference::build_csr(p->set.vertices, p->set.edges), 0));
  REQUIRE(File(p->dir.file("bin/1-pagerank.bin"), File::Mode::Read).size() == 8 * p->set.vertices);
}

TEST_CASE("cli: a job that does not converge gets no result file, the others do, exit 3") {
  auto p = prepare_through_cli();
  std::string out = p->dir.file("out");
  CliResult run = graphso_cli({"run", p->graph, "--job", "pagerank-delta:tolerance=1e-12:max_iterations=3",
                               "--job", "bfs:source=0", "--out", out, "--report", p->dir.file("r.json")});
  REQUIRE(run.status == 3);
  REQUIRE_THAT(run.err, Catch::Contains("job 0-pagerank-delta (pagerank-delta) did not converge after 3 rounds"));
  REQUIRE(files_in(out) == std::vector<std::string>{".graphso-results", "1-bfs.txt"});
  REQUIRE_THAT(read_small_file(p->dir.file("r.json")), Catch::Contains("\"converged\": false"));
}

TEST_CASE("cli: malformed edge lists fail with file:line and leave no output") {
  TempDir dir;
  write(dir.file("bad.el"), "0 1\n1 2\n2 two\n");
  CliResult r = graphso_cli({"convert", dir.file("bad.el"), "-o", dir.file("out.bin")});
  require_one_line_error(r, "bad.el:3: destination id 'two' is not a non-negative integer");
  write(dir.file("big.el"), "0 1\n1 4294967296\n");
  require_one_line_error(graphso_cli({"convert", dir.file("big.el"), "-o", dir.file("out.bin")}),
                         "big.el:2: vertex id 4294967296 is out of range");
  write(dir.file("empty.el"), "# nothing\n");
  require_one_line_error(graphso_cli({"convert", dir.file("empty.el"), "-o", dir.file("out.bin")}), "no edges found");
  require_one_line_error(graphso_cli({"convert", dir.file("missing.el"), "-o", dir.file("out.bin")}), "cannot open");
  REQUIRE(files_in(dir.path()) == std::vector<std::string>{"bad.el", "big.el", "empty.el"});
}

TEST_CASE("cli: damaged graph directories and bad jobs are rejected before anything is written") {
  auto p = prepare_through_cli();
  std::string out = p->dir.file("out"), report = p->dir.file("r.json");
  auto run = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"run", p->graph, "--out", out, "--report", report};
    args.insert(args.end(), extra.begin(), extra.end());
    return graphso_cli(args);
  };
  require_usage_error(run({"--job", "bfs:source=3200"}), "source = 3200 is out of range (the graph has vertices 0..3199)");
  require_usage_error(run({"--job", "bfs"}), "bfs needs a source");
  require_usage_error(run({"--job", "dfs"}), "unknown algorithm 'dfs'");
  require_usage_error(run({"--job", "wcc", "--job", "wcc:name=0-wcc"}), "duplicate job name '0-wcc'");
  require_one_line_error(run({"--job", "wcc", "--mem", "20K"}), "--mem 20.0 KiB is too small");
  require_usage_error(run({"--job", "wcc", "--sharing", "shared"}), "unknown sharing mode 'shared'");
  require_usage_error(run({"--job", "wcc", "--mem", "lots"}), "--mem: 'lots' is not a size");
  require_usage_error(run({"--job", "wcc", "--bogus"}), "unrecognised option '--bogus'");
  require_usage_error(run({}), "no jobs given");

  // The default chunk size's record: a run naming no size reads it, and an unreadable one stops it.
  write(p->graph + "/chunk_size", "65536\n");
  require_one_line_error(run({"--job", "wcc", "--sharing", "chunk"}), "chunk_size: not a chunk-size record");
  require_one_line_error(graphso_cli({"inspect", p->graph}), "chunk_size: not a chunk-size record");
  write(p->graph + "/chunk_size", "16384 a test's record\n");
  REQUIRE_THAT(graphso_cli({"inspect", p->graph}).out, Catch::Contains("chunk size:       16.0 KiB by default (a test's record)"));

  {
    File meta(p->graph + "/meta", File::Mode::ReadWrite);
    std::byte x{0x42};
    meta.pwrite_all(std::span<const std::byte>(&x, 1), 100);
  }
  require_one_line_error(run({"--job", "wcc"}), "meta: checksum mismatch (corrupt meta file)");
  CliResult reprep = graphso_cli({"prep", p->dir.file("g.bin"), "-o", p->graph, "--partitions", "5"});
  REQUIRE(reprep.status == 0);
  File(p->graph + "/grid.col", File::Mode::ReadWrite).truncate(8192);
  require_one_line_error(run({"--job", "wcc"}), "grid.col: size 8192 bytes, expected");
  require_one_line_error(graphso_cli({"inspect", p->graph}), "truncated or corrupt");
  REQUIRE_FALSE(std::filesystem::exists(report));
  REQUIRE(files_in(out).empty());
}

TEST_CASE("cli: generate is deterministic; help and unknown commands") {
  TempDir dir;
  for (const char* name : {"a.bin", "b.bin"}) {
    CliResult r = graphso_cli({"generate", "rmat", "--scale", "10", "--edge-factor", "4", "--weighted", "--seed", "5",
                               "-o", dir.file(name)});
    REQUIRE(r.status == 0);
  }
  REQUIRE(read_small_file(dir.file("a.bin")) == read_small_file(dir.file("b.bin")));
  REQUIRE(graphso_cli({"run", "--help"}).status == 0);
  REQUIRE_THAT(graphso_cli({"run", "--help"}).out, Catch::Contains("--sharing"));
  // `graphso help CMD` is `graphso CMD --help`; `graphso help` alone is the command list.
  for (const char* command : {"run", "prep", "snapshot", "ingest"})
    REQUIRE(graphso_cli({"help", command}).out == graphso_cli({command, "--help"}).out);
  REQUIRE_THAT(graphso_cli({"help", "snapshot"}).out, Catch::Contains("--engine"));
  REQUIRE_THAT(graphso_cli({"help"}).out, Catch::Contains("generate rmat|road"));
  REQUIRE(graphso_cli({"help", "frobnicate"}).status == 2);
  CliResult unknown = graphso_cli({"frobnicate"});
  REQUIRE(unknown.status == 2);
  REQUIRE_THAT(unknown.err, Catch::Contains("unknown command 'frobnicate'"));
  require_usage_error(graphso_cli({"generate", "kronecker", "-o", dir.file("k.bin")}), "unknown generator 'kronecker'");
}

TEST_CASE("cli: prep --engine both; run --engine xstream gives GridGraph's results in every mode; bad options") {
  auto p = prepare_through_cli();
  // Prepared for GridGraph only: the X-Stream engine says what to run.
  require_one_line_error(graphso_cli({"run", p->graph, "--engine", "xstream", "--job", "wcc"}),
                         "the graph has no X-Stream layout (run `graphso prep --engine xstream` or `--engine both`)");
  CliResult prep = graphso_cli({"prep", p->dir.file("g.bin"), "-o", p->graph, "--partitions", "5", "--engine", "both",
                                "--chunk-size", "4K"});
  INFO(prep.err);
  REQUIRE(prep.status == 0);
  REQUIRE_THAT(prep.out, Catch::Contains("X-Stream layout, 5 streaming partitions"));
  REQUIRE(path_exists(p->graph + "/tchunk.4096"));
  REQUIRE(path_exists(p->graph + "/tchunk.xstream.4096"));
  CliResult inspect = graphso_cli({"inspect", p->graph, "--verify"});
  REQUIRE(inspect.status == 0);
  REQUIRE_THAT(inspect.out, Catch::Contains("xstream layout:   5 streaming partitions"));

  const std::vector<std::string> jobs = {"--job", "bfs:source=0", "--job", "sssp:source=3", "--job", "wcc",
                                         "--job", "wcc:method=label", "--job", "pagerank:iterations=5"};
  auto run = [&](const std::string& engine, const std::string& mode, const std::string& name) {
    std::vector<std::string> args = {"run", p->graph, "--engine", engine, "--sharing", mode, "--graph-mem", "1M",
                                     "--chunk-size", "4K", "--out", p->dir.file(name), "--report", p->dir.file(name + ".json")};
    if (engine == "xstream") args.insert(args.end(), {"--update-mem", "256K", "--spill-dir", p->dir.file("spill")});
    args.insert(args.end(), jobs.begin(), jobs.end());
    CliResult r = graphso_cli(args);
    INFO(r.err);
    REQUIRE(r.status == 0);
    return r;
  };
  run("gridgraph", "partition", "grid");
  std::filesystem::create_directories(p->dir.file("spill"));
  for (const std::string mode : {"independent", "partition", "chunk"}) {
    INFO("mode " << mode);
    CliResult r = run("xstream", mode, "xs-" + mode);
    REQUIRE_THAT(r.out, Catch::Contains("engine xstream, mode " + mode));
    REQUIRE_THAT(r.out, Catch::Contains("updates: "));
    for (const std::string& file : files_in(p->dir.file("grid")))
      REQUIRE(read_small_file(p->dir.file("xs-" + mode) + "/" + file) == read_small_file(p->dir.file("grid") + "/" + file));
    std::string json = read_small_file(p->dir.file("xs-" + mode + ".json"));
    for (const char* key : {"\"engine\": \"xstream\"", "\"update_budget_bytes\": 262144", "\"update_bytes_written\"",
                            "\"update_bytes_read\"", "\"update_spills\"", "\n  \"reentries\": 0,\n"})
      REQUIRE_THAT(json, Catch::Contains(key));  // the run's total: no re-entry by default in X-Stream
  }
  // Asked for, X-Stream sweeps its loads again, with the same results (through the chunks: a graph
  // this small is resident, and light rounds would take its traversals off them).
  {
    std::vector<std::string> args = {"run", p->graph, "--engine", "xstream", "--graph-mem", "1M", "--chunk-size", "4K",
                                     "--update-mem", "256K", "--reentry", "16", "--async", "on", "--light-rounds", "off", "--out",
                                     p->dir.file("xs-reentry"), "--report", p->dir.file("xs-reentry.json")};
    args.insert(args.end(), jobs.begin(), jobs.end());
    CliResult r = graphso_cli(args);
    INFO(r.err);
    REQUIRE(r.status == 0);
    const std::string json = read_small_file(p->dir.file("xs-reentry.json"));
    REQUIRE_THAT(json, Catch::Contains("\n  \"reentries\": "));
    REQUIRE_THAT(json, !Catch::Contains("\n  \"reentries\": 0,\n"));
    for (const std::string& file : files_in(p->dir.file("grid")))
      REQUIRE(read_small_file(p->dir.file("xs-reentry") + "/" + file) == read_small_file(p->dir.file("grid") + "/" + file));
  }
  REQUIRE(files_in(p->dir.file("grid")).size() == 6);  // five jobs and the results marker
  // Spill files live in the run's scratch directory, only while it lasts; never in the graph.
  REQUIRE(files_in(p->dir.file("spill")).empty());
  for (const std::string& file : files_in(p->graph)) REQUIRE(file.find("updates") == std::string::npos);
  require_usage_error(graphso_cli({"run", p->graph, "--job", "wcc", "--spill-dir", p->dir.file("spill")}),
                      "--spill-dir applies to --engine xstream or a store only");
  require_one_line_error(graphso_cli({"run", p->graph, "--engine", "xstream", "--job", "wcc", "--spill-dir",
                                      p->dir.file("nowhere")}),
                         "--spill-dir " + p->dir.file("nowhere") + ": not a directory");

  require_usage_error(graphso_cli({"run", p->graph, "--engine", "graphchi", "--job", "wcc"}),
                         "unknown engine 'graphchi' (expected gridgraph or xstream)");
  require_usage_error(graphso_cli({"run", p->graph, "--update-mem", "1M", "--job", "wcc"}),
                         "--update-mem applies to --engine xstream only");
  require_one_line_error(graphso_cli({"run", p->graph, "--engine", "xstream", "--update-mem", "32K", "--job", "wcc"}),
                         "an update budget of 32768 bytes is too small");
  require_usage_error(graphso_cli({"prep", p->dir.file("g.bin"), "-o", p->dir.file("x"), "--engine", "graphchi"}),
                         "unknown engine layout 'graphchi' (expected gridgraph, xstream or both)");
  // Prepared again for GridGraph alone: the X-Stream files go too.
  REQUIRE(graphso_cli({"prep", p->dir.file("g.bin"), "-o", p->graph, "--no-chunks"}).status == 0);
  REQUIRE_FALSE(path_exists(p->graph + "/xstream.meta"));
  REQUIRE_FALSE(path_exists(p->graph + "/tchunk.xstream.4096"));
}

TEST_CASE("cli: source=random picks seeded vertices with out-edges; a source without out-edges is warned about") {
  auto p = prepare_through_cli();
  reference::Csr csr = reference::build_csr(p->set.vertices, p->set.edges);
  auto picked = [](const CliResult& r) {
    std::vector<uint64_t> ids;
    for (const std::string& line : r.err_lines()) {
      size_t at = line.find("picked vertex ");
      if (at != std::string::npos) ids.push_back(std::stoull(line.substr(at + 14)));
    }
    return ids;
  };
  auto run = [&](const std::string& out, std::vector<std::string> extra) {
    std::vector<std::string> args = {"run", p->graph, "--out", p->dir.file(out)};
    args.insert(args.end(), extra.begin(), extra.end());
    CliResult r = graphso_cli(args);
    INFO(r.err);
    REQUIRE(r.status == 0);
    return r;
  };
  CliResult a = run("a", {"--job", "bfs:source=random", "--job", "sssp:source=random", "--job", "ppr:source=5,random"});
  CliResult b = run("b", {"--job", "bfs:source=random", "--job", "sssp:source=random", "--job", "ppr:source=5,random"});
  const std::vector<uint64_t> sources = picked(a);
  REQUIRE(sources.size() == 3);
  REQUIRE(picked(b) == sources);  // same seed, same sources
  for (uint64_t v : sources) REQUIRE(csr.out_degree(v) > 0);
  // The job ran from the vertex it named.
  auto bfs = reference::bfs(csr, static_cast<VertexId>(sources[0]));
  auto levels = read_values(p->dir.file("a/0-bfs.txt"), p->set.vertices);
  for (uint64_t v = 0; v < p->set.vertices; ++v)
    REQUIRE(levels[v] == (bfs[v] == reference::kUnreached ? "-1" : std::to_string(bfs[v])));
  // Another seed draws other vertices (from 3103 with out-edges: equal by chance with
  // probability about 1e-7).
  REQUIRE(picked(run("c", {"--job", "bfs:source=random", "--job", "sssp:source=random", "--seed", "2"})) !=
          std::vector<uint64_t>(sources.begin(), sources.begin() + 2));
  // A job file says "random" too.
  write(p->dir.file("random.toml"), "[[job]]\nalgo = \"bfs\"\nsource = \"random\"\n");
  REQUIRE(picked(run("d", {"--jobs", p->dir.file("random.toml")})) == std::vector<uint64_t>{sources[0]});
  write(p->dir.file("word.toml"), "[[job]]\nalgo = \"bfs\"\nsource = \"hub\"\n");
  require_one_line_error(graphso_cli({"run", p->graph, "--jobs", p->dir.file("word.toml")}), "word.toml:3: job 0: source must be an integer");

  // --trials (GAP's -n): trial k draws with seed + k; the results are the last trial's, the report
  // lists every trial.
  CliResult repeated = run("t", {"--job", "bfs:source=random", "--trials", "3", "--report", p->dir.file("trials.json")});
  const std::vector<uint64_t> per_trial = picked(repeated);
  REQUIRE(per_trial.size() == 3);
  REQUIRE(per_trial[0] == sources[0]);  // trial 1 is the seed's own draw
  REQUIRE_THAT(repeated.err, Catch::Contains("graphso: trial 3: 0-bfs (bfs): source=random picked vertex"));
  REQUIRE_THAT(repeated.out, Catch::Contains("3 trials (the last one above), seconds: "));
  const std::string trials_json = read_small_file(p->dir.file("trials.json"));
  REQUIRE(std::count(trials_json.begin(), trials_json.end(), '{') >= 4);  // the report and three trials
  REQUIRE_THAT(trials_json, Catch::Contains("\"trials\": ["));
  auto last = reference::bfs(csr, static_cast<VertexId>(per_trial[2]));
  auto last_levels = read_values(p->dir.file("t/0-bfs.txt"), p->set.vertices);
  for (uint64_t v = 0; v < p->set.vertices; ++v)
    REQUIRE(last_levels[v] == (last[v] == reference::kUnreached ? "-1" : std::to_string(last[v])));
  require_usage_error(graphso_cli({"run", p->graph, "--job", "wcc", "--trials", "0"}), "--trials must be at least 1");

  // 3150 is isolated, 3102 only has an in-edge: both warned about, and the run goes on.
  CliResult lone = run("e", {"--job", "bfs:source=3150", "--job", "ppr:source=3102,3"});
  REQUIRE(lone.err_lines() == std::vector<std::string>{
      "graphso: warning: 0-bfs (bfs): source 3150 has no out-edges, so nothing is reached from it (source=random picks a vertex with out-edges)",
      "graphso: warning: 1-ppr (ppr): source 3102 has no out-edges, so nothing is reached from it (source=random picks a vertex with out-edges)"});
  REQUIRE_THAT(lone.out, Catch::Contains(" 1 round  "));
  // A budget refused inside the run stays the only line: the warning would come once it started.
  require_one_line_error(graphso_cli({"run", p->graph, "--job", "bfs:source=3150", "--mem", "20K"}), "is too small");
  REQUIRE(run("f", {"--job", "bfs:source=3"}).err.empty());
}

TEST_CASE("cli: --version; a usage error exits 2 in every command, a run-time error 1") {
  CliResult version = graphso_cli({"--version"});
  REQUIRE(version.status == 0);
  REQUIRE_THAT(version.out, Catch::Matches("graphso [0-9]+\\.[0-9]+\\.[0-9]+\n"));
  for (const char* command : {"convert", "generate", "prep", "inspect", "run", "jobs", "disk-bandwidth", "ingest",
                              "store-stat", "snapshot", "export"}) {
    INFO(command);
    require_usage_error(graphso_cli({command, "--bogus"}), "--bogus");
  }
  TempDir dir;
  require_usage_error(graphso_cli({"disk-bandwidth", dir.path(), "--limit", "many"}), "--limit: 'many' is not a size");
  require_usage_error(graphso_cli({"convert", dir.file("x.el"), "-o", dir.file("x.bin"), "--format", "csv"}), "csv");
  require_one_line_error(graphso_cli({"convert", dir.file("x.el"), "-o", dir.file("x.bin")}), "cannot open");
  REQUIRE(graphso_cli({}).status == 2);
  REQUIRE(files_in(dir.path()).empty());
}

TEST_CASE("cli: --out-format bin results carry a sidecar naming the value type and vertex count") {
  auto p = prepare_through_cli();
  const std::string out = p->dir.file("bin");
  REQUIRE(graphso_cli({"run", p->graph, "--job", "bfs:source=3", "--job", "sssp:source=3", "--job", "wcc", "--job",
                       "pagerank:iterations=2", "--out", out, "--out-format", "bin"}).status == 0);
  const std::map<std::string, std::pair<std::string, uint64_t>> expected = {
      {"0-bfs", {"value_type: uint32\n", 4}}, {"1-sssp", {"value_type: uint64\n", 8}},
      {"2-wcc", {"value_type: uint32\n", 4}}, {"3-pagerank", {"value_type: float64\n", 8}}};
  for (const auto& [name, type] : expected) {
    INFO(name);
    const std::string meta = read_small_file(out + "/" + name + ".bin.meta");
    REQUIRE_THAT(meta, Catch::Contains("job: " + name + "\n") && Catch::Contains("vertices: 3200\n") &&
                           Catch::Contains(type.first) && Catch::Contains("byte_order: little\n"));
    REQUIRE(File(out + "/" + name + ".bin", File::Mode::Read).size() == type.second * 3200);
  }
  REQUIRE_THAT(read_small_file(out + "/0-bfs.bin.meta"), Catch::Contains("unreached: 4294967295\n"));
  REQUIRE_THAT(read_small_file(out + "/3-pagerank.bin.meta"), !Catch::Contains("unreached"));
}

TEST_CASE("cli: --verify checks every result against the in-memory reference, in every engine") {
  auto p = prepare_through_cli();
  REQUIRE(graphso_cli({"prep", p->dir.file("g.bin"), "-o", p->graph, "--partitions", "5", "--engine", "both",
                       "--order", "degree"}).status == 0);
  for (const char* engine : {"gridgraph", "xstream"}) {
    INFO(engine);
    const std::string report = p->dir.file(std::string("verify-") + engine + ".json");
    CliResult run = graphso_cli({"run", p->graph, "--engine", engine, "--sharing", "chunk", "--verify", "--job",
                                 "bfs:source=random", "--job", "sssp:source=3", "--job", "wcc", "--job",
                                 "pagerank:iterations=4", "--job", "pagerank-delta:tolerance=1e-5", "--job",
                                 "ppr:source=3,9", "--job", "kcore", "--report", report});
    INFO(run.out << run.err);
    REQUIRE(run.status == 0);
    for (const char* line : {"verified 0-bfs: BFS levels equal to the reference at all 3200 vertices",
                             "verified 1-sssp: SSSP distances equal", "verified 2-wcc: WCC labels equal",
                             "verified 3-pagerank: PageRank: largest relative difference", "verified 4-pagerank-delta: L1",
                             "verified 5-ppr: L1", "verified 6-kcore: core numbers equal"})
      REQUIRE_THAT(run.out, Catch::Contains(line));
    const std::string json = read_small_file(report);
    REQUIRE_THAT(json, Catch::Contains("\"verification\": \"BFS levels equal to the reference at all 3200 vertices\""));
  }
}

TEST_CASE("cli: --pass-over-pages: the same results and loads, fewer edges decoded, in every engine and mode") {
  // A street lattice in row order: a wavefront crosses few of a load's pages, so some have no
  // source to push. One thread, synchronous rounds: every load is the same whether pages are
  // passed over or not, so the reports' loads must match exactly. X-Stream's updates are spilled
  // past its budget here, not applied at once: applied early, label WCC's lower labels reach the
  // round's later loads as soon as a bin fills, and where bins fill moves with the pages decoded.
  TempDir dir;
  REQUIRE(graphso_cli({"generate", "road", "--width", "80", "--height", "80", "--weighted", "--max-weight", "9", "--seed",
                       "3", "-o", dir.file("r.bin")}).status == 0);
  CliResult prep = graphso_cli({"prep", dir.file("r.bin"), "-o", dir.file("r"), "--engine", "both", "--partitions", "4",
                                "--chunk-size", "8K"});
  INFO(prep.err);
  REQUIRE(prep.status == 0);
  auto run = [&](const std::string& engine, const std::string& mode, const std::string& over, const std::string& name,
                 const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"run", dir.file("r"), "--engine", engine, "--sharing", mode, "--graph-mem", "256K",
                                     "--job", "bfs:source=0", "--job", "sssp:source=0", "--job", "wcc:method=label",
                                     "--pass-over-pages", over, "--out", dir.file(name), "--report", dir.file(name + ".json")};
    args.insert(args.end(), extra.begin(), extra.end());
    CliResult r = graphso_cli(args);
    INFO(r.err);
    REQUIRE(r.status == 0);
    return read_small_file(dir.file(name + ".json"));
  };
  auto same_results = [&](const std::string& a, const std::string& b) {
    REQUIRE(files_in(dir.file(a)) == files_in(dir.file(b)));
    for (const std::string& file : files_in(dir.file(a)))
      REQUIRE(read_small_file(dir.file(a) + "/" + file) == read_small_file(dir.file(b) + "/" + file));
  };
  run("gridgraph", "chunk", "off", "reference", {"--threads", "1", "--async", "off"});
  for (const std::string engine : {"gridgraph", "xstream"})
    for (const std::string mode : {"independent", "partition", "chunk"}) {
      INFO(engine << " " << mode);
      const std::string on = engine + "-" + mode + "-on", off = engine + "-" + mode + "-off";
      std::vector<std::string> sync = {"--threads", "1", "--async", "off"};
      if (engine == "xstream") sync.insert(sync.end(), {"--update-overflow", "spill"});
      const std::string on_report = run(engine, mode, "on", on, sync);
      const std::string off_report = run(engine, mode, "off", off, sync);
      same_results(on, "reference");
      same_results(off, "reference");
      for (const char* field : {"edges_loaded", "active_edges_loaded", "bytes_read", "rounds_total"})
        CHECK(report_field(on_report, field) == report_field(off_report, field));
      const uint64_t loaded = report_field(on_report, "edges_loaded");
      CHECK(report_field(off_report, "edges_decoded") == loaded);
      CHECK(report_field(off_report, "edges_passed_over") == 0);
      CHECK(report_field(on_report, "edges_decoded") + report_field(on_report, "edges_passed_over") == loaded);
      CHECK(report_field(on_report, "edges_passed_over") > 0);
      REQUIRE_THAT(on_report, Catch::Contains("\"pass_over_pages\": true"));
      // Asynchronous passes on two threads, re-entry included: the same answers.
      run(engine, mode, "on", engine + "-" + mode + "-async", {"--threads", "2"});
      same_results(engine + "-" + mode + "-async", "reference");
    }
  require_usage_error(graphso_cli({"run", dir.file("r"), "--job", "wcc", "--pass-over-pages", "maybe"}),
                      "--pass-over-pages 'maybe' (expected on or off)");
}

TEST_CASE("cli: one exit-code rule in every command: 2 for the command line, 1 for what it names") {
  TempDir dir;
  const std::string missing = dir.file("missing");
  // Per command: a bad value of one of its options (wrong in itself, whatever the data), and a
  // command line that names a file or directory that is not there.
  struct Case {
    std::vector<std::string> bad_value, missing_input;
  };
  const std::map<std::string, Case> cases = {
      {"convert", {{"convert", missing, "-o", dir.file("o.bin"), "--format", "nope"}, {"convert", missing, "-o", dir.file("o.bin")}}},
      {"generate", {{"generate", "rmat", "-o", dir.file("r.bin"), "--scale", "99"}, {"generate", "rmat", "--scale", "4", "-o", missing + "/r.bin"}}},
      {"prep", {{"prep", missing, "-o", dir.file("g"), "--chunk-size", "3"}, {"prep", missing, "-o", dir.file("g")}}},
      {"inspect", {{"inspect", missing, "--verify=maybe"}, {"inspect", missing}}},
      {"run", {{"run", missing, "--job", "wcc", "--threads", "5000"}, {"run", missing, "--job", "wcc"}}},
      {"jobs", {{"jobs", "--nope"}, {}}},
      {"disk-bandwidth", {{"disk-bandwidth", missing, "--bytes", "-1"}, {"disk-bandwidth", missing}}},
      {"ingest", {{"ingest", dir.file("s.pm"), "--input", missing, "--batch", "0"}, {"ingest", dir.file("s.pm"), "--input", missing}}},
      {"store-stat", {{"store-stat", missing, "--nope"}, {"store-stat", missing}}},
      {"store-check", {{"store-check", missing, "--nope"}, {"store-check", missing}}},
      {"store-compact", {{"store-compact", missing, "--threads", "0"}, {"store-compact", missing}}},
      {"snapshot", {{"snapshot", missing, "-o", dir.file("snap"), "--encoding", "nope"}, {"snapshot", missing, "-o", dir.file("snap")}}},
      {"export", {{"export", missing, "-o", dir.file("x.el"), "--format", "nope"}, {"export", missing, "-o", dir.file("x.el")}}},
      {"validate", {{"validate", missing, missing, "--algo", "nope"}, {"validate", missing, missing, "--algo", "bfs"}}},
      {"graphalytics", {{"graphalytics", missing + ".properties", "-o", dir.file("g"), "--engine", "nope"},
                        {"graphalytics", missing + ".properties", "-o", dir.file("g")}}},
  };
  // Every command the usage lists has its case: a new command cannot skip the rule.
  CliResult usage = graphso_cli({"--help"});
  std::istringstream lines(usage.out);
  size_t listed = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  ", 0) != 0 || line.size() < 3 || line[2] == ' ') continue;
    const std::string command = line.substr(2, line.find(' ', 2) - 2);
    INFO("command " << command);
    REQUIRE(cases.count(command) == 1);
    ++listed;
  }
  REQUIRE(listed == cases.size());
  for (const auto& [command, c] : cases) {
    INFO("command " << command);
    require_usage_error(graphso_cli({command, "--no-such-option"}), "--no-such-option");
    require_usage_error(graphso_cli(c.bad_value), "");
    if (!c.missing_input.empty()) require_one_line_error(graphso_cli(c.missing_input), "missing");
  }
  REQUIRE(files_in(dir.path()).empty());  // nothing written by any of them
}
