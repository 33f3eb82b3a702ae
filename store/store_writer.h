// What every store mode's writer is to GraphStore (store/graph_store.h, the face): the calls a
// mode implements, and what all of them share: the locked, mapped file, its layout, the persister,
// the edge log that acknowledges every batch, the checkpoint in force and the input records.
// A mode lives in a folder of its own, with its entry in the table of modes (store/store_mode.h),
// and includes only this and what store/ shares.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/types.h"
#include "store/edge_log.h"
#include "store/persister.h"
#include "store/pmem_file.h"
#include "store/store_format.h"
#include "store/store_full.h"
#include "store/store_meta.h"

namespace graphso::store {

struct StoreOptions {
  uint32_t threads = 1;
  uint64_t buffer_memory = uint64_t{1} << 30;  // DRAM a mode buffers (vertex buffers, section logs) past this: checkpoint
  PowerCutConfig power_cut{};
  // The modes' own options by name, the given ones only (StoreModeEntry::options; option_value).
  std::map<std::string, uint64_t, std::less<>> tuning = {};
};

// A number a mode counts about itself (store/store_mode.h: its writer's status), by name.
struct ModeCounter {
  const char* name;
  uint64_t value;
};

struct StoreStatus {
  StoreHeader header;
  uint64_t head = 0;        // persisted log head: edges (and deletions) logged
  uint64_t buffered = 0;    // B
  uint64_t flushed = 0;     // F of the checkpoint in force
  uint64_t checkpoint_seq = 0;
  uint64_t high_water = 0;  // block units handed out (pages, in a paged mode), unit 0 included
  uint64_t buffer_bytes = 0;  // DRAM vertex buffer pools, or section logs
  uint64_t checkpoints = 0;   // taken by this process
  uint64_t replayed = 0;      // log records replayed when opening
  int repaired_input_slot = -1;  // the input record slot opening wrote back from the other copy
  // A mode that changes its units in place batch by batch: the end of the batch under way (the
  // head when none is; a batch cut short by a crash until ingest replays it).
  uint64_t applying = 0;
  // growth (store_growth.cc): times this process rebuilt the store into a larger file, the edges
  // those rebuilds copied, and their time
  uint64_t growths = 0;
  uint64_t growth_edges = 0;
  double growth_seconds = 0;
  PersistStats persisted;
  // The mode's own counts (merges, relocations, ...), in its ingest report under these names, and
  // what its ingest summary adds in words.
  std::vector<ModeCounter> counters = {};
  std::vector<std::string> notes = {};

