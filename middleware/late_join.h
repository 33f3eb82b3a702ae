// Late join: chunks that gain work during a pass join that pass (docs/middleware.md, "Late
// join"). A round's plan holds the chunks active when it began; an asynchronous job's wave then
// reaches chunks the plan left out, which without this would wait for the next pass. After each
// logical partition, the vertices the asynchronous jobs changed since the last look (a bitmap
// difference) are mapped to the chunks where they push: the partitions and chunks whose source
// ranges hold one, then the chunk's TChunk source index for the exact count. A chunk that has not
// gone by gains the job; one no job wanted becomes a new demand. Nothing is a full
// GetActiveChunks: a chunk is looked at only when a vertex changed in its source range.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "base/bitmap.h"
#include "engine/engine_layout.h"
#include "middleware/active_chunks.h"
#include "middleware/tchunk.h"

namespace graphso {

// What the late join reads of one asynchronous job (Job::pass_changes()).
struct JobChanges {
  uint32_t job = 0;                // the index its demands carry (ChunkDemand::jobs)
  const Bitmap* changed = nullptr; // vertices changed this pass that have not pushed everywhere
  bool whole_sources_only = false; // a changed vertex pushes only in a chunk holding all its out-edges
  uint32_t view = 0;               // the graph it runs on (Job::view)
};

class LateJoin {
 public:
  LateJoin(const TChunkTable& table, const EngineLayout& layout);

  // A new pass over `active` (its demands by chunk, as GetActiveChunks made them).
  void begin_pass(const ActiveChunks& active);

  struct Joined {
    std::vector<uint32_t> grown;  // demands that gained a job, new ones included, in `active`
    uint64_t new_chunks = 0;      // of them, chunks no job wanted before in this pass
  };
  // Adds to `active` what the jobs' changes since the last call ask for: a job joins a demand for
  // which open(demand) holds (its chunk has not gone by), and a chunk without a demand gets a new
  // one at the end of active.chunks. counted: whether the pass's runs carry counted active edges
  // (a new demand then counts its changed sources' edges, the most over its jobs).
  Joined follow(ActiveChunks& active, std::span<const JobChanges> jobs, const std::function<bool(uint32_t)>& open,
                bool counted);

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  const TChunkTable& table_;
  const std::vector<uint32_t>* degrees_;
  std::vector<StaticPartition> partitions_;
  std::vector<uint64_t> views_;  // EngineLayout::partition_views
  std::vector<uint32_t> first_chunk_;  // per partition, and one past the last: chunk ids are by partition
  std::vector<uint32_t> demand_of_;    // per chunk: its demand in the pass, kNone
  size_t planned_ = 0;                 // demands the pass began with; the rest joined late
  std::vector<Bitmap> seen_;           // per job index: changes already looked at this pass
  Bitmap fresh_;
};

}  // namespace graphso
