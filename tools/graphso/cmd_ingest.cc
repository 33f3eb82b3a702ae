// graphso ingest STORE --input EDGES.bin|-|PIPE [--threads N] [--batch K] [--store-mode MODE]
// Appends an edge list to the evolving-graph store (created on first use), durably, batch by
// batch; or takes an edge stream (standard input, a named pipe) as it comes, in group commits,
// acknowledging each. Resumable: the store records the input (or stream) and how many of its
// operations are acknowledged.
#include <signal.h>
#include <sys/stat.h>

#include <bit>
#include <chrono>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <memory>
#include <optional>

#include "base/enum_names.h"
#include "base/json_writer.h"
#include "base/percentile.h"
#include "base/progress.h"
#include "datasets/edge_list.h"
#include "store/graph_store.h"
#include "store/input_resume.h"
#include "store/vertex_buffers.h"
#include "tools/graphso/group_commit.h"
#include "tools/graphso/options.h"
#include "tools/graphso/power_cut_options.h"

namespace graphso {
namespace {

using namespace store;

// Bytes this process has caused to be written to storage (msync writeback included).
uint64_t device_write_bytes() {
  std::ifstream io("/proc/self/io");
  std::string key;
  uint64_t value = 0;
  while (io >> key >> value)
    if (key == "write_bytes:") return value;
  return 0;
}

// Appends the running total of acknowledged operations, one line per batch or group (what a
// client, and the crash tests, know is durable).
class AckLog {
 public:
  explicit AckLog(const std::string& path) {
    if (path.empty()) return;
    file_.reset(std::fopen(path.c_str(), "a"));
    if (!file_) fail("{}: cannot open the acknowledgement log", path);
  }
  void acknowledged(uint64_t edges) {
    if (!file_) return;
    std::fprintf(file_.get(), "%llu\n", static_cast<unsigned long long>(edges));
    std::fflush(file_.get());
  }

