// Batches as users submit them: the paper's workloads W1-W8 as 8-job batches in every sharing
// mode, staggered arrivals, a failing job beside healthy ones, job files, and chunk mode saving
// I/O where vertex ids have locality. Each batch test runs once per engine (GENERATE).
#include <catch2/catch.hpp>

#include <fstream>

#include "base/error.h"
#include "engine/gridgraph/grid_graph.h"
#include "engine/xstream/xstream_engine.h"
#include "jobs/edge_job.h"
#include "jobs/job_file.h"
#include "tests/test_graphs.h"

using namespace graphso;
using graphso::testing::kEngines;
using graphso::testing::TempDir;

namespace {

const std::vector<Sharing> kModes = {Sharing::Independent, Sharing::Partition, Sharing::Chunk};

// Paper Table 3, each job twice (different sources): 8 jobs.
std::vector<std::string> workload(int w, uint64_t s1, uint64_t s2) {
  const char* pr = "pagerank-delta:tolerance=0.01";
  auto bfs = [](uint64_t s) { return "bfs:source=" + std::to_string(s); };
  auto sssp = [](uint64_t s) { return "sssp:source=" + std::to_string(s); };
  std::vector<std::string> four;
  switch (w) {
    case 1: four = {pr, "wcc", sssp(s1), bfs(s1)}; break;
    case 2: four = {pr, "wcc", sssp(s1), sssp(s2)}; break;
    case 3: four = {pr, "wcc", bfs(s1), bfs(s2)}; break;
    case 4: four = {sssp(s1), sssp(s2), sssp(s1 + 1), sssp(s2 + 1)}; break;
    case 5: four = {bfs(s1), bfs(s2), bfs(s1 + 1), bfs(s2 + 1)}; break;
    case 6: four = {sssp(s1), sssp(s2), sssp(s1 + 1), bfs(s2)}; break;
    case 7: four = {sssp(s1), sssp(s2), bfs(s1), bfs(s2)}; break;
    default: four = {sssp(s1), bfs(s2), bfs(s1), bfs(s2 + 1)}; break;
  }
  std::vector<std::string> eight = four;
  for (const std::string& job : four) {
    std::string twin = job;
    for (auto [from, to] : {std::pair{s1, s2 + 2}, std::pair{s2, s1 + 2}}) {
      std::string key = "source=" + std::to_string(from);
      if (auto at = twin.find(key); at != std::string::npos && at + key.size() == twin.size())
        twin = twin.substr(0, at) + "source=" + std::to_string(to);
    }
    eight.push_back(twin);
  }
  return eight;
}

void check(const graphso::testing::Batch& batch, const EdgeSet& set) {
  for (size_t j = 0; j < batch.jobs.size(); ++j) graphso::testing::check_against_reference(batch.specs[j], *batch.jobs[j], set);
}

// A 2-D lattice numbered row by row: neighbours have nearby ids, as in road networks.
EdgeSet lattice(uint32_t width, uint32_t height) {
  EdgeSet set;
  set.vertices = uint64_t{width} * height;
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      VertexId v = y * width + x;
      if (x + 1 < width) set.edges.push_back({v, v + 1, 1 + (x * 7 + y) % 5});
      if (y + 1 < height) set.edges.push_back({v, v + width, 1 + (x + y * 3) % 5});
    }
  EdgeTransforms t;
  t.symmetrize = true;
  apply_transforms(set, t);
  set.weighted = true;
  return set;
}

}  // namespace

TEST_CASE("W1-W8 as 8-job batches: every mode equals the reference, on a generated and a real graph") {
  const EngineKind engine = GENERATE(from_range(kEngines));
  TempDir dir;
  EdgeSet rmat = graphso::testing::rmat_edges(12, 8, true, 31, dir);
  std::string rmat_graph = graphso::testing::prepare_graph(dir, rmat, 4, "rmat");
  EdgeSet enron = graphso::testing::load_dataset("email-enron-u.el.gz");
  std::string enron_graph = graphso::testing::prepare_graph(dir, enron, 0, "enron");
  for (int w = 1; w <= 8; ++w) {
    INFO("workload W" << w);
    auto rmat_jobs = workload(w, 1, 2000);
    auto enron_jobs = workload(w, 0, 30000);
    for (Sharing mode : kModes) {
      // Graph data budget: 1/4 of the edge bytes in chunk mode, 1/10 in the others.
      double fraction = mode == Sharing::Chunk ? 0.4 : 0.1;
      check(graphso::testing::run_batch_on(rmat_graph, rmat_jobs, mode, graphso::testing::budget_for(rmat_graph, rmat_jobs, fraction),
                                           {.engine = engine}),
            rmat);
      if (w == 1 || w == 5)  // the real graph: the most and the least heterogeneous workloads
        check(graphso::testing::run_batch_on(enron_graph, enron_jobs, mode, graphso::testing::budget_for(enron_graph, enron_jobs, 0.25),
                                             {.chunk_bytes = 65536, .engine = engine}),
              enron);
    }
  }
}

