// The GraphSO middleware's face: the three hooks an out-of-core engine calls where it would
// otherwise load its next static partition (see README, "Integrating an engine").
//
//   Init(layout, config, readers)   builds or loads the TChunk table, sizes the logical-partition
//                                   buffers and the shared chunk cache from the graph budget
//   GetActiveChunks(jobs)           per chunk some job still needs: related jobs, active sources
//                                   and edges, priority (Formula 2), and whether to read it whole
//                                   or by pages (read_granularity.h); refreshes cache priorities
//   Schedule(active)                the next logical partition of the round, loaded: from the
//                                   cache first, then chunks in the pass order (scheduler.h:
//                                   a few destination ranges at a time, top priority first
//                                   within them) read through io_uring (or libpmem) with
//                                   O_DIRECT; the next partition is read while this one is
//                                   processed. nullopt once every active chunk has been served
//                                   this round.
//   Follow(active, changes)         after a logical partition is processed: chunks that gained
//                                   work from asynchronous jobs' changes join the round's pass
//                                   (late_join.h), and what it has not started is re-planned
//
// The middleware never knows what an algorithm computes: it sees frontiers, never values.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "base/adjacency.h"
#include "base/file.h"
#include "middleware/active_chunks.h"
#include "middleware/chunk_cache.h"
#include "middleware/late_join.h"
#include "engine/engine_layout.h"
#include "base/edge_run.h"
#include "base/packed_pages.h"
#include "io/chunk_reader.h"
#include "io/double_buffer.h"
#include "io/device_profile.h"
#include "middleware/read_granularity.h"
#include "middleware/scheduler.h"
#include "middleware/tchunk.h"

namespace graphso {

// The most a logical-partition buffer takes when the budget allows more (unless a few chunks need
// more). A larger one only costs: a round's first partition is read before anything is processed,
// and every page of both buffers is touched (zeroed by the kernel). Measured on R-MAT 22, BFS,
// budget above the graph: 268 MiB buffers 2.28-2.63 s, 128 MiB 1.68-1.72 s, 32 MiB 1.70-1.73 s,
// 8 MiB 1.74-1.77 s with 40% more CPU (more partitions, more waits) (docs/middleware.md, "Memory").
inline constexpr uint64_t kLogicalPartitionBytes = 32 << 20;

struct GraphSOConfig {
  uint64_t chunk_bytes = 0;          // 0: the graph directory's default (middleware/chunk_size.h),
                                     // kFormulaChunkBytes: Formula (1); both capped by the budget
  uint64_t graph_budget_bytes = 0;   // what --mem leaves after the vertex state
  double cache_ratio = 0.25;         // of the graph budget, for the chunk cache
  int threads = 1;
  Granularity granularity = Granularity::Chunk;
  PassOrder pass_order = PassOrder::Destination;  // the device chunks' order within a pass
  uint64_t extent_bytes = kExtentBytes;        // adjacent chunks planned together (scheduler.h)
  CacheForm cache_form = CacheForm::Auto;      // a packed graph's chunks cached as read or decoded
};

// A logical partition in memory: one run per whole chunk, or per page run of a chunk read by
// pages, in chunk order. Each run's jobs and active edges are its ChunkDemand's (so its jobs are
// indexes into the JobFrontier span given to GetActiveChunks, unless the caller renumbered
// them); its data is valid until the next Schedule() call.
struct LoadedPartition {
  bool from_cache = false;
  std::vector<EdgeRun> runs;
};

struct GraphSOStats {
  uint64_t logical_partitions = 0;
  uint64_t chunks_loaded = 0;      // read from the device
  uint64_t bytes_requested = 0;    // chunk bytes asked for (before page alignment)
  uint64_t chunks_by_pages = 0;    // of chunks_loaded, read page by page
  uint64_t page_bytes = 0;         // aligned bytes asked for by page-granular reads
  uint64_t whole_bytes = 0;        // aligned bytes asked for by whole-chunk reads
  uint64_t page_requests = 0;      // reads of page runs (before merging with neighbours)
  uint64_t index_bytes_read = 0;   // TChunk source-index entries read because not resident (in io too)
  uint64_t late_chunks = 0;        // chunks that joined a pass after it began (Follow)
  IoStats io;
  CacheStats cache;
};

class GraphSO {
 public:
  static std::unique_ptr<GraphSO> Init(const EngineLayout& layout, const GraphSOConfig& config, ReaderFactory& readers);
  ~GraphSO();
  GraphSO(const GraphSO&) = delete;
  GraphSO& operator=(const GraphSO&) = delete;

  // accounting: as get_active_chunks'; the runs Schedule hands out then carry their counts.
  ActiveChunks GetActiveChunks(std::span<const JobFrontier> jobs, const Bitmap* accounting = nullptr);
  std::optional<LoadedPartition> Schedule(const ActiveChunks& active);
  // Between two Schedule() calls of a round, once the partition handed out last is processed: the
  // chunks the jobs' changes since the last call give work that the pass has not gone by join it
  // (new demands are appended to active). Returns how many chunks joined that no job wanted before.
  uint64_t Follow(ActiveChunks& active, std::span<const JobChanges> changes);

