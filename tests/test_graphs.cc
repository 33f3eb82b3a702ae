#include "tests/test_graphs.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <cstdlib>
#include <filesystem>

#include "datasets/edge_list.h"
#include "datasets/rmat.h"
#include "base/error.h"
#include "base/file.h"
#include "engine/xstream/xstream_layout.h"
#include "engine/gridgraph/grid_graph.h"
#include "prep/graph_prep.h"
#include "jobs/bfs.h"
#include "jobs/job_groups.h"
#include "jobs/pagerank.h"
#include "jobs/sssp.h"
#include "jobs/wcc.h"

namespace graphso::testing {

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "graphso-test-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string repository_root() {
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  INFO("the test binary's path: " << (error ? error.message() : exe.string()));
  REQUIRE(!error);
  return exe.parent_path().parent_path().parent_path().string();
}

std::string datasets_dir() {
  const std::string dir = repository_root() + "/datasets/data";
  INFO("datasets directory " << dir);
  REQUIRE(std::filesystem::is_directory(dir));
  return dir;
}

EdgeSet load_dataset(const std::string& file_name) {
  EdgeSet set = read_edge_input(datasets_dir() + "/" + file_name, {});
  EdgeTransforms t;
  t.drop_self_loops = true;
  t.dedup = true;
  t.symmetrize = file_name.find("-u.") != std::string::npos;
  apply_transforms(set, t);
  return set;
}

EdgeSet rmat_edges(uint32_t scale, uint32_t edge_factor, bool weighted, uint64_t seed, const TempDir& dir) {
  RmatOptions o;
  o.scale = scale;
  o.edge_factor = edge_factor;
  o.weighted = weighted;
  o.max_weight = 50;
  o.seed = seed;
  std::string path = dir.file("rmat.bin");
  generate_rmat(o, path);
  return read_edge_input(path, {});
}

void write_edges(const std::string& path, const EdgeSet& set) {
  EdgeListWriter writer(path, set.weighted, set.real_weights);
  writer.append(set.edges);
  writer.finish(set.vertices);
}

uint64_t least_stored_bytes(uint64_t edges, bool weighted, bool packed) {
  if (!packed) return edges * edge_bytes(weighted);
  return edges + edges / 4 + (weighted ? edges : 0);
}

std::string prepare_graph(const TempDir& dir, const EdgeSet& set, uint32_t partitions, const std::string& name) {
  GridPrepOptions options;
  options.partitions = partitions;
  return prepare_graph(dir, set, options, name);
}

std::string prepare_graph(const TempDir& dir, const EdgeSet& set, const GridPrepOptions& options, const std::string& name) {
  std::string edges = dir.file(name + ".bin");
  write_edges(edges, set);
  std::string graph = dir.file(name);
  PrepOptions prep;
  prep.grid = options;
  prep.layouts = LayoutSet::Both;
  prep.tchunk_tables = false;  // each run builds the table for its own chunk size
  graphso::prepare_graph(edges, graph, prep);
  return graph;
}

namespace {

Batch run_batch_with(const GridGraph& graph, Engine* engine, const std::vector<std::string>& job_args, Sharing sharing,
                     uint64_t mem_bytes, ReaderFactory& readers, const RunOptions& options,
                     const StoreGraph* store = nullptr) {
  Batch batch;
  batch.order = graph.order();
  for (size_t i = 0; i < job_args.size(); ++i) batch.specs.push_back(parse_job_argument(job_args[i], i));
  name_jobs(batch.specs);
  for (const auto& spec : batch.specs) batch.jobs.push_back(make_job(spec, graph.meta().vertices, &graph.order(), options.async));
  BatchConfig config;
  config.engine = options.engine;
  config.sharing = sharing;
  config.mem_bytes = mem_bytes;
  config.threads = options.threads;
  config.show_progress = false;
  config.chunk_bytes = options.chunk_bytes;
  config.granularity = options.granularity;
  config.reentry.bound = options.reentry;
  config.late_join = options.late_join;
  config.pass_order = options.pass_order;
  config.cache_ratio = options.cache_ratio;
  config.cache_form = options.cache_form;
  config.grouping = options.grouping;
  config.light_rounds = options.light_rounds;
  config.arrive_after = options.arrive_after;
  if (store) store->give_versions(batch.specs, config);  // as `graphso run STORE` does
  if (config.engine == EngineKind::XStream) {
    config.update_mem_bytes = options.update_mem_bytes ? options.update_mem_bytes : graphso::testing::kUpdateBytes;
    config.update_overflow = options.update_overflow;
    config.mem_bytes += config.update_mem_bytes;
  }
  batch.report = engine ? run_batch(config, graph, *engine, batch.jobs, readers)
                        : run_batch(config, graph, batch.jobs, readers);
  return batch;
}

}  // namespace

Batch run_batch_on(const std::string& graph_dir, const std::vector<std::string>& job_args, Sharing sharing,
                   uint64_t mem_bytes, const RunOptions& options) {
  GridGraph graph = GridGraph::open(graph_dir);
  ReaderFactory own{ReaderOptions{}};
  return run_batch_with(graph, nullptr, job_args, sharing, mem_bytes, options.readers ? *options.readers : own, options);
}

Batch run_batch_on_store(const StoreGraph& store, const std::vector<std::string>& job_args, Sharing sharing,
                         uint64_t mem_bytes, ReaderFactory& readers, const RunOptions& options) {
  std::unique_ptr<Engine> engine = make_engine(options.engine, store.graph(), store.layout(), readers);
  return run_batch_with(store.graph(), engine.get(), job_args, sharing, mem_bytes, readers, options, &store);
}