TEST_CASE("staggered arrivals: late jobs join mid-run and still equal the reference") {
  const EngineKind engine = GENERATE(from_range(kEngines));
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(12, 8, true, 37, dir);
  std::string graph_dir = graphso::testing::prepare_graph(dir, set, 4);
  GridGraph graph = GridGraph::open(graph_dir);
  std::vector<std::string> args = {"pagerank-delta:tolerance=0.001", "wcc", "sssp:source=3", "bfs:source=3"};
  for (Sharing mode : kModes) {
    INFO("engine " << engine_name(engine) << ", mode " << sharing_name(mode));
    std::vector<JobSpec> specs;
    std::vector<std::unique_ptr<Job>> jobs;
    for (size_t i = 0; i < args.size(); ++i) specs.push_back(parse_job_argument(args[i], i));
    name_jobs(specs);
    for (const auto& s : specs) jobs.push_back(make_job(s, set.vertices));
    BatchConfig config;
    config.engine = engine;
    config.sharing = mode;
    config.graph_mem_bytes = set.edges.size() * 12 / 2 + (engine == EngineKind::XStream ? graphso::testing::kUpdateBytes : 0);
    config.threads = 2;
    config.show_progress = false;
    config.chunk_bytes = 16384;
    config.arrive_after = {0, 2, 4, 6};
    ReaderFactory readers{ReaderOptions{}};
    BatchReport report = run_batch(config, graph, jobs, readers);
    for (size_t j = 0; j < jobs.size(); ++j) graphso::testing::check_against_reference(specs[j], *jobs[j], set);
    REQUIRE(report.jobs[3].arrived_round == 6);
    REQUIRE(report.rounds[0].active_jobs == 1);
    REQUIRE(report.rounds[2].active_jobs == 2);
    REQUIRE(report.rounds.size() >= 7);
  }
}

namespace {

// A job whose edge function throws after a while, as a job with a bug would.
class ExplodingJob final : public EdgeJob<ExplodingJob, EdgeUse::OutEdges> {
 public:
  ExplodingJob() : EdgeJob("exploding", "test") {}
  uint64_t state_bytes(uint64_t n) const override { return 2 * ((n + 63) / 64 * 8); }
  void init(const GraphInfo& graph, int) override {
    frontier_ = Bitmap(graph.vertices);
    next_ = Bitmap(graph.vertices);
    frontier_.set_all();
  }
  uint32_t scatter(VertexId, Weight) {
    if (std::atomic_ref<uint64_t>(edges_).fetch_add(1) > 5000) throw std::runtime_error("edge function exploded");
    return 0;
  }
  bool gather(VertexId, uint32_t) { return false; }
  void end_round() override { ++rounds_; }
  void write_values(OutFormat, const VertexOrder&, const ResultSink&) const override {}
  BinaryValues binary_values() const override { return {"uint32", nullptr}; }

 private:
  uint64_t edges_ = 0;
};

}  // namespace

TEST_CASE("a failing job beside healthy ones: it is reported failed, the others finish correctly") {
  const EngineKind engine = GENERATE(from_range(kEngines));
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(12, 8, false, 41, dir);
  std::string graph_dir = graphso::testing::prepare_graph(dir, set, 4);
  GridGraph graph = GridGraph::open(graph_dir);
  for (Sharing mode : kModes) {
    INFO("engine " << engine_name(engine) << ", mode " << sharing_name(mode));
    std::vector<JobSpec> specs = {parse_job_argument("bfs:source=1", 0), parse_job_argument("wcc", 1)};
    name_jobs(specs);
    std::vector<std::unique_ptr<Job>> jobs;
    for (const auto& s : specs) jobs.push_back(make_job(s, set.vertices));
    jobs.push_back(std::make_unique<ExplodingJob>());
    BatchConfig config;
    config.engine = engine;
    config.sharing = mode;
    config.graph_mem_bytes = 64 * 1024 + (engine == EngineKind::XStream ? graphso::testing::kUpdateBytes : 0);
    config.threads = 2;
    config.show_progress = false;
    config.chunk_bytes = 8192;
    ReaderFactory readers{ReaderOptions{}};
    BatchReport report = run_batch(config, graph, jobs, readers);
    REQUIRE(report.jobs[2].failed);
    REQUIRE_FALSE(report.jobs[2].converged);
    REQUIRE(report.jobs[2].error == "edge function exploded");
    for (size_t j = 0; j < specs.size(); ++j) {
      REQUIRE_FALSE(report.jobs[j].failed);
      graphso::testing::check_against_reference(specs[j], *jobs[j], set);
    }
  }
}

