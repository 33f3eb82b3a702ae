// graphso run GRAPH_DIR|STORE --job ALGO[:KEY=VALUE]... [--engine gridgraph|xstream] --sharing MODE --mem SIZE --out DIR --report FILE
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <random>

#include "base/checksum.h"
#include "base/file.h"
#include "base/progress.h"
#include "base/staging.h"
#include "engine/gridgraph/grid_graph.h"
#include "engine/xstream/xstream_layout.h"
#include "integrations/batch_runner.h"
#include "integrations/result_check.h"
#include "integrations/store_graph.h"
#include "jobs/job_file.h"
#include "jobs/job_sources.h"
#include "jobs/job_spec.h"
#include "tools/graphso/layout_options.h"
#include "tools/graphso/options.h"

namespace graphso {
namespace {

constexpr const char* kResultsMarker = ".graphso-results";
// OpenMP creates that many threads; libgomp fails past some tens of thousands (or crashes).
constexpr int kMaxThreads = 1024;

// Tells this run's report from any other's (`run_id`).
std::string new_run_id() {
  std::random_device random;
  const uint64_t id = (uint64_t{random()} << 32 | random()) ^ static_cast<uint64_t>(::getpid()) ^
                      static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  return fmt::format("{:016x}", id);
}

// --out DIR is replaced whole at the end of a run, so it may only be missing, empty, or an earlier
// run's results (marked); anything else is the user's and is refused before the run starts.
void check_results_directory(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return;
  if (!S_ISDIR(st.st_mode)) fail("--out {}: exists and is not a directory", dir);
  std::error_code error;
  if (std::filesystem::is_empty(dir, error) || path_exists(dir + "/" + kResultsMarker)) return;
  fail("--out {}: exists and holds files that are not graphso results; choose a new or empty directory", dir);
}

void print_summary(const BatchReport& r, std::FILE* out) {
  std::fprintf(out, "engine %s, mode %s, %d threads, %s I/O: %.3f s, %s read in %llu requests, active-edge ratio %.3f\n",
              r.engine.c_str(), r.mode.c_str(), r.threads, r.io_backend.c_str(), r.wall_seconds,
              human_bytes(static_cast<double>(r.io.bytes_read)).c_str(),
              static_cast<unsigned long long>(r.io.requests),
              r.counters.edges_loaded ? static_cast<double>(r.counters.active_edges_loaded) /
                                            static_cast<double>(r.counters.edges_loaded)
                                      : 0.0);
  if (r.store)
    std::fprintf(out, "store %s (%s) at %s: %llu pages read in place, %llu rewritten to scratch, %llu edges logged since the checkpoint laid out apart; opened in %.3f s\n",
                 r.store->path.c_str(), r.store->mode.c_str(),
                 r.store->versions.size() > 1 ? fmt::format("versions {}", fmt::join(r.store->versions, ", ")).c_str()
                                              : fmt::format("version {}", r.store->version).c_str(),
                 static_cast<unsigned long long>(r.store->pages_in_place),
                 static_cast<unsigned long long>(r.store->pages_rewritten),
                 static_cast<unsigned long long>(r.store->edges_inserted_apart), r.store->open_seconds);
  if (r.store && r.store->replaced)
    std::fprintf(out, "store %s was rebuilt during the run (it grew or was compacted): the run read version %llu from the "
                 "file it opened; the store goes on from there\n",
                 r.store->path.c_str(), static_cast<unsigned long long>(r.store->version));
  if (r.store && r.store->lists_read)
    std::fprintf(out, "store traversal: %llu %s read in %.3f s, over %llu pages of the store\n",
                 static_cast<unsigned long long>(r.store->lists_read), r.store->mode == "gear" ? "lists" : "blocks",
                 r.store->traversal_seconds, static_cast<unsigned long long>(r.store->store_pages_read));
  if (r.mode == "chunk")
    std::fprintf(out, "chunks of %s: %llu loaded from the device, %llu cache hits (%s from cache), %llu logical partitions; "
                "cache: %llu of %llu chunks resident (%s, %s); TChunk table %s in memory, %s of source index read from the device\n",
                human_bytes(static_cast<double>(r.chunk_bytes)).c_str(), static_cast<unsigned long long>(r.chunk_stats.chunks_loaded),
                static_cast<unsigned long long>(r.chunk_stats.cache.hits), human_bytes(static_cast<double>(r.chunk_stats.cache.bytes_hit)).c_str(),
                static_cast<unsigned long long>(r.chunk_stats.logical_partitions), static_cast<unsigned long long>(r.cached_chunks),
                static_cast<unsigned long long>(r.chunks), human_bytes(static_cast<double>(r.cache_used_bytes)).c_str(), r.cache_form.c_str(),
                human_bytes(static_cast<double>(r.tchunk_bytes)).c_str(),
                human_bytes(static_cast<double>(r.chunk_stats.index_bytes_read)).c_str());
  if (r.mode == "chunk" && r.light_rounds.state == "built")
    std::fprintf(out, "light rounds: the graph's out-edges per vertex (%s) built from the cache in %.3f s before round %u\n",
                 human_bytes(static_cast<double>(r.light_rounds.bytes)).c_str(), r.light_rounds.seconds, r.light_rounds.round);
  else if (r.mode == "chunk" && r.graph_resident)
    std::fprintf(out, "light rounds: %s\n", r.light_rounds.state == "no room" ? "no room beside the cache in the graph-data budget" : r.light_rounds.state.c_str());
  if (r.mode == "chunk" && r.granularity != "chunk")
    std::fprintf(out, "granularity %s: %llu chunks read by pages (%s in %llu runs), %s read whole; device %.2f GB/s sequential, "
                "%.0f random 4 KiB reads/s (measured in %.2f s)\n",
                r.granularity.c_str(), static_cast<unsigned long long>(r.chunk_stats.chunks_by_pages),
                human_bytes(static_cast<double>(r.chunk_stats.page_bytes)).c_str(), static_cast<unsigned long long>(r.chunk_stats.page_requests),
                human_bytes(static_cast<double>(r.chunk_stats.whole_bytes)).c_str(), r.device.sequential_bytes_per_second / 1e9,
                r.device.random_reads_per_second, r.device.seconds_spent);
  if (r.engine == "xstream")
    std::fprintf(out, "updates: %llu records (%s), %s written to disk in %llu spills and %s read back; update budget %s\n",
                static_cast<unsigned long long>(r.updates.records), human_bytes(static_cast<double>(r.updates.bytes)).c_str(),
                human_bytes(static_cast<double>(r.updates.bytes_written)).c_str(), static_cast<unsigned long long>(r.updates.spills),
                human_bytes(static_cast<double>(r.updates.bytes_read)).c_str(),
                human_bytes(static_cast<double>(r.update_budget_bytes)).c_str());
  for (const JobOutcome& j : r.jobs)
    std::fprintf(out, "  %-24s %-15s %6u %-6s %9.3f s  %s\n", j.name.c_str(), j.algo.c_str(), j.rounds, j.rounds == 1 ? "round" : "rounds", j.seconds,
                j.failed ? "FAILED" : j.converged ? "converged" : "DID NOT CONVERGE");
  for (const JobOutcome& j : r.jobs)
    if (!j.verification.empty()) std::fprintf(out, "  verified %s: %s\n", j.name.c_str(), j.verification.c_str());
  if (!r.trials.empty()) {
    std::string seconds;
    double sum = 0;
    for (const TrialRecord& t : r.trials) {
      seconds += fmt::format(" {:.3f}", t.wall_seconds);
      sum += t.wall_seconds;
    }
    std::fprintf(out, "%zu trials (the last one above), seconds:%s; mean %.3f s\n", r.trials.size(), seconds.c_str(),
                 sum / static_cast<double>(r.trials.size()));
  }
}

}  // namespace

int cmd_run(const Args& args) {
  po::options_description options("run options");
  std::string dir, store_path, engine, update_mem, update_overflow, verify_reads, sharing, mem, graph_mem, job_file, chunk_size, out_dir, out_format, report_path, io, granularity, async, late_join, pass_order, pass_over_pages, extent_size, grouping, cache_form, light_rounds;
  std::vector<std::string> job_args;
  BatchConfig config;
  ReaderOptions reader_options;
  uint64_t seed = 1;
  uint32_t trials = 1;
  bool verify = false;
  options.add_options()
      ("graph", po::value(&dir), "prepared graph directory, or a store file (run on the store at its acknowledged "
                                "position, with either engine, while ingest may go on)")
      ("store", po::value(&store_path), "a store file to run on (the same as giving it in place of GRAPH_DIR)")
      ("job", po::value(&job_args)->composing(), "ALGO[:KEY=VALUE]... (repeatable); `graphso jobs` lists the algorithms")
      ("jobs", po::value(&job_file), "a TOML job file of [[job]] tables (see docs/jobs.md); - or a pipe: read to its end")
      ("engine", po::value(&engine)->default_value("gridgraph"),
       "gridgraph|xstream (on a prepared graph, xstream needs `prep --engine xstream|both`; a store runs on either)")
      ("sharing", po::value(&sharing)->default_value("chunk"),
       "chunk (GraphSO: only the chunks some job needs, one shared cache), partition (GraphM: whole partitions, "
       "shared) or independent (each job reads for itself, as a stock engine does)")
      ("update-mem", po::value(&update_mem), "xstream: update buffer budget, out of the graph-data budget (default: a quarter)")
      ("update-overflow", po::value(&update_overflow)->default_value("apply"),
       "xstream, apply|spill: updates past the update budget are applied at once by the thread that made them "
       "(the vertex state is in memory), or spilled to disk and read back at the round's end (X-Stream's own way)")
      ("spill-dir", po::value(&config.spill_dir),
       "xstream, or a store in either engine: where spilled updates and a store's rewritten pages go, in a scratch "
       "directory of the run's own, removed at its end (or by the next run, if it was killed); a file system that "
       "takes O_DIRECT (default: $TMPDIR, else /var/tmp)")
      ("mem", po::value(&mem)->default_value("256M"), "whole memory budget (vertex state + graph data)")
      ("graph-mem", po::value(&graph_mem), "graph-data budget instead: --mem becomes vertex state + this")
      ("threads", number(&config.threads)->default_value(0), "worker threads (0: all cores)")
      ("out", po::value(&out_dir), "directory for per-job results (replaced whole at the end; must be new, empty or earlier results)")
      ("out-format", po::value(&out_format)->default_value("text"),
       "text: 'vertex value' lines (unreached: -1, inf); graphalytics: the same lines with LDBC Graphalytics' unreached "
       "values (9223372036854775807, Infinity); bin: a raw array and its .bin.meta")
      ("report", po::value(&report_path), "write the JSON report here (- for standard output)")
      ("io", po::value(&io)->default_value("uring"), "I/O backend: uring|pmem|pread")
      ("buffered", po::bool_switch(), "read through the page cache (comparison only; default O_DIRECT)")
      ("verify-reads", po::value(&verify_reads)->default_value("on"),
       "on|off: check every page read against its CRC-32C before any job sees it (off: only to measure the cost)")
      ("async", po::value(&async)->default_value("auto"),
       "auto|on|off: jobs whose algorithm allows it (`graphso jobs`) run in asynchronous passes, a change travelling on "
       "in the same pass; auto: a delta job whose passes do not pay against synchronous rounds (docs/jobs.md, "
       "\"Falling back\") runs the rest in rounds; on: passes throughout; off: every job in synchronous rounds, for comparison (a job file's "
       "async = false holds one job back, async = true forces passes)")
      ("reentry", number(&config.reentry.bound)->default_value(kDefaultReentryBound),
       "most times a load still in memory is processed again for asynchronous jobs with work wholly inside it, "
       "before its buffer is reused (0: never; the default with --engine xstream, where a sweep's updates cost "
       "more than the passes it saves)")
      ("reentry-cutoff", number(&config.reentry.cutoff)->default_value(kDefaultReentryCutoff),
       "a job leaves a load's sweeps once one finds its changed sources dense but could push for fewer than 1 in "
       "this many (their edges lie in other runs), and sits out the next 1, 3, 7, 15 loads while a load's first "
       "sweep finds them spread over the load and pushes for as few (0: it leaves only when a sweep pushes nothing)")
      ("reentry-edge-cutoff", number(&config.reentry.edge_cutoff)->default_value(kDefaultReentryEdgeCutoff),
       "a sweep whose pushes carry fewer than 1 in this many of the edges it was handed is wasteful the same way "
       "(the job leaves the load's sweeps, and sits out the next loads after such a first sweep); 0: not judged "
       "by edges")
      ("grouping", po::value(&grouping)->default_value("on"),
       "on|off: identical jobs are computed once, and jobs of one algorithm that arrive together run as one group "
       "(BFS bit-parallel, 64 jobs a word; docs/jobs.md, \"Grouped jobs\"), each job's results the same as alone; "
       "off: every job runs on its own, to measure what grouping saves")
      ("pass-over-pages", po::value(&pass_over_pages)->default_value("on"),
       "packed graphs, on|off: pages of a load whose sources no job may push this pass are not decoded (off: every "
       "page is, to measure what it saves)")
      ("max-rounds", number(&config.max_rounds)->default_value(0), "stop after this many rounds (0: none)")
      ("seed", number(&seed)->default_value(1), "seed of the vertices source=random picks (same seed, same sources)")
      ("verify", po::bool_switch(&verify),
       "check every result against the in-memory reference (the graph must fit in half the free memory); "
       "a difference is an error and no results are written")
      ("trials", number(&trials)->default_value(1),
       "run the batch this many times (GAP's -n): trial k draws source=random with seed + k; results and report "
       "are the last trial's, the report and summary list every trial's time and bytes")
      ("chunk-size", po::value(&chunk_size), "chunk mode: chunk size, or `formula` for the paper's Formula (1) from the LLC size (default: the one prep chose for the graph from the device; `graphso inspect` shows it)")
      ("cache-ratio", number(&config.cache_ratio)->default_value(0.25), "chunk mode: share of the graph budget for the chunk cache")
      ("light-rounds", po::value(&light_rounds)->default_value("auto"),
       "chunk mode, auto|on|off: when the budget holds the whole graph and has room beside the cache, the graph's "
       "out-edges per vertex are built in memory and BFS and SSSP do their rounds over them (an asynchronous pass "
       "runs to the traversal's end); auto: once the rounds run without them have taken as long as building them "
       "would; on: as soon as such a job runs (the graph read whole first if no job has); off: every round goes "
       "through the chunks")
      ("cache-form", po::value(&cache_form)->default_value("auto"),
       "chunk mode, a packed graph: what the chunk cache keeps of a chunk, its pages as read (packed) or their "
       "decoded source groups (decoded: about twice the bytes, no decode per round); auto: decoded when every chunk "
       "decoded fits in the cache")
      ("granularity", po::value(&granularity)->default_value("chunk"),
       "chunk mode: read chunks whole (chunk), only the pages with active edges (page), or per chunk by a cost model measured at start (auto)")
      ("late-join", po::value(&late_join)->default_value("off"),
       "chunk mode, on|off: chunks that asynchronous jobs reach during a pass join that pass (fewer passes, but more "
       "bytes on road graphs: docs/middleware.md, \"Late join\"); off: they wait for the next pass")
      ("pass-order", po::value(&pass_order)->default_value("destination"),
       "chunk mode: the order a pass reads its chunks in: destination (groups of 2 x threads destination ranges, "
       "by priority within a group), priority (Formula 2) or source (chunk id)")
      ("extent-size",
       po::value(&extent_size)->default_value(std::to_string(kExtentBytes), human_bytes(static_cast<double>(kExtentBytes))),
       "chunk mode: chunks that follow each other in the file are taken together, up to this size and an eighth of "
       "a logical partition, placed by their highest priority, so reads stay large (0: chunk by chunk)");
  po::positional_options_description positional;
  positional.add("graph", 1);
  po::variables_map vm;
  if (!parse_options("run", "GRAPH_DIR|STORE --job ALGO[:KEY=VALUE]... [options]", args, options, positional, vm))
    return 0;
  std::vector<JobSpec> specs;
  command_line([&] {
    if (dir.empty() == store_path.empty())
      fail("run: give a prepared graph directory or a store (--store STORE, or the store in its place), one of them");
    if (!dir.empty() && StoreGraph::is_store(dir)) store_path = std::move(dir), dir.clear();
    if (job_args.empty() && job_file.empty()) fail("run: no jobs given (use --job, e.g. --job bfs:source=0, or --jobs FILE)");
    if (!job_args.empty() && !job_file.empty()) fail("run: give --job or --jobs, not both");
    if (out_format != "text" && out_format != "graphalytics" && out_format != "bin")
      fail("run: --out-format '{}' (expected text, graphalytics or bin)", out_format);
    if (config.threads < 0 || config.threads > kMaxThreads)
      fail("run: --threads {} is out of range (0 to {}; 0: every core)", config.threads, kMaxThreads);
    if (vm.count("out") && out_dir.empty()) fail("run: --out needs a directory");
    if (vm.count("report") && report_path.empty()) fail("run: --report needs a file (or - for standard output)");
    if (trials == 0) fail("run: --trials must be at least 1");
    if (async != "auto" && async != "on" && async != "off") fail("run: --async '{}' (expected auto, on or off)", async);

    config.engine = parse_engine(engine);
    config.sharing = parse_sharing(sharing);
    if (vm["reentry"].defaulted()) config.reentry.bound = default_reentry_bound(config.engine);
    if (!config.spill_dir.empty() && config.engine != EngineKind::XStream && store_path.empty())
      fail("run: --spill-dir applies to --engine xstream or a store only");
    if (vm.count("spill-dir") && config.spill_dir.empty()) fail("run: --spill-dir needs a directory");
    if (update_overflow != "apply" && update_overflow != "spill")
      fail("run: --update-overflow '{}' (expected apply or spill)", update_overflow);
    config.update_overflow = update_overflow == "spill" ? UpdateOverflow::Spill : UpdateOverflow::Apply;
    if (!vm["update-overflow"].defaulted() && config.engine != EngineKind::XStream)
      fail("run: --update-overflow applies to --engine xstream only");
    if (!update_mem.empty()) {
      if (config.engine != EngineKind::XStream) fail("run: --update-mem applies to --engine xstream only");
      config.update_mem_bytes = parse_size(update_mem, "--update-mem");
      if (config.update_mem_bytes == 0) fail("run: --update-mem must be positive");
    }
    config.mem_bytes = parse_size(mem, "--mem");
    if (!graph_mem.empty()) {
      if (!vm["mem"].defaulted()) fail("run: give --mem or --graph-mem, not both");
      config.graph_mem_bytes = parse_size(graph_mem, "--graph-mem");
      if (config.graph_mem_bytes == 0) fail("run: --graph-mem must be positive");
    }
    if (!chunk_size.empty()) {
      config.chunk_bytes = parse_chunk_size(chunk_size);
    }
    if (config.cache_ratio < 0 || config.cache_ratio >= 1) fail("run: --cache-ratio {} is outside [0, 1)", config.cache_ratio);
    config.granularity = parse_granularity(granularity);
    config.cache_form = parse_cache_form(cache_form);
    if (config.sharing != Sharing::Chunk && !vm["cache-form"].defaulted())
      fail("run: --cache-form applies to --sharing chunk only");
    if (config.sharing != Sharing::Chunk && !vm["granularity"].defaulted())
      fail("run: --granularity applies to --sharing chunk only");
    if (late_join != "on" && late_join != "off") fail("run: --late-join '{}' (expected on or off)", late_join);
    config.late_join = late_join == "on";
    if (pass_over_pages != "on" && pass_over_pages != "off")
      fail("run: --pass-over-pages '{}' (expected on or off)", pass_over_pages);
    config.pass_over_pages = pass_over_pages == "on";
    config.light_rounds = parse_light_rounds(light_rounds);
    if (grouping != "on" && grouping != "off") fail("run: --grouping '{}' (expected on or off)", grouping);
    config.grouping = grouping == "on";
    config.pass_order = parse_pass_order(pass_order);
    config.extent_bytes = parse_size(extent_size, "--extent-size");
    for (const char* chunk_only : {"late-join", "pass-order", "extent-size"})
      if (config.sharing != Sharing::Chunk && !vm[chunk_only].defaulted())
        fail("run: --{} applies to --sharing chunk only", chunk_only);
    reader_options.backend = parse_io_backend(io);
    reader_options.direct = !vm["buffered"].as<bool>();
    if (verify_reads != "on" && verify_reads != "off") fail("run: --verify-reads '{}' (expected on or off)", verify_reads);
    reader_options.verify_reads = verify_reads == "on";
    reader_options.verify_threads = config.threads;
    for (size_t i = 0; i < job_args.size(); ++i) specs.push_back(parse_job_argument(job_args[i], i));
  });

  // Everything the user gave is checked before any work starts. A store is opened at its version
  // (its view fixed, its sections laid out) as the graph is.
  ReaderFactory readers(reader_options);
  if (!job_file.empty()) {  // --job and --jobs are exclusive: specs is empty here
    JobFile parsed = parse_job_file(job_file);
    specs = std::move(parsed.specs);
    config.arrive_after = std::move(parsed.arrive_after);
  }
  std::optional<GridGraph> prepared;
  std::unique_ptr<StoreGraph> store;
  if (!store_path.empty()) {
    if (!path_exists(store_path)) fail("{}: no such store", store_path);
    if (!StoreGraph::is_store(store_path)) fail("{}: not a graphso store", store_path);
    // The versions the jobs pin, and the current one for those that pin none: one layout for all.
    std::vector<uint64_t> pinned;
    bool current = false;
    for (const JobSpec& spec : specs) {
      if (spec.version) pinned.push_back(*spec.version);
      else current = true;
    }
    store = StoreGraph::open(store_path, config.spill_dir, readers, config.threads, pinned, current);
    store->give_versions(specs, config);
  } else {
    for (const JobSpec& spec : specs)
      if (spec.version) fail("{}: version applies to a run on a store ({} is a prepared graph)", spec.where("version"), dir);
    prepared.emplace(GridGraph::open(dir));
    if (config.engine == EngineKind::XStream) XStreamLayout::open(*prepared);
  }
  const GridGraph& graph = store ? store->graph() : *prepared;
  if (job_file.empty()) command_line([&] { name_jobs(specs); });
  else name_jobs(specs);
  // A trial's jobs, fresh, with its random sources; what to say of them is said once everything
  // is checked, so an error stays the only line.
  std::vector<std::unique_ptr<Job>> jobs;
  std::vector<std::string> notes;
  std::vector<JobSpec> trial_specs;  // the jobs' specs as built (sources drawn): what --verify checks
  const AsyncPolicy async_policy = async == "off" ? AsyncPolicy::Off : async == "on" ? AsyncPolicy::On : AsyncPolicy::Auto;
  auto make_trial_jobs = [&](uint32_t trial) {
    trial_specs = specs;
    notes = pick_random_sources(trial_specs, graph.out_degrees(), graph.order(), seed + trial);
    jobs.clear();
    for (const JobSpec& spec : trial_specs) jobs.push_back(make_job(spec, graph.meta().vertices, &graph.order(), async_policy));
    for (const std::string& warning : sources_without_out_edges(trial_specs, graph.out_degrees(), graph.order()))
      notes.push_back("warning: " + warning);
    if (trials > 1)
      for (std::string& note : notes) note = fmt::format("trial {}: {}", trial + 1, note);
  };
  if (job_file.empty()) command_line([&] { make_trial_jobs(0); });  // a bad --job is a usage error, a bad job file an input error
  else make_trial_jobs(0);
  if (verify) {
    const uint64_t need = reference_memory_bytes(graph.meta().vertices, graph.meta().edges);
    const uint64_t free = available_memory_bytes();
    if (need > free / 2)
      fail("--verify: the in-memory reference needs {}, more than half the {} of memory free; verify on a smaller graph",
           human_bytes(static_cast<double>(need)), human_bytes(static_cast<double>(free)));
  }
  // Where results and the report go is checked (and their temporaries made, and locked against
  // another run writing there) before the run, so a bad path costs no run.
  std::optional<OutputLock> out_lock, report_lock;
  std::optional<StagedDirectory> results;
  if (!out_dir.empty()) {
    check_results_directory(normal_path(out_dir));
    out_lock.emplace(out_dir, "--out");
    results.emplace(out_dir);
  }
  const bool report_on_stdout = report_path == "-" || normal_path(report_path) == "/dev/stdout";
  std::optional<AtomicOutputFile> report_file;
  if (!report_path.empty()) {
    if (!report_on_stdout) {
      if (std::filesystem::is_directory(report_path)) fail("--report {}: is a directory; give a file name", report_path);
      report_lock.emplace(report_path, "--report");
    }
    report_file.emplace(report_path);
  }

  config.writes_results = results.has_value();
  BatchReport report;
  const std::string run_id = new_run_id();
  std::vector<TrialRecord> trial_records;
  config.on_start = [&] {  // every budget accepted: an error can no longer follow these lines
    for (const std::string& note : notes) std::fprintf(stderr, "graphso: %s\n", note.c_str());
  };
  for (uint32_t trial = 0; trial < trials; ++trial) {
    if (trial > 0) make_trial_jobs(trial);
    if (store) {
      std::unique_ptr<Engine> engine = make_engine(config.engine, graph, store->layout(), readers);
      report = run_batch(config, graph, *engine, jobs, readers);
      report.store = store->info();
      report.store->replaced = store->replaced();
    } else {
      report = run_batch(config, graph, jobs, readers);
    }
    report.run_id = run_id;
    trial_records.push_back({report.wall_seconds, report.io.bytes_read});
  }
  if (trials > 1) report.trials = trial_records;
  if (verify) {
    // After the run, so the reference's memory is not in the run's budget (it is in the peak).
    // On a store, each version's jobs against that version's edges as the store reads them, one
    // version at a time.
    std::vector<std::string> wrong;
    const uint32_t graphs = store ? static_cast<uint32_t>(store->versions().size()) : 1;
    for (uint32_t v = 0; v < graphs; ++v) {
      const ReferenceGraph reference = store ? store->reference(v) : load_reference_graph(graph);
      for (size_t j = 0; j < jobs.size(); ++j) {
        if (report.jobs[j].failed || !jobs[j]->converged() || (store && config.job_views[j] != v)) continue;
        const ResultCheck check = check_result(trial_specs[j], *jobs[j], reference, graph.order());
        report.jobs[j].verification = check.detail;
        if (!check.ok) wrong.push_back(fmt::format("job {} ({}): {}", jobs[j]->name(), jobs[j]->algo(), check.detail));
      }
    }
    if (!wrong.empty()) {
      for (const std::string& line : wrong) std::fprintf(stderr, "graphso: error: --verify: %s\n", line.c_str());
      return kExitError;  // nothing published: the staged results and report are dropped
    }
  }

  const OutFormat format = out_format == "bin"            ? OutFormat::Binary
                           : out_format == "graphalytics" ? OutFormat::Graphalytics
                                                          : OutFormat::Text;
  int status = 0;
  for (size_t j = 0; j < jobs.size(); ++j) {
    const auto& job = jobs[j];
    if (report.jobs[j].failed) {
      std::fprintf(stderr, "graphso: job %s (%s) failed: %s; no results written for it\n", job->name().c_str(),
                   job->algo().c_str(), report.jobs[j].error.c_str());
      status = kExitUnconverged;
      continue;
    }
    if (!job->converged()) {
      std::fprintf(stderr, "graphso: job %s (%s) did not converge after %u rounds; no results written for it\n",
                   job->name().c_str(), job->algo().c_str(), job->rounds());
      status = kExitUnconverged;
      continue;
    }
    if (!results) continue;
    const std::string name = job->name() + (format == OutFormat::Binary ? ".bin" : ".txt");
    AtomicOutputFile file(results->path() + "/" + name);
    uint32_t crc = 0;
    job->write_results(format, graph.order(), [&file, &crc](std::string_view piece) {
      const auto bytes = std::as_bytes(std::span<const char>(piece.data(), piece.size()));
      crc = crc32c_of(bytes, crc);
      file.append(bytes);
    });
    file.commit();
    report.result_files.emplace_back(name, crc);
    if (format == OutFormat::Binary) {  // a raw array says nothing of itself: its sidecar does
      AtomicOutputFile sidecar(results->path() + "/" + job->name() + ".bin.meta");
      const Job::BinaryValues values = job->binary_values();
      sidecar.append(fmt::format("job: {}\nalgo: {}\nvertices: {}\nvalue_type: {}\nbyte_order: little\n"
                                 "index: original vertex id (value i is vertex i's)\n{}",
                                 job->name(), job->algo(), graph.meta().vertices, values.type,
                                 values.unreached ? fmt::format("unreached: {}\n", values.unreached) : ""));
      sidecar.commit();
    }
  }
  // The peak is taken once every result is written: writing them is part of the run's memory.
  report.peak_rss_bytes = peak_rss_bytes();
  // Published in this order: the results directory (swapped in whole), then the report, which
  // lists every result file with its checksum: a report matches the results beside it only if
  // both come from one run (a run killed between the two leaves new results and an old report).
  if (results) {
    AtomicOutputFile marker(results->path() + "/" + kResultsMarker);
    marker.append(fmt::format("graphso results\nformat: {}\n", out_format));
    marker.commit();
    results->publish();
    report.results_dir = normal_path(out_dir);
  }
  const std::string json = report_json(report);
  if (report_file) report_file->append(json);
  if (report_file) report_file->commit();
  // With the report on standard output (--report -), the summary goes to stderr so stdout is JSON.
  print_summary(report, report_on_stdout ? stderr : stdout);
  return status;
}

}  // namespace graphso