uint64_t budget_for(const std::string& graph_dir, const std::vector<std::string>& job_args, double graph_fraction,
                    bool grouping, AsyncPolicy async) {
  GridGraph graph = GridGraph::open(graph_dir);
  uint64_t n = graph.meta().vertices;
  uint64_t state = n * 4 + graph.order().memory_bytes() + 2 * ((n + 63) / 64 * 8);
  std::vector<std::unique_ptr<Job>> jobs;
  for (size_t i = 0; i < job_args.size(); ++i) {
    JobSpec spec = parse_job_argument(job_args[i], i);
    spec.name.assign(1, 'x');  // not = "x": GCC 12 warns falsely (-Wrestrict) on that inlined assignment
    jobs.push_back(make_job(spec, n, nullptr, async));
  }
  // As the batch runs: grouped jobs hold their group's state (jobs/job_groups.h).
  for (const Job* job : plan_batch(jobs, {}, n, grouping).runnables) state += job->state_bytes(n);
  uint64_t graph_bytes = graph.meta().edges * graph.meta().edge_size();
  return state + std::max<uint64_t>(64 * 1024, static_cast<uint64_t>(graph_fraction * static_cast<double>(graph_bytes)));
}

std::pair<VertexId, VertexId> hub_and_leaf(const EdgeSet& set) {
  std::vector<uint32_t> degree(set.vertices, 0);
  for (const WeightedEdge& e : set.edges) ++degree[e.src];
  VertexId hub = 0, leaf = 0;
  for (VertexId v = 0; v < set.vertices; ++v) {
    if (degree[v] > degree[hub]) hub = v;
    if (degree[v] == 1 && degree[leaf] != 1) leaf = v;
  }
  return {hub, leaf};
}

std::vector<std::string> jobs_from_sources(const EdgeSet& set, const std::string& algo, size_t count, uint64_t salt) {
  std::vector<bool> has_edges(set.vertices, false);
  for (const WeightedEdge& e : set.edges) has_edges[e.src] = true;
  std::vector<VertexId> sources;
  for (VertexId v = 0; v < set.vertices; ++v)
    if (has_edges[v]) sources.push_back(v);
  std::vector<std::string> jobs;
  for (size_t k = 0; k < count; ++k)
    jobs.push_back(fmt::format("{}:source={}", algo, sources[(k * 7919 + salt * 104729) % sources.size()]));
  return jobs;
}

EdgeSet street_lattice(uint32_t width, uint32_t height) {
  EdgeSet set;
  set.vertices = width * height;
  set.weighted = true;
  for (uint32_t v = 0; v < set.vertices; ++v) {
    const Weight w = 1 + v % 5;
    if ((v + 1) % width) set.edges.push_back({v, v + 1, w}), set.edges.push_back({v + 1, v, w});
    if (v + width < set.vertices) set.edges.push_back({v, v + width, w}), set.edges.push_back({v + width, v, w});
  }
  return set;
}

std::vector<WeightedEdge> chunk_edges(const EngineLayout& layout, const ChunkInfo& c) {
  std::vector<std::byte> raw(c.bytes);
  File(layout.files[c.file], File::Mode::Read).pread_exact(raw, c.offset);
  if (layout.packed()) {
    std::vector<std::byte> records;
    PackedPageProblem problem;
    if (decode_packed_pages(raw, layout.weighted, records, &problem) != c.edges)
      throw Error("chunk_edges: the chunk does not decode to its edges: " + problem.what);
    raw = std::move(records);
  }
  std::vector<WeightedEdge> edges(c.edges, WeightedEdge{0, 0, 1});
  for (uint32_t e = 0; e < c.edges; ++e) std::memcpy(&edges[e], raw.data() + uint64_t{e} * layout.edge_size(), layout.edge_size());
  return edges;
}

uint32_t check_served_chunk(const EngineLayout& layout, const TChunkTable& table, const EdgeRun& run) {
  uint32_t id = UINT32_MAX;
  for (uint32_t m = 0; m < table.chunks().size(); ++m)
    if (table.chunk(m).partition == run.partition && table.chunk(m).first_edge == run.first_edge) id = m;
  REQUIRE(id != UINT32_MAX);
  const std::vector<WeightedEdge> want = chunk_edges(layout, table.chunk(id));
  REQUIRE(run.count == want.size());
  REQUIRE(std::memcmp(run.data, want.data(), want.size() * sizeof(WeightedEdge)) == 0);
  return id;
}

void flip_bit(const std::string& path, uint64_t byte, int bit) {
  File file(path, File::Mode::ReadWrite);
  std::byte b;
  file.pread_exact(std::span(&b, 1), byte);
  b ^= std::byte(1u << bit);
  file.pwrite_all(std::span<const std::byte>(&b, 1), byte);
}

std::string error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

void check_against_reference(const JobSpec& spec, const Job& job, const EdgeSet& set, const VertexOrder* order) {
  INFO("job " << spec.name << " (" << spec.origin << ")" << (order ? std::string(", vertex order ") + order->name() : ""));
  REQUIRE(job.converged());
  const VertexOrder natural = VertexOrder::natural(set.vertices);
  const ResultCheck check = check_result(spec, job, make_reference_graph(set.vertices, set.edges, set.real_weights), order ? *order : natural);
  INFO(check.detail);
  REQUIRE(check.ok);
}

}  // namespace graphso::testing