TEST_CASE("chunk mode reads fewer bytes than partition mode where ids have locality, with the same results") {
  const EngineKind engine = GENERATE(from_range(kEngines));
  TempDir dir;
  // Long and narrow: a traversal's wavefront stays inside a window of ids, as on a road network.
  EdgeSet set = lattice(16, 1500);
  std::string graph_dir = graphso::testing::prepare_graph(dir, set, 4);
  std::vector<std::string> jobs = {"bfs:source=0", "sssp:source=0", "bfs:source=23999"};
  uint64_t mem = graphso::testing::budget_for(graph_dir, jobs, 0.25);
  auto partition = graphso::testing::run_batch_on(graph_dir, jobs, Sharing::Partition, mem, {.engine = engine});
  auto chunk = graphso::testing::run_batch_on(graph_dir, jobs, Sharing::Chunk, mem, {.engine = engine});
  check(partition, set);
  check(chunk, set);
  INFO("partition " << partition.report.io.bytes_read << " bytes, chunk " << chunk.report.io.bytes_read
                    << " bytes + " << chunk.report.chunk_stats.cache.bytes_hit << " from cache");
  REQUIRE(chunk.report.io.bytes_read < partition.report.io.bytes_read / 2);
  REQUIRE(chunk.report.counters.active_edges_loaded * 1.0 / chunk.report.counters.edges_loaded >
          2 * partition.report.counters.active_edges_loaded * 1.0 / partition.report.counters.edges_loaded);
  REQUIRE(chunk.report.chunk_stats.cache.hits > 0);
}

TEST_CASE("job files: jobs, names, arrivals; every error names the file, the job and the key") {
  TempDir dir;
  auto write = [&](const std::string& text) {
    std::ofstream(dir.file("batch.toml")) << text;
    return dir.file("batch.toml");
  };
  JobFile file = parse_job_file(write(
      "[[job]]\nalgo = \"bfs\"\nsource = 3\nname = \"b\"\n\n[[job]]\nalgo = \"pagerank-delta\"\ntolerance = 1e-7\n"
      "max_iterations = 50\narrive_after = 2\n\n[[job]]\nalgo = \"wcc\"\n"));
  REQUIRE(file.specs.size() == 3);
  REQUIRE(file.specs[0].name == "b");
  REQUIRE(file.specs[0].params.at("source") == "3");
  REQUIRE(std::stod(file.specs[1].params.at("tolerance")) == 1e-7);
  REQUIRE(file.arrive_after == std::vector<uint32_t>{0, 2, 0});
  name_jobs(file.specs);
  REQUIRE(file.specs[2].name == "2-wcc");

  auto error = [&](const std::string& text, uint64_t vertices = 10) {
    try {
      JobFile f = parse_job_file(write(text));
      name_jobs(f.specs);
      for (const auto& s : f.specs) make_job(s, vertices);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK_THAT(error("[[job]]\nalgo = \"dfs\"\n"), Catch::Contains("batch.toml:1: job 0: unknown algorithm 'dfs'"));
  CHECK_THAT(error("[[job]]\nalgo = \"bfs\"\n"), Catch::Contains("batch.toml:1: job 0: bfs needs a source"));
  CHECK_THAT(error("[[job]]\nalgo = \"sssp\"\nsource = 10\n"), Catch::Contains("job 0: source = 10 is out of range"));
  CHECK_THAT(error("[[job]]\nalgo = \"wcc\"\nname = \"x\"\n[[job]]\nalgo = \"wcc\"\nname = \"x\"\n"),
             Catch::Contains("job 1: duplicate job name 'x'"));
  CHECK_THAT(error("[[job]]\nalgo = \"bfs\"\nsource = \"zero\"\n"), Catch::Contains("batch.toml:3: job 0: source must be an integer"));
  CHECK_THAT(error("[[job]]\nalgo = \"bfs\"\nsrc = 1\n"), Catch::Contains("batch.toml:3: job 0: src: unknown key"));
  CHECK_THAT(error("[[job]]\nalgo = \"wcc\"\narrive_after = -1\n"), Catch::Contains("arrive_after = -1 must not be negative"));
  CHECK_THAT(error("[[job]]\nalgo = \"wcc\"\n[[job]\n"), Catch::Contains("batch.toml:3:"));
  CHECK_THAT(error("title = \"x\"\n"), Catch::Contains("unknown top-level key 'title'"));
  CHECK_THAT(error("\n"), Catch::Contains("no [[job]] tables"));
  CHECK_THAT(error("[[job]]\nname = \"x\"\n"), Catch::Contains("job 0: missing algo"));
}