 private:
  struct Close {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Close> file_;
};

// What the options say about the store, for creating or opening it.
struct StoreSettings {
  std::string path;
  std::optional<StoreMode> mode;
  uint64_t log_slots = 0;
  bool log_slots_given = false;
  std::optional<uint64_t> block_units;
  uint64_t vertices = 0;      // --vertices
  uint64_t expect_edges = 0;  // --expect-edges
  StoreOptions options;
};

// A standard input, named pipe, character device or socket: read as a stream, not as a file.
bool is_stream(const std::string& input) {
  if (input == "-") return true;
  struct stat st {};
  if (::stat(input.c_str(), &st) != 0) return false;  // the file reader says what is wrong
  return S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISSOCK(st.st_mode);
}

// Null when the store exists (also when another process created it after the caller looked).
std::unique_ptr<GraphStore> create_store(const StoreSettings& settings, uint64_t capacity, uint64_t edges,
                                         bool weighted, bool real_weights) {
  const StoreMode mode = settings.mode.value_or(kDefaultStoreMode);
  StoreGeometry geometry = default_geometry(capacity, edges, settings.log_slots, weighted, mode);
  geometry.real_weights = real_weights;  // binary32 in the weight words, said in the superblock
  if (settings.block_units)
    geometry.block_units = store_mode(mode).paged ? align_down(*settings.block_units, kUnitsPerPage) : *settings.block_units;
  auto store = GraphStore::create_if_missing(settings.path, geometry, mode, settings.options);
  if (store)
    std::printf("%s: created (%s, %s, %llu vertices, %llu log slots, %s for blocks)\n", settings.path.c_str(),
                store_mode_name(mode), real_weights ? "real weights" : weighted ? "weighted" : "unweighted",
                static_cast<unsigned long long>(geometry.vertices), static_cast<unsigned long long>(geometry.log_slots),
                human_bytes(static_cast<double>(geometry.block_units * kBlockUnitBytes)).c_str());
  return store;
}

// Opens the existing store. The sizing options say where a new store starts; an existing one grows
// as it needs to. Only what growth keeps cannot change.
std::unique_ptr<GraphStore> open_existing(const StoreSettings& settings) {
  auto store = GraphStore::open(settings.path, settings.options);
  const StoreStatus s = store->status();
  if (settings.mode && *settings.mode != s.header.mode)
    fail("ingest: {} is a {} store, not {}", settings.path, store_mode_name(s.header.mode), store_mode_name(*settings.mode));
  if (store_mode(s.header.mode).logs && settings.log_slots_given && settings.log_slots != s.header.geometry.log_slots)
    fail("ingest: --log-slots is fixed when a store is created; {} has {}", settings.path, s.header.geometry.log_slots);
  return store;
}

void print_opened(const std::string& path, const StoreStatus& s) {
  std::printf("%s: opened at log position %llu (checkpoint %llu at %llu, %llu records replayed)\n", path.c_str(),
              static_cast<unsigned long long>(s.head), static_cast<unsigned long long>(s.checkpoint_seq),
              static_cast<unsigned long long>(s.flushed), static_cast<unsigned long long>(s.replayed));
  if (s.applying > s.head)
    std::printf("%s: operations %llu..%llu were partly applied when an ingest stopped; that ingest, run again, replays them\n",
                path.c_str(), static_cast<unsigned long long>(s.head), static_cast<unsigned long long>(s.applying - 1));
  if (s.repaired_input_slot >= 0)
    std::printf("%s: input record slot %d was damaged or stale; rewritten from its intact copy\n", path.c_str(),
                s.repaired_input_slot);
}

// Real and integer weights are different numbers in the same words: never mixed in one store, and
// a store of real weights has no weight 1 to give an unweighted edge.
void check_weights(const std::string& input, bool weighted, bool real, const GraphStore& gs) {
  const bool weighted_store = gs.header().geometry.weighted;
  const bool real_store = gs.header().geometry.real_weights;
  if (weighted && weighted_store && real != real_store)
    fail("ingest: {} has {} weights and {} keeps {} ones", input, real ? "real" : "integer", gs.path(),
         real_store ? "real" : "integer");
  if (!weighted && real_store)
    fail("ingest: {} is unweighted and {} keeps real weights: give its edges weights (convert --real-weights)", input,
         gs.path());
  if (weighted && !weighted_store)
    std::printf("%s: weighted input into %s, which was created from unweighted input and keeps no weights: "
                "the weights are dropped\n", input.c_str(), gs.path().c_str());
  if (!weighted && weighted_store)
    std::printf("%s: unweighted input into the weighted store %s: its edges get weight 1\n", input.c_str(),
                gs.path().c_str());
}

// Where an ingest began, for its summary.
struct IngestStart {
  uint64_t first = 0;  // operations of the input acknowledged before this run
  uint64_t write_bytes = 0;
  PersistStats persisted;
  std::chrono::steady_clock::time_point time;
};

IngestStart starting(const GraphStore& gs, uint64_t first) {
  return IngestStart{first, device_write_bytes(), gs.status().persisted, std::chrono::steady_clock::now()};
}

// Checkpoints and closes the store, prints the summary and writes the report (`extra` adds fields).
void finish(GraphStore& gs, const IngestStart& begun, uint64_t done, uint32_t threads, uint64_t batch,
            const std::string& report_path, const std::function<void(JsonWriter&)>& extra) {
  const auto flush_start = std::chrono::steady_clock::now();
  gs.flush_to_blocks();  // everything into adjacency blocks: the log is free again
  gs.close();
  const auto end = std::chrono::steady_clock::now();
  const double seconds = std::chrono::duration<double>(end - begun.time).count();
  const double flush_seconds = std::chrono::duration<double>(end - flush_start).count();
  const StoreStatus s = gs.status();
  const uint64_t ingested = done - begun.first;
  PersistStats p = s.persisted;
  p.calls -= begun.persisted.calls;
  p.bytes -= begun.persisted.bytes;
  p.line_bytes -= begun.persisted.line_bytes;
  const uint64_t device_bytes = device_write_bytes() - begun.write_bytes;
  const double per_edge = ingested ? static_cast<double>(p.line_bytes) / static_cast<double>(ingested) : 0.0;
  std::printf("ingest: %llu edges in %.3f s: %.0f edges/s (%s, %u threads, batch %llu; final flush %.3f s)\n",
              static_cast<unsigned long long>(ingested), seconds, ingested / std::max(seconds, 1e-9),
              store_mode_name(s.header.mode), threads, static_cast<unsigned long long>(batch), flush_seconds);
  std::printf("ingest: persisted %s in %llu persists (%.1f bytes/edge in 256-byte lines); device writes %s\n",
              human_bytes(static_cast<double>(p.line_bytes)).c_str(), static_cast<unsigned long long>(p.calls), per_edge,
              human_bytes(static_cast<double>(device_bytes)).c_str());
  if (s.growths > 0)
    std::printf("ingest: the store grew %llu times (now %llu vertices, %s file), copying %llu edges in %.3f s\n",
                static_cast<unsigned long long>(s.growths), static_cast<unsigned long long>(s.header.geometry.vertices),
                human_bytes(static_cast<double>(StoreLayout(s.header.geometry).file_bytes)).c_str(),
                static_cast<unsigned long long>(s.growth_edges), s.growth_seconds);
  for (const std::string& note : s.notes) std::printf("ingest: %s\n", note.c_str());
  if (report_path.empty()) return;
  JsonWriter json;
  json.begin_object()
      .field("store", gs.path())
      .field("mode", store_mode_name(s.header.mode))
      .field("weighted", s.header.geometry.weighted)
      .field("real_weights", s.header.geometry.real_weights)
      .field("threads", threads)
      .field("batch", batch)
      .field("edges", ingested)
      .field("resumed_from", begun.first)
      .field("seconds", seconds)
      .field("edges_per_second", ingested / std::max(seconds, 1e-9))
      .field("final_flush_seconds", flush_seconds)
      .field("persists", p.calls)
      .field("persisted_bytes", p.bytes)
      .field("persisted_line_bytes", p.line_bytes)
      .field("line_bytes_per_edge", per_edge)
      .field("device_write_bytes", device_bytes)
      .field("checkpoints", s.checkpoints)
      .field("growths", s.growths)
      .field("growth_edges", s.growth_edges)
      .field("growth_seconds", s.growth_seconds)
      .field("vertices", s.header.geometry.vertices)
      .field("file_bytes", StoreLayout(s.header.geometry).file_bytes)
      .field("log_head", s.head)
      .field("block_bytes_used", (s.high_water - 1) * store_mode(s.header.mode).unit_bytes());
  for (const ModeCounter& c : s.counters) json.field(c.name, c.value);
  extra(json);
  json.end_object();
  AtomicOutputFile out(report_path);
  out.append(json.text() + "\n");
  out.commit();
}

struct IngestRequest {
  StoreSettings store;
  std::string input;
  uint64_t batch = 0;
  bool deletes = false;
  std::optional<uint64_t> told;  // --acknowledged
  std::string ack_log;
  std::string report;
};

// An edge list file, batch by batch; the next batch is read while the store takes this one.
int ingest_file(const IngestRequest& request) {
  const StoreSettings& settings = request.store;
  const std::string& input_path = request.input;
  EdgeListReader reader(input_path);
  const EdgeListInfo& info = reader.info();
  std::unique_ptr<GraphStore> graph_store;
  if (!path_exists(settings.path)) {
    if (request.deletes) fail("ingest: {}: no such store to delete from", settings.path);
    const uint64_t capacity = std::max(settings.vertices, info.vertices);
    if (capacity == 0) fail("ingest: {} has no vertices; give --vertices", input_path);
    check_input_ids(reader, kMaxStoreVertices, input_path);
    // A store keeps weights when its first input has them.
    graph_store = create_store(settings, capacity, std::max(settings.expect_edges, info.edges), info.weighted,
                               info.real_weights);
  }
  if (!graph_store) {  // it existed, or another process created it since we looked
    graph_store = open_existing(settings);
    const StoreStatus s = graph_store->status();
    // Ids past the store grow it; a deletion naming one cannot name an edge it holds. Checked
    // before anything changes, growth included.
    check_input_ids(reader, request.deletes ? s.header.geometry.vertices : kMaxStoreVertices, input_path);
    // The store holds at least the vertices its inputs declare: a larger input grows it to that
    // count now (ids past it would grow it to a power of two as they come).
    const uint64_t declared = std::max(settings.vertices, info.vertices);
    if (!request.deletes && declared > s.header.geometry.vertices && declared <= kMaxStoreVertices) {
      graph_store->rebuild(declared);
      std::printf("%s: grew to the %llu vertices of %s\n", settings.path.c_str(), static_cast<unsigned long long>(declared),
                  settings.vertices > info.vertices ? "--vertices" : input_path.c_str());
    }
    print_opened(settings.path, s);
  }
  GraphStore& gs = *graph_store;
  if (!request.deletes) check_weights(input_path, info.weighted, info.real_weights, gs);

  // Resume after the acknowledged edges of the same input, or start it at the log head.
  InputProgress id = identify_input(input_path, info, request.deletes);
  uint64_t done = resume_input(gs, id, request.told);
  if (done == id.edges && done > 0)
    std::printf("%s: %s is already ingested (%llu edges)\n", settings.path.c_str(), input_path.c_str(),
                static_cast<unsigned long long>(done));
  else if (done > 0)
    std::printf("%s: resuming %s after %llu of %llu edges\n", settings.path.c_str(), input_path.c_str(),
                static_cast<unsigned long long>(done), static_cast<unsigned long long>(id.edges));

  std::fflush(stdout);  // where it starts is known even if the process dies mid-ingest
  AckLog acks(request.ack_log);
  const IngestStart begun = starting(gs, done);
  Progress progress("ingest", id.edges, "edges");
  // With weights only where the store keeps them (a deletion needs none: it removes the earliest
  // occurrence whatever its weight).
  auto ingest_all = [&]<typename EdgeRecord>(std::vector<EdgeRecord> edges) {
    std::vector<EdgeRecord> next;
    reader.seek(done);
    bool more = reader.next_batch(edges, request.batch);
    while (more) {
      std::future<bool> reading = std::async(std::launch::async, [&] { return reader.next_batch(next, request.batch); });
      if (request.deletes) gs.del_edges(edges);
      else gs.add_edges(edges);
      more = reading.get();
      done += edges.size();
      acks.acknowledged(done);
      progress.update(done);
      std::swap(edges, next);
    }
  };
  if (gs.header().geometry.weighted && info.weighted && !request.deletes) ingest_all(std::vector<WeightedEdge>{});
  else ingest_all(std::vector<Edge>{});
  progress.finish();
  finish(gs, begun, done, settings.options.threads, request.batch, request.report, [](JsonWriter&) {});
  return 0;
}

struct StreamRequest {
  std::string name;  // the stream's identity in the store (--stream)
  std::chrono::nanoseconds commit_every{};
  bool from_start = false;
  bool real_weights = false;
};

// A stream: group commits, each acknowledged on standard output ("acknowledged N") and in the
// acknowledgement log. "acknowledged N" is printed first, before anything is read: the stream's
// operations already in the store (a client continues after them). A client that stops reading
// the acknowledgements (closes the pipe) does not stop the ingest: it is told once on standard
// error, the stream goes on to its end and the store closes as after any ingest (the store, and
// --ack-log, still say what is durable).
int ingest_stream(const IngestRequest& request, const StreamRequest& stream) {
  const StoreSettings& settings = request.store;
  const std::string shown = request.input == "-" ? "stdin" : request.input;
  if (request.deletes) fail("ingest: --delete is for edge list files; a stream marks its deletions ('- SRC DST')");
  const InputProgress id = identify_stream(stream.name);
  EdgeStreamOptions parsing{shown, stream.real_weights, kMaxStoreVertices};
  AckLog acks(request.ack_log);
  // A write to a closed pipe is then an error return (EPIPE), not a signal that kills the process.
  ::signal(SIGPIPE, SIG_IGN);
  bool printing = true;
  auto acknowledge = [&](uint64_t n) {
    if (printing) {
      std::printf("acknowledged %llu\n", static_cast<unsigned long long>(n));
      if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        printing = false;
        std::fprintf(stderr, "graphso: ingest: standard output is closed (%s): acknowledgements are no longer printed%s; "
                             "the stream goes on\n", errno_text(errno).c_str(),
                     request.ack_log.empty() ? "" : " (--ack-log has them)");
      }
    }
    acks.acknowledged(n);
  };
  std::unique_ptr<GraphStore> graph_store;
  std::unique_ptr<StreamInput> input;
  uint64_t done = 0;
  if (path_exists(settings.path)) {
    graph_store = open_existing(settings);
    print_opened(settings.path, graph_store->status());
    if (stream.real_weights && !graph_store->header().geometry.real_weights)
      fail("ingest: --real-weights: {} keeps {}", settings.path,
           graph_store->header().geometry.weighted ? "integer weights" : "no weights");
    parsing.real_text_weights = graph_store->header().geometry.real_weights;
    done = resume_input(*graph_store, id, request.told);
    if (done > 0)
      std::printf("%s: stream %s: %llu operations are already in the store; %s\n", settings.path.c_str(),
                  stream.name.c_str(), static_cast<unsigned long long>(done),
                  stream.from_start ? "they are skipped as the stream sends them again"
                                    : "the stream goes on after them");
    acknowledge(done);
    input = std::make_unique<StreamInput>(request.input, EdgeStreamParser(parsing), request.batch);
  } else {
    acknowledge(0);  // nothing of any stream is in a store that does not exist
    input = std::make_unique<StreamInput>(request.input, EdgeStreamParser(parsing), request.batch);
    // A new store takes its kind from the stream, and its first vertex count from the ids read
    // so far: a stream declares no count; ids past it grow the store as they come.
    const StreamInput::Start start = input->wait_for_start();
    if (!start.kind) {
      const std::string error = input->error();
      if (!error.empty()) throw Error(error);
      fail("ingest: {} ended before its first insertion: no store created", shown);
    }
    const uint64_t capacity = std::max({settings.vertices, std::bit_ceil(start.max_id + 1), uint64_t{1024}});
    graph_store = create_store(settings, std::min(capacity, kMaxStoreVertices),
                               std::max<uint64_t>(settings.expect_edges, 65536), start.kind->weighted,
                               start.kind->real_weights);
    if (!graph_store) graph_store = open_existing(settings);
    done = resume_input(*graph_store, id, request.told);
  }
  GraphStore& gs = *graph_store;
  if (settings.vertices > gs.header().geometry.vertices) {
    gs.rebuild(std::min(settings.vertices, kMaxStoreVertices));
    std::printf("%s: grew to the %llu vertices of --vertices\n", settings.path.c_str(),
                static_cast<unsigned long long>(gs.header().geometry.vertices));
  }
  std::fflush(stdout);
  const IngestStart begun = starting(gs, done);
  GroupCommitOptions group{request.batch, stream.commit_every, done, stream.from_start, shown,
                           [&](const EdgeStreamKind& kind) { check_weights(shown, kind.weighted, kind.real_weights, gs); }};
  GroupCommitResult committed = commit_groups(gs, *input, group, acknowledge);
  input.reset();
  if (!committed.error.empty()) {
    // What came before the error is acknowledged: the store keeps it and is closed as after any
    // ingest; the command fails and writes no report.
    gs.flush_to_blocks();
    gs.close();
    throw Error(committed.error);
  }
  finish(gs, begun, done + committed.operations, settings.options.threads, request.batch, request.report,
         [&](JsonWriter& json) {
           json.field("stream", stream.name)
               .field("operations", committed.operations)
               .field("insertions", committed.insertions)
               .field("deletions", committed.deletions)
               .field("groups", committed.groups)
               .field("group_commit_ms_p50", 1e3 * percentile(committed.commit_seconds, 0.5))
               .field("group_commit_ms_p99", 1e3 * percentile(committed.commit_seconds, 0.99))
               .field("group_commit_ms_max", 1e3 * percentile(committed.commit_seconds, 1.0))
               .field("commit_every_seconds", std::chrono::duration<double>(stream.commit_every).count());
         });
  return 0;
}

// --store-mode's help: every mode in the table, the default first.
std::string store_mode_help() {
  std::vector<std::string> modes;
  for (const StoreModeEntry* m : store_modes())
    modes.push_back(fmt::format("{} ({}{})", m->name, m->summary, m->mode == kDefaultStoreMode ? "; the default" : ""));
  return "new store: " + choices_text(modes);
}

// The modes' own options (store/store_mode.h), each once, as the table gives them: parsed here,
// kept by name when given.
class ModeOptionValues {
 public:
  po::options_description described() {
    po::options_description d("store mode options");
    const std::vector<ModeOptionUse> uses = mode_options();
    text_.resize(uses.size());
    numbers_.resize(uses.size());
    help_.reserve(uses.size());
    for (size_t k = 0; k < uses.size(); ++k) {
      const ModeOption& o = *uses[k].option;
      options_.push_back(&o);
      const std::string fallback = o.kind == ModeOption::Kind::OnOff ? (o.fallback ? "on" : "off") : std::to_string(o.fallback);
      help_.push_back(fmt::format("{}: {} (default {})", choices_text({uses[k].modes.begin(), uses[k].modes.end()}), o.help, fallback));
      if (o.kind == ModeOption::Kind::OnOff)
        d.add_options()(o.name, po::value(&text_[k]), help_.back().c_str());
      else
        d.add_options()(o.name, number(&numbers_[k]), help_.back().c_str());
    }
    return d;
  }
  // The given ones into `tuning` (a number is parsed as every numeric option is; ranges:
  // check_store_options).
  void apply(const po::variables_map& vm, std::map<std::string, uint64_t, std::less<>>& tuning) const {
    for (size_t k = 0; k < options_.size(); ++k) {
      const ModeOption& o = *options_[k];
      if (!vm.count(o.name)) continue;
      const std::string& t = text_[k];
      if (o.kind == ModeOption::Kind::OnOff) {
        if (t != "on" && t != "off") fail("ingest: --{} '{}' (expected on or off)", o.name, t);
        tuning[o.name] = t == "on" ? 1 : 0;
      } else {
        tuning[o.name] = numbers_[k];
      }
    }
  }