  const TChunkTable& table() const { return table_; }
  // How the chunk size was chosen (the directory's record, asked for, Formula (1)) and whether
  // the budget lowered it.
  const std::string& chunk_size_basis() const { return chunk_size_basis_; }
  const EngineLayout& layout() const { return layout_; }
  uint64_t partition_bytes() const { return partition_bytes_; }
  uint64_t cache_capacity() const { return cache_.capacity(); }
  uint64_t cache_used() const { return cache_.used(); }
  uint64_t cached_chunks() const { return cache_.cached_chunks().size(); }
  // What the cache holds of a chunk: "records" (a raw graph), "packed" or "decoded" pages.
  const char* cache_form() const;
  // The bytes the cache would take to hold every chunk in its form.
  uint64_t whole_graph_cache_bytes() const;
  // Whether the cache has room for every chunk: once read, the graph stays in memory.
  bool holds_whole_graph() const { return cache_.capacity() >= whole_graph_cache_bytes(); }
  bool cached(uint32_t chunk) const { return cache_.contains(chunk); }
  // Whether every chunk is in the cache now.
  bool caches_every_chunk() const { return cache_.entries() == table_.chunks().size(); }
  // The graph's out-edges per vertex (base/adjacency.h), built from the cache, which must hold
  // every chunk (caches_every_chunk); packed chunks are decoded on the way, not in the cache.
  Adjacency adjacency(std::span<const uint32_t> out_degrees) const;
  PassOrder pass_order() const { return pass_order_; }
  uint64_t extent_bytes() const { return extent_bytes_; }
  Granularity granularity() const { return granularity_; }
  // The device as measured at Init (granularity page or auto); null otherwise.
  const DeviceProfile* device() const { return device_ ? &*device_ : nullptr; }
  GraphSOStats stats() const;
  // The backend of the readers in use ("uring", "pread" after a fallback, "pmem"); "none" before any read.
  const char* backend() const { return buffers_.backend(); }

 private:
  GraphSO(const EngineLayout& layout, TChunkTable table, uint64_t partition_bytes, uint64_t cache_bytes,
          ReaderFactory& readers, int threads, Granularity granularity);
  // Init's second half: the middleware over a table whose buffers fit the budget.
  static std::unique_ptr<GraphSO> finish_init(const EngineLayout& layout, const GraphSOConfig& config,
                                              ReaderFactory& readers, TChunkTable table, uint64_t partition,
                                              uint64_t cache_bytes);
  // Starts reading logical partition lp into the free buffer.
  void start(size_t lp, const ActiveChunks& active);
  // Starts reading the next partition of the plan, unless it is served from the cache.
  void start_next(const ActiveChunks& active);
  struct Admitted {
    uint32_t chunk;
    std::byte* to;  // its cache entry
    EdgeRun* run;   // its run in the load
  };
  std::vector<Admitted> admit(size_t lp, const ActiveChunks& active, std::vector<EdgeRun>& runs);
  // Offers the device partition handed out last (processed by now) to the cache.
  void offer_served(const ActiveChunks& active);
  // Decoded cache: offers logical partition lp's chunks, just read, to the cache, decoding those it
  // takes, and points their runs at the decoded groups.
  void admit_decoded(size_t lp, const ActiveChunks& active, std::vector<EdgeRun>& runs);
  // Logical partitions for these of the round's demands, with this run's planning settings.
  std::vector<LogicalPartition> plan_demands(const ActiveChunks& active, std::vector<uint32_t> demands) const;
  // Appends `plan` to the round's plan, noting where each demand went.
  void append_plan(std::vector<LogicalPartition> plan);
  EdgeRun whole_chunk(const ChunkDemand& demand, const std::byte* data) const;
  // A chunk served from the cache, in the cache's form.
  EdgeRun cached_chunk(const ChunkDemand& demand, const std::byte* entry) const;
  // The bytes chunk c takes in the cache.
  uint64_t cached_bytes(uint32_t chunk) const;

  EngineLayout layout_;
  TChunkTable table_;
  uint64_t partition_bytes_;
  ChunkCache cache_;
  int threads_;
  Granularity granularity_;
  bool decoded_ = false;  // the cache holds packed chunks decoded (CacheForm)
  std::vector<DecodedGroups> decode_scratch_;  // per thread, for decoding chunks as they are cached
  std::optional<DeviceProfile> device_;
  std::string chunk_size_basis_;
  DoubleBuffer buffers_;  // the two logical-partition buffers and the files' readers

  PassOrder pass_order_ = PassOrder::Destination;
  uint64_t extent_bytes_ = kExtentBytes;
  std::unique_ptr<LateJoin> late_;  // made by the first Follow()

  // The round being served.
  const ActiveChunks* round_ = nullptr;
  bool counted_ = false;             // its demands carry counted active edges
  std::vector<LogicalPartition> plan_;
  std::vector<size_t> lp_of_;        // per demand: its logical partition in plan_
  size_t next_ = 0;
  struct Load {
    size_t lp = 0;
    std::vector<EdgeRun> runs;  // data filled in when it lands
  };
  std::optional<Load> in_flight_;
  std::optional<Load> last_served_;  // device partition handed out last; offered to the cache on the next call
  GraphSOStats counts_;  // what this object counts itself; io and cache come from their owners
};

}  // namespace graphso
