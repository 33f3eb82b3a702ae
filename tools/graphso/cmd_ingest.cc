// graphso ingest STORE --input EDGES.bin [--threads N] [--batch K] [--store-mode xpgraph|naive|dgap|gear|ftgraph]
// Appends an edge list to the evolving-graph store (created on first use), durably, batch by
// batch. Resumable: the store records the input and how many of its edges are acknowledged.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <future>
#include <memory>
#include <optional>

#include "datasets/edge_list.h"
#include "base/json_writer.h"
#include "base/progress.h"
#include "store/graph_store.h"
#include "store/input_resume.h"
#include "tools/graphso/options.h"

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

// Appends the running total of acknowledged edges, one line per batch (the crash tests' witness).
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

}  // namespace

int cmd_ingest(const Args& args) {
  po::options_description options("ingest options");
  std::string store_path, input_path, mode_name, log_slots, block_space, buffer_mem, report_path, ack_log, crash_at,
      wear_levelling;
  uint64_t batch = 0, vertices = 0, acknowledged = 0, expect_edges = 0;
  StoreOptions store_options;
  options.add_options()
      ("store", po::value(&store_path)->required(), "store file (created when missing)")
      ("input", po::value(&input_path)->required(), "graphso edge list to append")
      ("threads", number(&store_options.threads)->default_value(2), "buffering threads (one shard of vertices each)")
      ("batch", number(&batch)->default_value(65536), "edges per acknowledged batch (group commit)")
      ("delete", po::bool_switch(), "the input's edges are deletions")
      ("store-mode", po::value(&mode_name), "new store: xpgraph (default), naive (GraphOne on PMEM, the baseline), dgap (a sorted edge array "
       "the engines read in place), gear (each vertex's neighbours together in one subpage) or ftgraph (a suffix-bit "
       "tree per vertex changed in place, no log; set semantics: duplicates are not stored)")
      ("vertices", number(&vertices)->default_value(0), "new store: vertex capacity (default: the input's)")
      ("expect-edges", number(&expect_edges)->default_value(0),
       "new store: size its block space for this many edges (default: the input's), for a store loaded in parts")
      ("log-slots", po::value(&log_slots)->default_value("16M"), "new store: edges the circular log holds")
      ("block-space", po::value(&block_space)->default_value("auto"), "new store: bytes for adjacency blocks (auto: sized from the input)")
      ("max-buffer", number(&store_options.max_buffer_bytes)->default_value(256), "largest DRAM vertex buffer, bytes (16-256)")
      ("buffer-mem", po::value(&buffer_mem)->default_value("1G"), "vertex buffer (dgap: section log) memory that triggers a checkpoint")
      ("section-log", number(&store_options.section_log)->default_value(2048),
       "dgap: logged operations on a section that start its merge (DGAP's per-section log)")
      ("wear-levelling", po::value(&wear_levelling)->default_value("on"),
       "gear: on (new subpages on the least written pages, GEAR's dual-granularity leveller) or off (first fit)")
      ("archive-threshold", number(&store_options.archive_threshold)->default_value(65536),
       "logged edges that start buffering (XPGraph's archiving threshold)")
      ("report", po::value(&report_path), "write a JSON report here")
      ("acknowledged", number(&acknowledged),
       "N of this input's edges are already in the store (when the store can no longer tell: both copies of its "
       "input record damaged); ingest goes on after them");
  po::options_description testing("crash testing");
  testing.add_options()
      ("ack-log", po::value(&ack_log), "append the acknowledged edge count after every batch")
      ("shadow", po::value(&store_options.power_cut.shadow_path), "power-cut mode: copy every persisted range here")
      ("crash-at", po::value(&crash_at), "power-cut mode: stop at crash point NAME[:PASS]");
  options.add(testing);
  po::positional_options_description positional;
  positional.add("store", 1);
  po::variables_map vm;
  if (!parse_options("ingest", "STORE --input EDGES.bin [options]", args, options, positional, vm)) return 0;
  uint64_t slots = 0;
  std::optional<uint64_t> block_units;
  std::optional<StoreMode> mode;
  command_line([&] {
    if (batch == 0) fail("ingest: --batch must be at least 1");
    store_options.buffer_memory = parse_size(buffer_mem, "--buffer-mem");
    if (!crash_at.empty()) {
      size_t colon = crash_at.find(':');
      store_options.power_cut.crash_point = crash_at.substr(0, colon);
      if (colon != std::string::npos) store_options.power_cut.crash_after = parse_size(crash_at.substr(colon + 1), "--crash-at pass");
    }
    slots = parse_size(log_slots, "--log-slots");
    if (slots < kMinLogSlots) fail("ingest: --log-slots {} is below the minimum of {}", slots, kMinLogSlots);
    if (block_space != "auto") block_units = parse_size(block_space, "--block-space") / kBlockUnitBytes;
    if (!mode_name.empty()) mode = parse_store_mode(mode_name);
    if (wear_levelling != "on" && wear_levelling != "off")
      fail("ingest: --wear-levelling '{}' (expected on or off)", wear_levelling);
    store_options.wear_levelling = wear_levelling == "on";
    check_store_options(store_options);
  });
  const bool deletes = vm["delete"].as<bool>();

  EdgeListReader reader(input_path);
  const EdgeListInfo& info = reader.info();
  std::unique_ptr<GraphStore> graph_store;
  if (!path_exists(store_path)) {
    if (deletes) fail("ingest: {}: no such store to delete from", store_path);
    const StoreMode new_mode = mode.value_or(StoreMode::XPGraph);
    uint64_t capacity = std::max(vertices, info.vertices);
    if (capacity == 0) fail("ingest: {} has no vertices; give --vertices", input_path);
    check_input_ids(reader, kMaxStoreVertices, input_path);
    // A store keeps weights when its first input has them.
    StoreGeometry geometry = default_geometry(capacity, std::max(expect_edges, info.edges), slots, info.weighted, new_mode);
    geometry.real_weights = info.real_weights;  // binary32 in the weight words, said in the superblock
    if (block_units) geometry.block_units = paged(new_mode) ? align_down(*block_units, kUnitsPerPage) : *block_units;
    graph_store = GraphStore::create_if_missing(store_path, geometry, new_mode, store_options);
    if (graph_store)
      std::printf("%s: created (%s, %s, %llu vertices, %llu log slots, %s for blocks)\n", store_path.c_str(),
                  store_mode_name(new_mode), geometry.real_weights ? "real weights" : geometry.weighted ? "weighted" : "unweighted",
                  static_cast<unsigned long long>(geometry.vertices),
                  static_cast<unsigned long long>(geometry.log_slots),
                  human_bytes(static_cast<double>(geometry.block_units * kBlockUnitBytes)).c_str());
  }
  if (!graph_store) {  // it existed, or another process created it since we looked
    graph_store = GraphStore::open(store_path, store_options);
    StoreStatus s = graph_store->status();
    // The sizing options say where a new store starts; an existing one grows as it needs to. Only
    // what growth keeps cannot change.
    if (mode && *mode != s.header.mode)
      fail("ingest: {} is a {} store, not {}", store_path, store_mode_name(s.header.mode), mode_name);
    if (s.header.mode != StoreMode::Ftgraph && !vm["log-slots"].defaulted() && slots != s.header.geometry.log_slots)
      fail("ingest: --log-slots is fixed when a store is created; {} has {}", store_path, s.header.geometry.log_slots);
    // Ids past the store grow it; a deletion naming one cannot name an edge it holds. Checked
    // before anything changes, growth included.
    check_input_ids(reader, deletes ? s.header.geometry.vertices : kMaxStoreVertices, input_path);
    // The store holds at least the vertices its inputs declare: a larger input grows it to that
    // count now (ids past it would grow it to a power of two as they come).
    const uint64_t declared = std::max(vertices, info.vertices);
    if (!deletes && declared > s.header.geometry.vertices && declared <= kMaxStoreVertices) {
      graph_store->rebuild(declared);
      std::printf("%s: grew to the %llu vertices of %s\n", store_path.c_str(), static_cast<unsigned long long>(declared),
                  vertices > info.vertices ? "--vertices" : input_path.c_str());
    }
    std::printf("%s: opened at log position %llu (checkpoint %llu at %llu, %llu records replayed)\n",
                store_path.c_str(), static_cast<unsigned long long>(s.head),
                static_cast<unsigned long long>(s.checkpoint_seq), static_cast<unsigned long long>(s.flushed),
                static_cast<unsigned long long>(s.replayed));
    if (s.applying > s.head)
      std::printf("%s: operations %llu..%llu were partly applied when an ingest stopped; that ingest, run again, replays them\n",
                  store_path.c_str(), static_cast<unsigned long long>(s.head), static_cast<unsigned long long>(s.applying - 1));
    if (s.repaired_input_slot >= 0)
      std::printf("%s: input record slot %d was damaged or stale; rewritten from its intact copy\n", store_path.c_str(),
                  s.repaired_input_slot);
  }
  GraphStore& gs = *graph_store;
  const bool weighted_store = gs.header().geometry.weighted;
  // Real and integer weights are different numbers in the same words: never mixed in one store,
  // and a store of real weights has no weight 1 to give an unweighted edge.
  const bool real_store = gs.header().geometry.real_weights;
  if (!deletes && info.weighted && weighted_store && info.real_weights != real_store)
    fail("ingest: {} has {} weights and {} keeps {} ones", input_path, info.real_weights ? "real" : "integer", store_path,
         real_store ? "real" : "integer");
  if (!deletes && !info.weighted && real_store)
    fail("ingest: {} is unweighted and {} keeps real weights: give its edges weights (convert --real-weights)", input_path,
         store_path);
  if (info.weighted && !weighted_store && !deletes)
    std::printf("%s: weighted input into %s, which was created from unweighted input and keeps no weights: "
                "the weights are dropped\n", input_path.c_str(), store_path.c_str());
  if (!info.weighted && weighted_store && !deletes)
    std::printf("%s: unweighted input into the weighted store %s: its edges get weight 1\n", input_path.c_str(),
                store_path.c_str());

  // Resume after the acknowledged edges of the same input, or start it at the log head.
  InputProgress id = identify_input(input_path, info, deletes);
  std::optional<uint64_t> told;
  if (vm.count("acknowledged")) told = acknowledged;
  uint64_t done = resume_input(gs, id, told);
  if (done == id.edges && done > 0)
    std::printf("%s: %s is already ingested (%llu edges)\n", store_path.c_str(), input_path.c_str(), static_cast<unsigned long long>(done));
  else if (done > 0)
    std::printf("%s: resuming %s after %llu of %llu edges\n", store_path.c_str(), input_path.c_str(), static_cast<unsigned long long>(done), static_cast<unsigned long long>(id.edges));

  std::fflush(stdout);  // where it starts is known even if the process dies mid-ingest
  AckLog acks(ack_log);
  const uint64_t first = done;
  const uint64_t write_bytes_before = device_write_bytes();
  const PersistStats persisted_before = gs.status().persisted;
  auto start = std::chrono::steady_clock::now();
  Progress progress("ingest", id.edges, "edges");
  // The next batch is read while the store takes this one; with weights only where the store
  // keeps them (a deletion needs none: it removes the earliest occurrence whatever its weight).
  auto ingest_all = [&]<typename EdgeRecord>(std::vector<EdgeRecord> edges) {
    std::vector<EdgeRecord> next;
    reader.seek(done);
    bool more = reader.next_batch(edges, batch);
    while (more) {
      std::future<bool> reading = std::async(std::launch::async, [&] { return reader.next_batch(next, batch); });
      if (deletes) gs.del_edges(edges);
      else gs.add_edges(edges);
      more = reading.get();
      done += edges.size();
      acks.acknowledged(done);
      progress.update(done);
      std::swap(edges, next);
    }
  };
  if (weighted_store && info.weighted && !deletes) ingest_all(std::vector<WeightedEdge>{});
  else ingest_all(std::vector<Edge>{});
  const auto flush_start = std::chrono::steady_clock::now();
  gs.flush_to_blocks();  // everything into adjacency blocks: the log is free again
  gs.close();
  progress.finish();
  const auto end = std::chrono::steady_clock::now();
  const double seconds = std::chrono::duration<double>(end - start).count();
  const double flush_seconds = std::chrono::duration<double>(end - flush_start).count();
  StoreStatus s = gs.status();
  const uint64_t ingested = done - first;
  PersistStats p = s.persisted;
  p.calls -= persisted_before.calls;
  p.bytes -= persisted_before.bytes;
  p.line_bytes -= persisted_before.line_bytes;
  const uint64_t device_bytes = device_write_bytes() - write_bytes_before;
  const double per_edge = ingested ? static_cast<double>(p.line_bytes) / static_cast<double>(ingested) : 0.0;
  std::printf("ingest: %llu edges in %.3f s: %.0f edges/s (%s, %u threads, batch %llu; final flush %.3f s)\n",
              static_cast<unsigned long long>(ingested), seconds, ingested / std::max(seconds, 1e-9),
              store_mode_name(s.header.mode), store_options.threads, static_cast<unsigned long long>(batch),
              flush_seconds);
  std::printf("ingest: persisted %s in %llu persists (%.1f bytes/edge in 256-byte lines); device writes %s\n",
              human_bytes(static_cast<double>(p.line_bytes)).c_str(), static_cast<unsigned long long>(p.calls), per_edge,
              human_bytes(static_cast<double>(device_bytes)).c_str());
  if (s.growths > 0)
    std::printf("ingest: the store grew %llu times (now %llu vertices, %s file), copying %llu edges in %.3f s\n",
                static_cast<unsigned long long>(s.growths), static_cast<unsigned long long>(s.header.geometry.vertices),
                human_bytes(static_cast<double>(StoreLayout(s.header.geometry).file_bytes)).c_str(),
                static_cast<unsigned long long>(s.growth_edges), s.growth_seconds);
  if (s.header.mode == StoreMode::Ftgraph)
    std::printf("ingest: set semantics: %llu inserts of edges already present, %llu deletions of absent edges (nothing "
                "written for either)\n", static_cast<unsigned long long>(s.duplicates),
                static_cast<unsigned long long>(s.absent_deletes));
  if (!report_path.empty()) {
    JsonWriter json;
    json.begin_object()
        .field("store", store_path)
        .field("mode", store_mode_name(s.header.mode))
        .field("weighted", s.header.geometry.weighted)
        .field("real_weights", s.header.geometry.real_weights)
        .field("threads", store_options.threads)
        .field("batch", batch)
        .field("edges", ingested)
        .field("resumed_from", first)
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
        .field("block_bytes_used", (s.high_water - 1) * (paged(s.header.mode) ? kSectionPageBytes : kBlockUnitBytes));
    if (s.header.mode == StoreMode::Dgap)
      json.field("sections", s.sections).field("merges", s.merges).field("splits", s.splits).field("pages_written", s.pages_written);
    if (s.header.mode == StoreMode::Gear)
      json.field("relocations", s.relocations).field("relocated_bytes", s.relocated_bytes)
          .field("wear_moves", s.wear_moves).field("wear_moved_bytes", s.wear_moved_bytes);
    if (s.header.mode == StoreMode::Ftgraph)
      json.field("duplicates", s.duplicates).field("absent_deletes", s.absent_deletes)
          .field("branch_outs", s.branch_outs).field("scale_ups", s.scale_ups);
    json.end_object();
    AtomicOutputFile out(report_path);
    out.append(json.text() + "\n");
    out.commit();
  }
  return 0;
}

}  // namespace graphso