 private:
  std::vector<const ModeOption*> options_;  // the modes' entries' own (static)
  std::vector<std::string> help_;
  std::deque<std::string> text_;  // po keeps pointers to these
  std::deque<uint64_t> numbers_;
};

}  // namespace

int cmd_ingest(const Args& args) {
  po::options_description options("ingest options");
  std::string mode_name, log_slots, block_space, buffer_mem, commit_every, stream_name;
  uint64_t acknowledged = 0;
  IngestRequest request;
  StreamRequest stream;
  StoreSettings& settings = request.store;
  StoreOptions& store_options = settings.options;
  options.add_options()
      ("store", po::value(&settings.path)->required(), "store file (created when missing)")
      ("input", po::value(&request.input)->required(),
       "graphso edge list to append, or an edge stream: - (standard input) or a named pipe (docs/formats.md)")
      ("threads", number(&store_options.threads)->default_value(2), "buffering threads (one shard of vertices each)")
      ("batch", number(&request.batch)->default_value(65536),
       "edges per acknowledged batch (group commit); a stream's groups hold at most this many (default 16384)")
      ("commit-every", po::value(&commit_every)->default_value("10ms"),
       "stream: a group is committed when its first operation has waited this long (or --batch are waiting)")
      ("stream", po::value(&stream_name),
       "stream: its name in the store, by which it resumes (default: the pipe's path, or stdin)")
      ("from-start", po::bool_switch(&stream.from_start),
       "stream: it is sent again from its first operation; those already in the store are skipped")
      ("real-weights", po::bool_switch(&stream.real_weights), "stream, new store: a text stream's weights are reals")
      ("delete", po::bool_switch(&request.deletes), "the input's edges are deletions")
      ("store-mode", po::value(&mode_name), store_mode_help().c_str())
      ("vertices", number(&settings.vertices)->default_value(0), "vertex capacity (default: the input's); a store grows to it")
      ("expect-edges", number(&settings.expect_edges)->default_value(0),
       "new store: size its block space for this many edges (default: the input's), for a store loaded in parts")
      ("log-slots", po::value(&log_slots)->default_value("16M"), "new store: edges the circular log holds")
      ("block-space", po::value(&block_space)->default_value("auto"), "new store: bytes for adjacency blocks (auto: sized from the input)")
      ("buffer-mem", po::value(&buffer_mem)->default_value("1G"), "vertex buffer (dgap: section log) memory that triggers a checkpoint")
      ("report", po::value(&request.report), "write a JSON report here")
      ("ack-log", po::value(&request.ack_log), "append the acknowledged operation count after every batch or group")
      ("acknowledged", number(&acknowledged),
       "N of this input's edges are already in the store (when the store can no longer tell: both copies of its "
       "input record damaged); ingest goes on after them");
  ModeOptionValues mode_values;
  options.add(mode_values.described());
  PowerCutOptions power_cut;
  options.add(power_cut.described());
  po::positional_options_description positional;
  positional.add("store", 1);
  po::variables_map vm;
  if (!parse_options("ingest", "STORE --input EDGES.bin|-|PIPE [options]", args, options, positional, vm)) return 0;
  const bool streaming = is_stream(request.input);
  command_line([&] {
    if (request.batch == 0) fail("ingest: --batch must be at least 1");
    store_options.buffer_memory = parse_size(buffer_mem, "--buffer-mem");
    power_cut.apply(store_options.power_cut);
    settings.log_slots = parse_size(log_slots, "--log-slots");
    settings.log_slots_given = !vm["log-slots"].defaulted();
    if (settings.log_slots < kMinLogSlots)
      fail("ingest: --log-slots {} is below the minimum of {}", settings.log_slots, kMinLogSlots);
    if (block_space != "auto") settings.block_units = parse_size(block_space, "--block-space") / kBlockUnitBytes;
    if (!mode_name.empty()) settings.mode = parse_store_mode(mode_name);
    mode_values.apply(vm, store_options.tuning);
    check_store_options(store_options);
    stream.commit_every = parse_duration(commit_every, "--commit-every");
    if (!streaming) {
      for (const char* only : {"stream", "from-start", "real-weights"})
        if (vm.count(only) && !vm[only].defaulted()) fail("ingest: --{} is for a stream (--input - or a named pipe)", only);
      if (!vm["commit-every"].defaulted())
        fail("ingest: --commit-every is for a stream (--input - or a named pipe); a file commits every --batch");
    }
  });
  if (vm.count("acknowledged")) request.told = acknowledged;
  if (!streaming) return ingest_file(request);
  if (vm["batch"].defaulted()) request.batch = 16384;
  // Buffering what the log holds (xpgraph, gear) overlaps logging the next batch when a batch is
  // what starts it, as in a file's ingest; with the file's 65,536 every fourth group would buffer
  // four groups' edges at once, and the pieces behind it wait (p99 26 ms against 6-16 ms).
  store_options.tuning.try_emplace(kArchiveThresholdOption.name, request.batch);
  stream.name = !stream_name.empty() ? stream_name
                : request.input == "-" ? "stdin"
                                       : std::filesystem::absolute(request.input).lexically_normal().string();
  return ingest_stream(request, stream);
}

}  // namespace graphso
