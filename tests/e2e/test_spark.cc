// The same job file on Apache Spark (tools/spark): graphso export --format parquet, then every
// algorithm Spark runs, on GraphX (the jar make deps-spark builds) in local[2] and on two executor
// JVMs (local-cluster), and on the DataFrame back end ([long]), compared file by file with `graphso run` on
// the same graph: BFS, SSSP (integer and real weights), WCC, CDLP and LCC byte for byte, PageRank
// within float noise, delta-PageRank and PPR within the L1 bound both sides state. Bad input is
// refused before a Spark session starts.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "base/file.h"
#include "tests/e2e/cli.h"
#include "tests/test_graphs.h"

using namespace graphso;
using namespace graphso::testing;

namespace {

namespace fs = std::filesystem;

// The checkout the graphso under test was built in (build/graphso -> .).
fs::path checkout() { return fs::absolute(graphso_binary()).parent_path().parent_path(); }

// make deps puts Spark, pyarrow and numpy in the checkout's .venv-spark.
std::string spark_python() {
  if (const char* given = std::getenv("GRAPHSO_PYTHON")) return given;
  return (checkout() / ".venv-spark/bin/python").string();
}

CliResult graphso_spark(std::vector<std::string> args) {
  std::vector<std::string> argv = {spark_python(), (checkout() / "tools/spark/run.py").string()};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"--graphso", graphso_binary()});
  return run_program(argv);
}

void require_spark_refusal(const CliResult& r, const std::string& contains) {
  INFO("stderr: " << r.err);
  REQUIRE(r.status == 1);
  REQUIRE(r.err_lines().size() == 1);
  REQUIRE_THAT(r.err, Catch::StartsWith("graphso-spark: error: ") && Catch::Contains(contains));
}

std::vector<std::pair<uint64_t, double>> values(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::pair<uint64_t, double>> out;
  uint64_t v = 0;
  double x = 0;
  while (in >> v >> x) out.emplace_back(v, x);
  return out;
}

// Every algorithm Spark runs but LCC (email-enron, symmetric and relabelled: CDLP's ties are broken
// on original ids); the weighted R-MAT runs SSSP, where its weights matter, Graphalytics' PageRank
// (at a damping factor of its own), which its many vertices without out-edges test, and CDLP and
// LCC on a directed graph (each Spark round costs about a second, and each session about twenty;
// LCC's join of every vertex's neighbours' edges would take minutes on enron's hubs).
const char* kSssp = R"(
[[job]]
algo = "sssp"
source = 0
)";
const char* kGraphalyticsPagerank = R"(
[[job]]
algo = "pagerank"
iterations = 3
variant = "graphalytics"
damping = 0.7
)";
const char* kUnweighted = R"(
[[job]]
algo = "bfs"
source = 0
[[job]]
name = "components"
algo = "wcc"
[[job]]
algo = "pagerank"
iterations = 3
)";
const char* kCdlp = R"(
[[job]]
algo = "cdlp"
iterations = 3
)";
const char* kLcc = R"(
[[job]]
algo = "lcc"
)";
const char* kToTolerance = R"(
[[job]]
algo = "pagerank-delta"
tolerance = 0.05
[[job]]
algo = "ppr"
source = [0, 5]
tolerance = 0.05
)";

// d/(1-d) * tolerance (graphso's delta jobs, jobs/pagerank.h) + d * tolerance (tools/spark's
// stopping rule, algorithms.py): the most two results to tolerance 0.05 may differ in L1.
constexpr double kDeltaBound = (0.85 / 0.15 + 0.85) * 0.05;

// Where and how a batch runs on Spark: the master, and the back end (tools/spark --backend).
struct SparkRun {
  std::string master = "local[2]";
  std::string backend = "graphx";
};

