// One batch of concurrent jobs over one prepared graph: engine + sharing mode + jobs.
//
// Engines (engine/engine.h): gridgraph (blocks of a 2-D grid) or xstream (edge-centric
// scatter/gather over streaming partitions). Sharing modes (middleware/sharing_mode.h), the same
// for either engine: independent, partition (GraphM-style) and chunk (the GraphSO middleware).
//
// Memory: --mem is the whole budget. The jobs' vertex state is allocated first; what remains is
// the graph-data budget. The xstream engine takes its update budget from it first (update_mem,
// default a quarter). The rest holds the engine's two read buffers, or in chunk mode the TChunk
// table, the chunk cache (cache_ratio of it) and two logical-partition buffers.
//
// Rounds: every running job advances one round at a time. A job with arrive_after = k joins at
// round k (staggered submission); its time is counted from its arrival. A job whose edge function
// throws is stopped and reported failed; the others go on. An I/O error stops the whole batch.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "integrations/light_rounds.h"
#include "engine/gridgraph/grid_graph.h"
#include "io/chunk_reader.h"
#include "io/device_profile.h"
#include "jobs/job.h"
#include "middleware/graphso.h"
#include "middleware/read_granularity.h"
#include "middleware/sharing_mode.h"

namespace graphso {

struct BatchConfig {
  EngineKind engine = EngineKind::GridGraph;
  Sharing sharing = Sharing::Independent;
  uint64_t mem_bytes = 256ull << 20;
  // When non-zero, the graph-data budget itself: mem_bytes becomes vertex state + this.
  uint64_t graph_mem_bytes = 0;
  // Results will be written after the run (run --out): their memory is checked against the budget.
  bool writes_results = false;
  int threads = 0;          // 0: every core
  uint64_t max_rounds = 0;  // 0: until every job finishes
  bool show_progress = true;
  uint64_t chunk_bytes = 0;   // chunk mode: 0 = kDefaultChunkBytes, kFormulaChunkBytes = Formula (1)
  double cache_ratio = 0.25;  // chunk mode: share of the graph budget for the chunk cache
  Granularity granularity = Granularity::Chunk;  // chunk mode: whole chunks, pages, or chosen per chunk
  CacheForm cache_form = CacheForm::Auto;        // chunk mode: a packed graph's chunks cached as read or decoded
  std::vector<uint32_t> arrive_after;  // per job; empty: every job starts at round 0
  uint64_t update_mem_bytes = 0;  // xstream: the update budget; 0 = a quarter of the graph-data budget
  std::string spill_dir;          // xstream: where its scratch directory goes; empty: the system's temp dir
  UpdateOverflow update_overflow = UpdateOverflow::Apply;  // xstream: updates past the budget (engine/engine.h)
  // When asynchronous jobs sweep a load again (middleware/reentry.h): at most `bound` sweeps (0: no
  // re-entry), and the cutoff on wasteful ones. `run` sets the bound by engine unless told
  // (default_reentry_bound: none for X-Stream); the struct's default is GridGraph's.
  ReentryPolicy reentry;
  // Chunk mode: whether chunks asynchronous jobs reach during a pass join it (GraphSO::Follow; off
  // by default: docs/middleware.md, "Late join", measures it), and the order a pass reads its chunks in.
  bool late_join = false;
  PassOrder pass_order = PassOrder::Destination;
  uint64_t extent_bytes = kExtentBytes;  // chunk mode: adjacent chunks planned together (middleware/scheduler.h)
  // Packed graphs: pages whose sources no job may push are not decoded (DecodeOptions).
  bool pass_over_pages = true;
  // Identical jobs computed once, and jobs one group computes together run as one
  // (jobs/job_groups.h); off, every job runs on its own, to measure what it saves.
  bool grouping = true;
  // Chunk mode, the graph resident: the graph's out-edges per vertex are built beside the cache
  // when the budget has room, and jobs that can do their rounds over them (light rounds,
  // Job::adjacency_round). On: as soon as such a job runs; Auto: once the rounds run with such a
  // job have taken as long as building them is expected to (kLightRoundsBuildRate); Off: every
  // round goes through the chunks.
  LightRounds light_rounds = LightRounds::Auto;
  // Called once the budgets are settled and the engine started, before the first round: what a
  // caller says about the batch then comes after every refusal could have been the only line.
  std::function<void()> on_start;
  // A layout holding several graphs (EngineLayout::partition_views: a store run whose jobs pin
  // versions): each graph's out-degrees, edges and version, and per job the graph it runs on
  // (empty: the first). Empty: the one graph given. Light rounds are off over several graphs (the
  // adjacency would be their union).
  struct GraphView {
    const std::vector<uint32_t>* out_degrees = nullptr;
    uint64_t edges = 0;
    uint64_t version = 0;
  };
  std::vector<GraphView> views;
  std::vector<uint32_t> job_views;
};

struct JobOutcome {
  std::string name;
  std::string algo;
  std::optional<uint64_t> version;  // a run over several graphs (BatchConfig::views): its graph's
  uint32_t runnable = 0;  // the entry of BatchReport::runnables that computed it
  uint32_t arrived_round = 0;
  bool async = false;  // began in asynchronous passes (a round is then one pass)
  uint32_t sync_from_round = 0;  // --async auto: the round from which it ran synchronously (0: never)
  uint64_t async_extra_edges = 0;  // edges pushed by sources outside a pass's frontier (Job::async_extra_edges)
  uint32_t rounds = 0;
  uint64_t reentries = 0;  // sweeps of a load still in memory it took part in (middleware/reentry.h)
  uint64_t reentry_loads_sat_out = 0;  // loads it did not sweep: its sweeps had been wasteful (same)
  uint64_t reentry_edges = 0;  // edges its sweeps' pushes carried (Job::reentry_edges)
  double seconds = 0;            // from the job's arrival until it finished
  double round_end_seconds = 0;  // time in this job's end-of-round work (edge work is shared)
  bool converged = false;
  bool failed = false;
  std::string error;
  std::string verification;  // `run --verify`: how the results compared with the reference
};

// What the engine ran: a job of the batch alone, the first of identical jobs, or a group
// (jobs/job_groups.h), with the time its work took.
struct RunnableOutcome {
  std::string name;
  std::string algo;
  std::string method;  // a group's (JobGroup::method), "identical jobs", or empty: one job alone
  uint32_t jobs = 0;   // the batch's jobs it computed
  uint32_t lanes = 0;  // a group's room
  uint32_t arrived_round = 0;
  uint32_t rounds = 0;
  double edge_seconds = 0;  // in its edge function on the engine's threads, summed over threads
  std::vector<std::pair<std::string, uint64_t>> counts;  // a group's own (JobGroup::counts)
  double round_end_seconds = 0;
  uint32_t light_rounds = 0;  // rounds it did over the graph in memory (Job::adjacency_round)
  bool failed = false;
};

struct RoundRecord {
  uint32_t round = 0;
  uint32_t active_jobs = 0;  // the batch's jobs computed in it
  uint64_t active_chunks = 0;
  uint64_t units_loaded = 0;     // blocks or block pieces; in chunk mode, chunks processed
  uint64_t chunks_loaded = 0;    // chunk mode: chunks read from the device
  uint64_t cache_hits = 0;
  uint64_t bytes_read = 0;
  uint64_t bytes_from_cache = 0;
  uint64_t edges_loaded = 0;
  uint64_t active_edges_loaded = 0;
  uint64_t update_bytes_written = 0;  // xstream: updates spilled to disk
  uint64_t reentries = 0;             // sweeps of loads still in memory (middleware/reentry.h)
  uint64_t reentry_edges = 0;         // edges those sweeps handed again
  uint64_t late_chunks = 0;           // chunk mode: chunks that joined the pass after it began
  uint32_t light_runnables = 0;       // runnables that did the round over the graph in memory
  double seconds = 0;
};

// One run of a batch that `run --trials` repeats.
struct TrialRecord {
  double wall_seconds = 0;
  uint64_t bytes_read = 0;
};

// A run on a store (`graphso run STORE`, integrations/store_graph.h): which store, at which version.
struct StoreRunInfo {
  std::string path;
  std::string mode;            // the store mode
  uint64_t version = 0;        // the log position the run sees the graph at (its jobs that pin none)
  std::vector<uint64_t> versions;  // every version its jobs see (Job::view indexes them)
  uint64_t checkpoint_seq = 0;
  uint64_t edges = 0;
  uint64_t pages_in_place = 0;   // read from the store file
  uint64_t pages_rewritten = 0;  // written to the scratch file (sections with logged deletions, chain modes)
  // Logged insertions into pages read in place, laid out apart in the scratch file: their edges and pages.
  uint64_t edges_inserted_apart = 0;
  uint64_t insertion_pages = 0;
  double open_seconds = 0;       // view, layout and out-degrees
  // The modes read through the view: reading every vertex's out-list (the layout's own work,
  // sorting and encoding pages, left out; summed over the threads that read), and what that read
  // touched.
  double traversal_seconds = 0;
  uint64_t lists_read = 0;   // chain blocks, gear lists or tree nodes
  uint64_t store_pages_read = 0;  // 4 KiB pages of the store's block region (distinct within each thread's range)
  // The store was rebuilt (it grew, or was compacted) while the run read it: the run's version came
  // from the file it opened, which the store's path no longer names.
  bool replaced = false;
};

struct BatchReport {
  std::string run_id;  // set by `run`: tells this run's report from another's
  // Set by `run`: each result file it published in --out, with the CRC-32C of its bytes, so a
  // reader can check that a report and the results beside it come from one run.
  std::string results_dir;
  std::vector<std::pair<std::string, uint32_t>> result_files;
  std::string engine;
  std::string mode;
  std::string graph_dir;
  std::optional<StoreRunInfo> store;  // set by `run` on a store
  std::string order;  // the graph's vertex order
  uint64_t vertices = 0;
  uint64_t edges = 0;
  uint32_t partitions = 0;
  std::string encoding;          // the edge files': raw or packed
  double bytes_per_edge = 0;     // the engine layout's bytes over its edges (what a full pass reads per edge)
  uint64_t decode_buffer_bytes = 0;  // packed: the source groups edges are decoded into, beside --mem
  bool pass_over_pages = false;      // packed: pages no job may push from were not decoded
  int threads = 0;
  std::string omp_wait_policy;  // as OpenMP read it at start ("": its default, spinning a while)
  std::string gomp_spincount;   // libgomp's spin turns before a thread sleeps, as it read them ("": its default)
  std::string io_backend;
  bool reads_verified = false;  // every read checked against the page checksums (--verify-reads)
  double wall_seconds = 0;
  double cpu_seconds = 0;  // the process's user and system time over wall_seconds: cores used = cpu / wall
  IoStats io;
  EngineCounters counters;
  uint64_t chunk_bytes = 0;
  std::string chunk_size_basis;     // how chunk_bytes was chosen (GraphSO::chunk_size_basis)
  uint64_t chunks = 0;
  uint64_t cache_bytes = 0;
  std::string cache_form;           // chunk mode: what the cache holds of a chunk (GraphSO::cache_form)
  uint64_t cache_used_bytes = 0;    // chunk mode, at the end: the bytes cached, and in how many chunks
  uint64_t cached_chunks = 0;
  bool graph_resident = false;      // chunk mode: the cache has room for every chunk (GraphSO::holds_whole_graph)
  LightRoundsReport light_rounds;   // chunk mode: the graph's out-edges per vertex beside the cache
  uint64_t tchunk_bytes = 0;        // in memory: records, resident source index, its read buffers
  uint64_t tchunk_index_bytes = 0;  // the whole source index (in the file)
  double init_seconds = 0;          // chunk mode: GraphSO::Init (the TChunk table built or loaded, the device measured)
  std::string granularity;
  std::string pass_order;      // chunk mode: the chunks' order within a pass (PassOrder)
  uint64_t extent_bytes = 0;   // chunk mode: the most an extent of adjacent chunks holds
  bool late_join = false;      // chunk mode: chunks reached during a pass joined it
  DeviceProfile device;        // measured at start-up for granularity page/auto
  GraphSOStats chunk_stats;    // chunk mode: the middleware's counts (all zero in the other modes)
  uint64_t mem_bytes = 0;
  uint64_t vertex_state_bytes = 0;
  uint64_t page_sums_bytes = 0;  // the graph files' page checksums, held to verify every read (0 with --verify-reads off)
  uint64_t graph_budget_bytes = 0;
  uint64_t buffer_bytes = 0;
  uint64_t update_budget_bytes = 0;  // xstream
  UpdateCounters updates;            // xstream: updates emitted, spilled and read back
  uint64_t peak_rss_bytes = 0;  // the process's high-water mark at the end of the run (graphso run takes it again once results are written)
  bool grouping = false;  // BatchConfig::grouping
  std::vector<JobOutcome> jobs;
  std::vector<RunnableOutcome> runnables;
  std::vector<RoundRecord> rounds;
  std::vector<TrialRecord> trials;  // `run --trials N`, N > 1: every trial, this report being the last
};

BatchReport run_batch(const BatchConfig& config, const GridGraph& graph,
                      std::vector<std::unique_ptr<Job>>& jobs, ReaderFactory& readers);
// The same on an engine of the caller's (config.engine is not used): any Engine runs in every
// sharing mode.
BatchReport run_batch(const BatchConfig& config, const GridGraph& graph, Engine& engine,
                      std::vector<std::unique_ptr<Job>>& jobs, ReaderFactory& readers);

std::string report_json(const BatchReport& report);

uint64_t peak_rss_bytes();

}  // namespace graphso
