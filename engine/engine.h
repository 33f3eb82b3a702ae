// An out-of-core engine as the sharing modes and the batch runner drive it: three calls.
//
//   layout()          its files and static partitions (engine_layout.h), what loaders read
//   process(runs)     hands runs of edges that are in memory to the jobs that want them
//                     (GridGraph applies them; X-Stream scatters them into update bins)
//   finish_round(js)  ends a round's edge work for those jobs (X-Stream's gather; GridGraph has
//                     nothing to do)
//
// Nothing in an engine knows how its partitions were chosen or loaded: that is the sharing
// mode's business (middleware/sharing_mode.h). The README's "Adding an engine" walks through a
// third one.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/edge_run.h"
#include "engine/engine_layout.h"
#include "io/chunk_reader.h"
#include "jobs/job.h"

namespace graphso {

class GridGraph;

enum class EngineKind { GridGraph, XStream };

// The bytes each thread decodes packed pages into at once, unless the engine is told otherwise
// (Engine::set_decode, engine/edge_processor.h).
inline constexpr uint64_t kDefaultDecodeBytes = 256 << 10;

// How an engine decodes packed edges (engine/edge_processor.h).
struct DecodeOptions {
  uint64_t bytes = kDefaultDecodeBytes;  // per thread, at once
  // Pages whose sources no job of their run may push are passed over undecoded (Job::may_push);
  // off decodes every page (`run --pass-over-pages off`, to measure what it saves).
  bool pass_over_pages = true;
};
EngineKind parse_engine(const std::string& name);
const char* engine_name(EngineKind engine);

struct EngineCounters {
  uint64_t runs = 0;  // runs of edges processed (blocks, block pieces, partitions' pieces, chunks)
  uint64_t edges_loaded = 0;
  uint64_t active_edges_loaded = 0;
  uint64_t edges_processed = 0;  // edges handed to jobs, counted once per job
  uint64_t edges_decoded = 0;    // packed edges decoded into source groups
  uint64_t edges_passed_over = 0;  // packed edges loaded but not decoded: no job may push their sources
  double decode_seconds = 0;     // time the threads spent decoding them (summed over threads)
};

// An update-streaming engine's updates; all zero for one that applies edges at once.
struct UpdateCounters {
  uint64_t records = 0;        // update records emitted by scatter
  uint64_t bytes = 0;          // their bytes
  uint64_t bytes_written = 0;  // spilled to disk (whole pages, as written)
  uint64_t bytes_read = 0;     // read back from disk in the gather phase
  uint64_t spills = 0;         // spill writes
  uint64_t applied_early = 0;  // bytes applied when the bins were full (UpdateOverflow::Apply)
};

// What an engine with update buffers does with updates past its budget. Apply: the thread whose
// bins are full applies them at once (every job's vertex state is in memory, and a job's gathers
// may come at any time in a round: GridGraph applies every edge at once). Spill: write them to
// disk and read them back at the gather (X-Stream's own design, for vertex state out of core).
enum class UpdateOverflow { Apply, Spill };

class Engine {
 public:
  virtual ~Engine() = default;

  virtual const EngineLayout& layout() const = 0;
  // Binds the batch's jobs (EdgeRun::jobs index them; they outlive the engine) and sizes the
  // engine's own memory: update_bytes is its update budget (engines with update buffers).
  // Called once, before any round.
  virtual void start(std::span<Job* const> jobs, uint64_t update_bytes, int threads) = 0;
  virtual void process(std::span<const EdgeRun> runs) = 0;
  virtual void finish_round(std::span<const uint32_t> jobs) = 0;

  // How packed edges are decoded, and into how much memory per thread; before start().
  void set_decode(const DecodeOptions& options) { decode_ = options; }
  // Where the engine's scratch files go (X-Stream's spilled updates), in a directory of their own
  // (io/scratch_directory.h); before start(). Empty: the system's temporary directory.
  void set_scratch_parent(const std::string& parent) { scratch_parent_ = parent; }
  // Before start(): what updates past the update budget do (engines with update buffers).
  void set_update_overflow(UpdateOverflow overflow) { update_overflow_ = overflow; }

  // Jobs whose edge work threw, with the message; they are handed no more edges.
  virtual std::vector<std::pair<uint32_t, std::string>> failures() const = 0;
  virtual EngineCounters counters() const = 0;
  // Per job index: seconds in its edge work on the engine's threads, summed over them.
  virtual std::vector<double> job_seconds() const { return {}; }
  virtual UpdateCounters updates() const { return {}; }
  // The smallest update budget the engine takes for these jobs on `threads` threads; 0 for an
  // engine without update buffers.
  virtual uint64_t min_update_bytes(int /*threads*/, std::span<Job* const> /*jobs*/) const { return 0; }

 protected:
  UpdateOverflow update_overflow_ = UpdateOverflow::Apply;
  DecodeOptions decode_;
  std::string scratch_parent_;
};

// Opens the engine's view of a prepared graph (the X-Stream layout must have been prepared).
std::unique_ptr<Engine> make_engine(EngineKind engine, const GridGraph& graph, ReaderFactory& readers);
// An engine over a layout of the caller's whose static partitions are source ranges with every
// destination (a store's sections); the graph gives the vertex ranges. The layout takes the
// engine's name (the report's `engine`).
std::unique_ptr<Engine> make_engine(EngineKind engine, const GridGraph& graph, EngineLayout layout, ReaderFactory& readers);

}  // namespace graphso