// exact_files: results equal byte for byte; rank_files: PageRank results, compared within their bound.
void compare_batch(const std::string& graph_dir, TempDir& dir, const std::string& batch,
                   const std::vector<std::string>& exact_files, const std::vector<std::string>& rank_files,
                   const SparkRun& spark = {}) {
  const std::string jobs = dir.file("batch.toml"), exported = dir.file("export"), ours = dir.file("graphso"),
                    theirs = dir.file("spark"), report = dir.file("spark.json");
  write_text(jobs, batch);
  CliResult e = graphso_cli({"export", graph_dir, "-o", exported, "--format", "parquet"});
  INFO(e.err);
  REQUIRE(e.status == 0);
  REQUIRE(fs::exists(exported + "/graphso.json"));
  REQUIRE(fs::exists(exported + "/part-00000.parquet"));
  REQUIRE(graphso_cli({"run", graph_dir, "--jobs", jobs, "--out", ours}).status == 0);
  CliResult s = graphso_spark(
      {exported, "--jobs", jobs, "--out", theirs, "--report", report, "--master", spark.master, "--backend", spark.backend});
  INFO(spark.master << " " << spark.backend << ": " << s.out << s.err);
  REQUIRE(s.status == 0);
  const std::string json = read_small_file(report);
  REQUIRE_THAT(json, Catch::Contains("\"master\": \"" + spark.master + "\"") && Catch::Contains("\"converged\": true"));
  REQUIRE_THAT(json, Catch::Contains("\"backend\": \"" + spark.backend + "\""));
  REQUIRE_THAT(json, !Catch::Contains("\"converged\": false"));
  // The summary counts from the command's start: the JVM's start and the load are in it, and said.
  REQUIRE_THAT(s.out, Catch::Contains("starting Spark") && Catch::Contains("loading the export") && Catch::Contains("the jobs"));
  auto field = [&json](const std::string& key) {
    const size_t at = json.rfind("\"" + key + "\": ");  // the last: the top level's "seconds" follows the jobs'
    REQUIRE(at != std::string::npos);
    return std::stod(json.substr(at + key.size() + 4));
  };
  REQUIRE(field("session_seconds") > 0);
  REQUIRE(field("seconds") >= field("session_seconds") + field("load_seconds") + field("jobs_seconds"));
  for (const std::string& exact : exact_files) {
    INFO(exact);
    REQUIRE(fs::exists(ours + "/" + exact));
    REQUIRE(read_small_file(theirs + "/" + exact) == read_small_file(ours + "/" + exact));
  }
  for (const std::string& ranks : rank_files) {
    const auto a = values(ours + "/" + ranks), b = values(theirs + "/" + ranks);
    INFO(ranks);
    REQUIRE(a.size() == b.size());
    REQUIRE(a.size() > 1000);
    double l1 = 0, worst_relative = 0;
    uint64_t ids_differ = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      ids_differ += a[i].first != b[i].first;
      l1 += std::abs(a[i].second - b[i].second);
      if (a[i].second > 0) worst_relative = std::max(worst_relative, std::abs(a[i].second - b[i].second) / a[i].second);
    }
    REQUIRE(ids_differ == 0);
    INFO("L1 " << l1 << ", worst relative " << worst_relative);
    // Fixed iterations: the same arithmetic in another order, printed to 9 digits.
    if (ranks.ends_with("-pagerank.txt")) REQUIRE(worst_relative <= 1e-7);
    else REQUIRE(l1 <= kDeltaBound);
  }
}

}  // namespace

TEST_CASE("spark: a job file runs on Spark local[2] (GraphX) with graphso's results (email-enron, weighted R-MAT 12, real weights)") {
  TempDir dir;
  const std::string enron = dir.file("enron.bin"), enron_dir = dir.file("enron");
  REQUIRE(graphso_cli({"convert", datasets_dir() + "/email-enron-u.el.gz", "-o", enron, "--symmetrize"}).status == 0);
  // Relabelled: Spark sees original ids, so the export maps them back.
  REQUIRE(graphso_cli({"prep", enron, "-o", enron_dir, "--order", "degree"}).status == 0);
  compare_batch(enron_dir, dir, std::string(kSssp) + kUnweighted + kToTolerance + kCdlp,
                {"0-sssp.txt", "1-bfs.txt", "components.txt", "6-cdlp.txt"},
                {"3-pagerank.txt", "4-pagerank-delta.txt", "5-ppr.txt"});

  TempDir rmat_dir;
  const std::string rmat = rmat_dir.file("rmat.bin"), rmat_graph = rmat_dir.file("g");
  REQUIRE(graphso_cli({"generate", "rmat", "-o", rmat, "--scale", "12", "--edge-factor", "16", "--weighted"}).status == 0);
  REQUIRE(graphso_cli({"prep", rmat, "-o", rmat_graph}).status == 0);
  compare_batch(rmat_graph, rmat_dir, std::string(kSssp) + kGraphalyticsPagerank + kCdlp + kLcc,
                {"0-sssp.txt", "2-cdlp.txt", "3-lcc.txt"}, {"1-pagerank.txt"});

  // Real weights (binary32, a float64 column in Parquet): SSSP's distances in double on both.
  TempDir real_dir;
  const std::string text = real_dir.file("real.wel"), real = real_dir.file("real.bin"), real_graph = real_dir.file("g");
  REQUIRE(graphso_cli({"generate", "rmat", "-o", real_dir.file("r.bin"), "--scale", "10", "--edge-factor", "8"}).status == 0);
  REQUIRE(graphso_cli({"export", real_dir.file("r.bin"), "-o", real_dir.file("r.el")}).status == 0);
  std::istringstream lines(read_small_file(real_dir.file("r.el")));
  std::string weighted;
  std::mt19937_64 draw(3);
  for (std::string line; std::getline(lines, line);)
    weighted += line.starts_with("#") ? line + "\n" : fmt::format("{} {:.6g}\n", line, std::uniform_real_distribution<double>(0, 100)(draw));
  write_text(text, weighted);
  REQUIRE(graphso_cli({"convert", text, "-o", real, "--real-weights"}).status == 0);
  REQUIRE(graphso_cli({"prep", real, "-o", real_graph}).status == 0);
  compare_batch(real_graph, real_dir, kSssp, {"0-sssp.txt"}, {});
}

