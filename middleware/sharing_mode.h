// How a batch's jobs share the graph's edges: a sharing mode loads what a round needs from the
// engine's layout and hands it to the engine. One implementation each, for every engine:
//
//   independent  each job loads the partitions it needs, on its own, and the engine finishes
//                its round before the next job's (N stock engine runs)
//   partition    each partition some job needs is loaded once per round, whole, and every job
//                that needs it processes it (GraphM-style sharing)
//   chunk        the GraphSO middleware (graphso.h): only active chunks, in priority order, as
//                logical partitions, through a shared chunk cache
//
// All three read through one DoubleBuffer (io/double_buffer.h): the next load is read while the
// engine processes this one, and all three re-enter each load for asynchronous jobs before its
// buffer is reused (middleware/reentry.h).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "base/edge_run.h"
#include "engine/engine.h"
#include "io/chunk_reader.h"
#include "jobs/job.h"
#include "middleware/graphso.h"
#include "middleware/reentry.h"

namespace graphso {

enum class Sharing { Independent, Partition, Chunk };
Sharing parse_sharing(const std::string& name);
const char* sharing_name(Sharing sharing);

struct RoundStats {
  uint64_t active_chunks = 0;       // chunk mode
  uint64_t logical_partitions = 0;  // chunk mode
  uint64_t late_chunks = 0;         // chunk mode: chunks that joined the pass after it began
};

class SharingMode {
 public:
  explicit SharingMode(ReentryPolicy reentry) : reentry_(reentry) {}
  virtual ~SharingMode() = default;
  // One round of the running jobs (indexes into jobs): loads what they need, hands it to
  // engine.process(), and ends with engine.finish_round(). accounting: the running jobs'
  // frontier unions, which the shared modes count active edges against.
  virtual RoundStats round(Engine& engine, std::span<Job* const> jobs, std::span<const uint32_t> running,
                           ActiveSets accounting) = 0;
  virtual IoStats io_stats() const = 0;
  // The backend of the readers in use ("uring", "pread" after a fallback, "pmem"); "none" before any read.
  virtual const char* backend() const = 0;
  // What re-entry did so far: every mode re-enters each load it hands the engine.
  const ReentryCounts& reentries() const { return reentry_.counts(); }

 protected:
  Reentry reentry_;
};

// independent or partition over the layout, with two read buffers of buffer_bytes each, for an
// engine running on `threads` threads. reentry: when loads are swept again (middleware/reentry.h).
std::unique_ptr<SharingMode> make_stock_mode(Sharing sharing, const EngineLayout& layout, ReaderFactory& readers,
                                             uint64_t buffer_bytes, int threads, ReentryPolicy reentry);
// chunk: the middleware, already Init-ed over the engine's layout. late_join: chunks that
// asynchronous jobs reach during a pass join it (GraphSO::Follow).
std::unique_ptr<SharingMode> make_chunk_mode(GraphSO& graphso, ReentryPolicy reentry, bool late_join = false);

}  // namespace graphso
