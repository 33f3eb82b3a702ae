// Test fixtures: temporary directories, the real datasets, generated graphs, prepared graph
// directories, batch runs through the library, and the check of a job against the reference.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "datasets/edge_input.h"
#include "prep/grid_prep.h"
#include "integrations/batch_runner.h"
#include "integrations/result_check.h"
#include "integrations/store_graph.h"
#include "jobs/job_spec.h"
#include "middleware/tchunk.h"
#include "reference/reference.h"

namespace graphso::testing {

// The X-Stream update budget the tests give (well above the engine's least for their jobs).
inline constexpr uint64_t kUpdateBytes = 256 << 10;

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// The checkout the running test binary was built in (BUILD/tests/<binary> -> the directory above
// BUILD), so a copy of a binary placed in another clone reads that clone's files.
std::string repository_root();

// The real graphs shipped in the repository (datasets/data); fails the test when it is missing.
std::string datasets_dir();

// A real graph under the datasets' reference conventions: self-loops and duplicate arcs
// dropped; undirected (-u) files symmetrised.
EdgeSet load_dataset(const std::string& file_name);

EdgeSet rmat_edges(uint32_t scale, uint32_t edge_factor, bool weighted, uint64_t seed, const TempDir& dir);

void write_edges(const std::string& path, const EdgeSet& set);
// Writes the edges and prepares a graph directory in dir, in both engines' layouts; returns its path.
// The fewest bytes `edges` edges take as stored: raw records, or packed pages (a destination takes
// at least a byte and two control bits, a weight a byte).
uint64_t least_stored_bytes(uint64_t edges, bool weighted, bool packed);

std::string prepare_graph(const TempDir& dir, const EdgeSet& set, uint32_t partitions = 0,
                          const std::string& name = "graph");
std::string prepare_graph(const TempDir& dir, const EdgeSet& set, const GridPrepOptions& options, const std::string& name);

struct Batch {
  std::vector<JobSpec> specs;
  std::vector<std::unique_ptr<Job>> jobs;
  BatchReport report;
  VertexOrder order;  // the graph's, for checking results in original ids
};

struct RunOptions {
  ReaderFactory* readers = nullptr;  // null: the default readers
  uint64_t chunk_bytes = 16384;      // chunk mode: small, so small graphs have many chunks
  Granularity granularity = Granularity::Chunk;
  EngineKind engine = EngineKind::GridGraph;
  // xstream: the update budget, given on top of mem_bytes so a test's budget means the same in
  // both engines. The default is the smallest accepted, so most runs spill updates to disk.
  uint64_t update_mem_bytes = 0;
  UpdateOverflow update_overflow = UpdateOverflow::Apply;  // `run --update-overflow`
  AsyncPolicy async = AsyncPolicy::Auto;  // `run --async`
  uint32_t reentry = kDefaultReentryBound;  // `run --reentry`
  bool late_join = false;                    // `run --late-join`
  PassOrder pass_order = PassOrder::Destination;  // `run --pass-order`
  int threads = 2;
  double cache_ratio = 0.25;                 // `run --cache-ratio`
  CacheForm cache_form = CacheForm::Auto;    // `run --cache-form`
  bool grouping = true;                      // `run --grouping`
  LightRounds light_rounds = LightRounds::On;  // `run --light-rounds` (on: built before the first round)
  std::vector<uint32_t> arrive_after = {};   // per job (a job file's arrive_after); empty: all at once
};

// The engines every engine-independent test runs against (Catch2: GENERATE(from_range(...))).
// A test's asynchronous switch as a run's policy: passes throughout, or none.
inline AsyncPolicy policy(bool async) { return async ? AsyncPolicy::On : AsyncPolicy::Off; }

inline const std::vector<EngineKind> kEngines = {EngineKind::GridGraph, EngineKind::XStream};

// Runs `--job` style arguments through the library (as `graphso run` does).
Batch run_batch_on(const std::string& graph_dir, const std::vector<std::string>& job_args, Sharing sharing,
                   uint64_t mem_bytes, const RunOptions& options = {});

// The same on a store opened for a run (`graphso run STORE`), with options.engine over its
// layout; the store's own page checksums verify every read.
Batch run_batch_on_store(const StoreGraph& store, const std::vector<std::string>& job_args, Sharing sharing,
                         uint64_t mem_bytes, ReaderFactory& readers, const RunOptions& options = {});

// The vertex state plus graph-data budget for a run whose graph data must be re-read every round:
// graph_fraction of the graph's edge bytes beyond the vertex state (of the jobs as they run:
// grouped, or, grouping off, each on its own; under the run's asynchronous policy).
uint64_t budget_for(const std::string& graph_dir, const std::vector<std::string>& job_args, double graph_fraction,
                    bool grouping = true, AsyncPolicy async = AsyncPolicy::Auto);

// A lattice of two-way streets, width x height, ids row by row, weights 1-5.
EdgeSet street_lattice(uint32_t width, uint32_t height);

// The highest-degree vertex (a hub: a traversal from it grows fast) and a vertex of degree one.
std::pair<VertexId, VertexId> hub_and_leaf(const EdgeSet& set);

// `count` jobs of `algo` (`algo:source=V`) from sources spread over the vertices with out-edges,
// a different spread for each salt.
std::vector<std::string> jobs_from_sources(const EdgeSet& set, const std::string& algo, size_t count, uint64_t salt);

// The edges of a TChunk chunk, read straight from the graph file (weight 1 when unweighted).
std::vector<WeightedEdge> chunk_edges(const EngineLayout& layout, const ChunkInfo& chunk);

// REQUIREs that a run GraphSO served is one whole chunk of the table, holding that chunk's edges
// as the graph file has them (raw records); returns the chunk's id.
uint32_t check_served_chunk(const EngineLayout& layout, const TChunkTable& table, const EdgeRun& run);

// Flips one bit of a file in place (a second call puts it back).
void flip_bit(const std::string& path, uint64_t byte, int bit);

// The message of the graphso::Error the action throws, or "(no error)".
std::string error_of(const std::function<void()>& action);

// REQUIREs that the job's result equals the reference (integrations/result_check.h: BFS, WCC,
// SSSP and k-core exactly; PageRank within floating-point noise; delta-PageRank and PPR within
// their stated L1 bound), taken as `run --out` writes them, in original ids (order: the graph's
// vertex order; null: natural).
void check_against_reference(const JobSpec& spec, const Job& job, const EdgeSet& set,
                             const VertexOrder* order = nullptr);

}  // namespace graphso::testing