// Every algorithm Spark runs, on a weighted R-MAT 11: a batch's jobs and their result files. A
// second BFS and SSSP, from the graph's hub, join the first two in one group that GraphX runs as
// one Pregel program (tools/spark --grouping, on by default), BFS and SSSP lanes together; the
// DataFrame back end runs them apart. The last BFS is the hub's again: computed once, on either
// back end, as graphso computes identical jobs.
std::string every_algorithm(const std::string& hub) {
  return std::string(kSssp) + kUnweighted + kToTolerance + kCdlp + kLcc +
         fmt::format("[[job]]\nalgo = \"bfs\"\nsource = {0}\n[[job]]\nalgo = \"sssp\"\nsource = {0}\n"
                     "[[job]]\nalgo = \"bfs\"\nsource = {0}\n",
                     hub);
}
const std::vector<std::string> kEveryExact = {"0-sssp.txt", "1-bfs.txt",  "components.txt", "6-cdlp.txt",
                                              "7-lcc.txt",  "8-bfs.txt", "9-sssp.txt",     "10-bfs.txt"};
const std::vector<std::string> kEveryRanks = {"3-pagerank.txt", "4-pagerank-delta.txt", "5-ppr.txt"};

// The graph, and its vertex of most out-edges (`graphso inspect`).
std::string weighted_rmat_11(TempDir& dir, std::string& graph) {
  graph = dir.file("g");
  REQUIRE(graphso_cli({"generate", "rmat", "-o", dir.file("rmat.bin"), "--scale", "11", "--edge-factor", "8", "--weighted"}).status == 0);
  REQUIRE(graphso_cli({"prep", dir.file("rmat.bin"), "-o", graph}).status == 0);
  const std::string info = graphso_cli({"inspect", graph}).out;
  const size_t at = info.find("(vertex ");
  REQUIRE(at != std::string::npos);
  return info.substr(at + 8, info.find(')', at) - at - 8);
}

// The hub's BFS reaches most of the graph: the grouped traversals compared have work to share.
void require_hub_reaches(TempDir& dir) {
  const auto levels = values(dir.file("spark") + "/8-bfs.txt");
  uint64_t reached = 0;
  for (const auto& [v, level] : levels) reached += level >= 0;
  REQUIRE(reached > levels.size() / 2);
}

// Two executor JVMs (Spark's local-cluster master: a shuffle crosses processes, as on a cluster)
// run every algorithm Spark runs, as GraphX's programs, with graphso's results.
TEST_CASE("spark: every algorithm on two executor JVMs (local-cluster, GraphX), with graphso's results") {
  TempDir dir;
  std::string graph;
  const std::string hub = weighted_rmat_11(dir, graph);
  compare_batch(graph, dir, every_algorithm(hub), kEveryExact, kEveryRanks, {.master = "local-cluster[2,1,1024]", .backend = "graphx"});
  require_hub_reaches(dir);
  // The report names each grouped job's group, and the job computed once.
  const std::string report = read_small_file(dir.file("spark.json"));
  REQUIRE_THAT(report, Catch::Contains("\"group\": [\n        \"0-sssp\",\n        \"1-bfs\",\n        \"8-bfs\",\n"
                                       "        \"9-sssp\"\n      ]"));
  REQUIRE_THAT(report, Catch::Contains("\"same_as\": \"8-bfs\""));
  // Eleven jobs leave cached only the graph and PageRank's out-degrees (an RDD each of vertices
  // and of edges): each job's own graphs are dropped once its result is written.
  REQUIRE(report_field(report, "cached_rdds") <= 4);
}

// The DataFrame back end (--backend dataframe), the same batch: in make test-long, where its
// minute fits.
TEST_CASE("spark: every algorithm on the DataFrame back end, with graphso's results", "[.long][long]") {
  TempDir dir;
  std::string graph;
  const std::string hub = weighted_rmat_11(dir, graph);
  compare_batch(graph, dir, every_algorithm(hub), kEveryExact, kEveryRanks, {.master = "local[2]", .backend = "dataframe"});
  require_hub_reaches(dir);
}

