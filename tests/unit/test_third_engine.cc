// A third engine needs three calls and nothing else: this one reads the X-Stream layout's
// partition files and applies each edge at once (as GridGraph does), and runs in every sharing
// mode, chunk mode included, with results equal to the reference. It is the README's worked
// example ("Adding an engine"); the engine is the 23 lines of ApplyEngine below.
#include <catch2/catch.hpp>

#include <optional>

#include "engine/edge_processor.h"
#include "engine/engine.h"
#include "engine/xstream/xstream_engine.h"
#include "engine/xstream/xstream_layout.h"
#include "jobs/job_spec.h"
#include "tests/test_graphs.h"

using namespace graphso;

namespace {

class ApplyEngine final : public Engine {
 public:
  explicit ApplyEngine(const GridGraph& graph) : files_(XStreamLayout::open(graph)), layout_(xstream_layout(graph, files_)) {
    layout_.name = "apply";  // its own TChunk tables
  }
  const EngineLayout& layout() const override { return layout_; }
  void start(std::span<Job* const> jobs, uint64_t, int threads) override {
    processor_.emplace(
        layout_, threads, [jobs](uint32_t j, const EdgeRun& run) { jobs[j]->process(run); },
        [](const EdgeRun& run) { return "partition " + std::to_string(run.partition); });
  }
  void process(std::span<const EdgeRun> runs) override { processor_->process(runs); }
  void finish_round(std::span<const uint32_t>) override {}
  std::vector<std::pair<uint32_t, std::string>> failures() const override { return processor_->failures(); }
  EngineCounters counters() const override { return processor_ ? processor_->counters() : EngineCounters{}; }

 private:
  XStreamLayout files_;
  EngineLayout layout_;
  std::optional<EdgeProcessor> processor_;
};

}  // namespace

TEST_CASE("a third engine (layout, process, finish_round) runs in every sharing mode and equals the reference") {
  graphso::testing::TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(11, 8, true, 21, dir);
  std::string graph_dir = graphso::testing::prepare_graph(dir, set, 4);
  GridGraph graph = GridGraph::open(graph_dir);
  std::vector<std::string> args = {"pagerank-delta:tolerance=0.01", "wcc:method=label", "sssp:source=3", "bfs:source=3",
                                   "ppr:source=3,9", "kcore", "cdlp:iterations=3:slots=2", "lcc:slots=2"};
  for (Sharing mode : {Sharing::Independent, Sharing::Partition, Sharing::Chunk}) {
    INFO("mode " << sharing_name(mode));
    std::vector<JobSpec> specs;
    for (size_t i = 0; i < args.size(); ++i) specs.push_back(parse_job_argument(args[i], i));
    name_jobs(specs);
    std::vector<std::unique_ptr<Job>> jobs;
    for (const JobSpec& spec : specs) jobs.push_back(make_job(spec, set.vertices));
    BatchConfig config;
    config.sharing = mode;
    config.graph_mem_bytes = set.edges.size() * 12 / 3;  // out of core: a third of the edges
    config.threads = 2;
    config.show_progress = false;
    config.chunk_bytes = 16384;
    ApplyEngine engine(graph);
    ReaderFactory readers{ReaderOptions{}};
    BatchReport report = run_batch(config, graph, engine, jobs, readers);
    REQUIRE(report.engine == "apply");
    REQUIRE(report.rounds.size() > 1);
    REQUIRE(report.io.bytes_read > 0);
    if (mode == Sharing::Chunk) REQUIRE(report.chunk_stats.chunks_loaded > 0);
    for (size_t j = 0; j < jobs.size(); ++j) graphso::testing::check_against_reference(specs[j], *jobs[j], set);
  }
}