  // The count named `name` (0 when the mode keeps none).
  uint64_t counter(std::string_view name) const {
    for (const ModeCounter& c : counters)
      if (name == c.name) return c.value;
    return 0;
  }
};

// Runs body(task) for tasks 0..tasks-1, each on its own thread where OpenMP gives enough; the
// first error is rethrown.
template <typename Body>
void run_tasks(uint32_t tasks, Body&& body) {
  std::exception_ptr error;
  std::atomic<bool> failed{false};
#pragma omp parallel for schedule(dynamic, 1) num_threads(tasks)
  for (uint32_t task = 0; task < tasks; ++task) {
    try {
      body(task);
    } catch (...) {
      if (!failed.exchange(true)) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
}

class StoreWriter {
 public:
  StoreWriter(WriterLock lock, PmemFile file, const StoreHeader& header, const StoreOptions& options)
      : lock_(std::move(lock)),
        file_(std::move(file)),
        header_(header),
        layout_(header.geometry),
        options_(options),
        persister_(file_, options.power_cut, false),
        log_(file_, layout_, persister_),
        checkpoint_(read_checkpoint(file_, layout_)) {}
  virtual ~StoreWriter() = default;
  StoreWriter(const StoreWriter&) = delete;
  StoreWriter& operator=(const StoreWriter&) = delete;

  // Durable on return (graph_store.h).
  virtual void add(std::span<const WeightedEdge> edges, bool deletes) = 0;
  virtual void add(std::span<const Edge> edges, bool deletes) = 0;
  // v's live d-edges as (neighbour, weight), sorted; weight 1 in an unweighted store.
  virtual std::vector<std::pair<VertexId, Weight>> edges(AdjacencyList d, VertexId v) const = 0;
  virtual void buffer_all() = 0;
  virtual void checkpoint() = 0;
  virtual void compact() = 0;
  virtual void close() = 0;
  virtual StoreStatus status() const = 0;

  InputRecords input() const { return read_inputs(file_, layout_); }
  void begin_input(InputProgress input, uint64_t already_logged) {
    if (already_logged > log_.head())
      fail("{}: {} edges cannot be in the store already: it has logged {}", file_.path(), already_logged, log_.head());
    input.start = log_.head() - already_logged;
    write_input(file_, layout_, persister_, input);
  }
  const StoreHeader& header() const { return header_; }
  const std::string& path() const { return file_.path(); }
  uint64_t head() const { return log_.head(); }  // operations durable (acknowledged)

  // For a rebuilt store (store_growth.cc), on a file nobody reads yet, with everything
  // checkpointed: moves the log's position to `position` (the old store's head), so the input
  // records and a resumed ingest count the same positions. The writer is dropped afterwards.
  virtual void move_log_to(uint64_t position) {
    if (log_.head() != checkpoint_.flushed)
      fail("{}: cannot move the log of a store with unflushed edges ({} after the checkpoint)", file_.path(),
           log_.head() - checkpoint_.flushed);
    Checkpoint moved = checkpoint_;
    moved.flushed = position;
    write_checkpoint(file_, layout_, persister_, moved);
    checkpoint_ = moved;
    log_.advance_to(position);
  }
  // The writer's lock, for a caller that drops the writer but keeps the store (growth); the
  // writer must not be used afterwards.
  WriterLock release_lock() { return std::move(lock_); }

 protected:
  // Every id below the store's vertex count, or an error naming the first that is not.
  template <typename EdgeRecord>
  void check_ids(std::span<const EdgeRecord> edges) const {
    for (const EdgeRecord& e : edges)
      if (e.src >= header_.geometry.vertices || e.dst >= header_.geometry.vertices)
        fail("{}: edge {} -> {} is outside the store's {} vertices", file_.path(), e.src, e.dst,
             header_.geometry.vertices);
  }
  // The next batch of `edges` the log has room for (taken off the front of `edges`); when the log
  // holds all it may of edges not yet checkpointed (store_format.h), a checkpoint first.
  template <typename EdgeRecord>
  std::span<const EdgeRecord> take_log_batch(std::span<const EdgeRecord>& edges) {
    const uint64_t capacity = log_.slots() - kLogLineRecords;
    if (log_.head() - checkpoint_.flushed >= capacity) checkpoint();
    const std::span<const EdgeRecord> batch =
        edges.first(std::min<uint64_t>(capacity - (log_.head() - checkpoint_.flushed), edges.size()));
    edges = edges.subspan(batch.size());
    return batch;
  }
  void check_vertex(VertexId v) const {
    if (v >= header_.geometry.vertices)
      fail("{}: vertex {} is outside the store's {} vertices", file_.path(), v, header_.geometry.vertices);
  }
  // The fields every mode fills the same way.
  StoreStatus common_status() const {
    StoreStatus s;
    s.header = header_;
    s.head = log_.head();
    s.flushed = checkpoint_.flushed;
    s.checkpoint_seq = checkpoint_.seq;
    s.applying = log_.head();
    s.repaired_input_slot = repaired_input_slot_;
    s.persisted = persister_.stats();
    return s;
  }

  WriterLock lock_;  // held for the object's life: no second writer
  PmemFile file_;
  StoreHeader header_;
  StoreLayout layout_;
  StoreOptions options_;
  Persister persister_;
  EdgeLog log_;
  Checkpoint checkpoint_;
  int repaired_input_slot_ = -1;
};

}  // namespace graphso::store