TEST_CASE("spark: bad input is refused before Spark starts, with graphso's own messages") {
  TempDir dir;
  const std::string edges = dir.file("e.bin"), g = dir.file("g"), exported = dir.file("export");
  REQUIRE(graphso_cli({"generate", "rmat", "-o", edges, "--scale", "8", "--edge-factor", "4"}).status == 0);
  REQUIRE(graphso_cli({"prep", edges, "-o", g}).status == 0);
  REQUIRE(graphso_cli({"export", g, "-o", exported, "--format", "parquet"}).status == 0);
  const std::string jobs = dir.file("jobs.toml"), out = dir.file("out");
  write_text(jobs, "[[job]]\nalgo = \"bfs\"\nsource = 0\n");

  // No export there.
  require_spark_refusal(graphso_spark({dir.file("nothing"), "--jobs", jobs, "--out", out}), "no graphso.json");
  // A part gone.
  {
    TempDir damaged;
    fs::copy(exported, damaged.file("x"));
    fs::remove(damaged.file("x/part-00000.parquet"));
    require_spark_refusal(graphso_spark({damaged.file("x"), "--jobs", jobs, "--out", out}), "part-00000.parquet is missing");
  }
  // Job file errors: the message graphso run gives, word for word.
  for (const std::string& bad : {std::string("[[job]]\nalgo = \"bfs\"\nsource = 100000\n"),
                                 std::string("[[job]]\nalgo = \"bfs\"\nsorce = 0\n"),
                                 std::string("[[job]]\nalgo = \"sort\"\n"), std::string("[[job]\n")}) {
    write_text(jobs, bad);
    CliResult run = graphso_cli({"run", g, "--jobs", jobs});
    require_one_line_error(run, "");
    const std::string said = run.err.substr(std::string("graphso: error: ").size());
    require_spark_refusal(graphso_spark({exported, "--jobs", jobs, "--out", out}), said.substr(0, said.size() - 1));
  }
  // What Spark does not run.
  write_text(jobs, "[[job]]\nalgo = \"kcore\"\n");
  require_spark_refusal(graphso_spark({exported, "--jobs", jobs, "--out", out}), "kcore does not run on Spark");
  write_text(jobs, "[[job]]\nalgo = \"bfs\"\nsource = \"random\"\n");
  require_spark_refusal(graphso_spark({exported, "--jobs", jobs, "--out", out}), "source=random needs the graph's out-degrees");
  write_text(jobs, "[[job]]\nalgo = \"wcc\"\nversion = 12\n");
  require_spark_refusal(graphso_spark({exported, "--jobs", jobs, "--out", out}), "job 0-wcc: version applies to a run on a store");
  // GraphX asked for (or a jar named) where there is no jar.
  write_text(jobs, "[[job]]\nalgo = \"bfs\"\nsource = 0\n");
  for (const std::string backend : {"graphx", "auto"}) {
    CliResult no_jar = run_program({"env", "GRAPHSO_GRAPHX_JAR=" + dir.file("none.jar"), spark_python(),
                                    (checkout() / "tools/spark/run.py").string(), exported, "--jobs", jobs, "--out", out,
                                    "--backend", backend, "--graphso", graphso_binary()});
    require_spark_refusal(no_jar, "no GraphX jar");
  }
  REQUIRE(!fs::exists(out));
  // A results directory that holds the user's files is not replaced.
  write_text(jobs, "[[job]]\nalgo = \"bfs\"\nsource = 0\n");
  fs::create_directories(out);
  write_text(out + "/notes.txt", "mine");
  require_spark_refusal(graphso_spark({exported, "--jobs", jobs, "--out", out}), "holds files that are not graphso results");
  REQUIRE(read_small_file(out + "/notes.txt") == "mine");
  // The job file as tools/spark receives it: run's names and every default filled in.
  write_text(jobs, "[[job]]\nalgo = \"pagerank-delta\"\narrive_after = 2\n[[job]]\nname = \"p\"\nalgo = \"ppr\"\nsource = [3, 1]\n");
  CliResult checked = graphso_cli({"jobs", "--check", jobs, "--vertices", "256"});
  INFO(checked.err);
  REQUIRE(checked.status == 0);
  REQUIRE_THAT(checked.out, Catch::Contains("\"name\": \"0-pagerank-delta\"") && Catch::Contains("\"tolerance\": \"1e-6\"") &&
                                Catch::Contains("\"max_iterations\": \"1000\"") && Catch::Contains("\"arrive_after\": 2") &&
                                Catch::Contains("\"name\": \"p\"") && Catch::Contains("\"source\": \"3,1\""));
  require_usage_error(graphso_cli({"jobs", "--check", jobs}), "--check needs --vertices");
  // Parquet into standard output is a usage error.
  require_usage_error(graphso_cli({"export", g, "-o", "-", "--format", "parquet"}), "needs a directory");
}
