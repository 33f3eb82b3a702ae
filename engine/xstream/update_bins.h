// X-Stream's update buffers: what the scatter phase emits, binned by destination partition per
// job, held in memory up to a budget and spilled to disk beyond it, until the gather phase
// drains them.
//
// Each scatter thread has bins of its own: add() shuffles a run of update records into the
// calling thread's bins (counted first, then copied, so a bin grows once per run) without a
// lock; only the bins' total memory (their capacity) is one shared atomic count. When it passes
// the budget, the thread either applies all its bins at once (an `overflow` function,
// UpdateOverflow::Apply) and keeps their memory for what it scatters next, giving back its
// largest only while the total is still over the budget; or writes its largest bins to the
// spill file (io/spill_file.h; the one lock is around the file) in pieces of whole records and
// frees them, until the total is down to half the budget or its bins are empty. So the budget
// can be passed by at most one run per thread. A bin grows without zeroing what it grows by
// (every byte is written by the copy that follows). The gather phase
// drains a job's updates partition by partition: its spilled pieces read back through the I/O
// layer (LoadStreamer, every byte counted), then those still in memory.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include <boost/container/vector.hpp>
#include <libdivide.h>

#include "engine/engine.h"
#include "engine/gridgraph/grid_meta.h"
#include "io/chunk_reader.h"
#include "io/spill_file.h"

namespace graphso {

class UpdateBins {
 public:
  // threads: how many threads call add() (each passes its index). record_bytes: per job index,
  // the size of its update records (0: the job emits none).
  // memory_bytes: the bins' budget. spill_piece: bytes per spill write (a multiple of 4096);
  // the staging buffer and each read buffer are this size. spill_path: created on the first
  // spill, removed with the bins. verify_reads: spilled pages are checksummed as they are written
  // and verified as they are read back. overflow: if given, full bins are handed to it (from the
  // thread that filled them, several threads at once) instead of spilled.
  using Apply = std::function<void(uint32_t job, std::span<const std::byte> records)>;
  UpdateBins(const GridMeta& meta, int threads, std::vector<uint32_t> record_bytes, uint64_t memory_bytes,
             uint64_t spill_piece, std::string spill_path, bool verify_reads, Apply overflow = {});
  UpdateBins(const UpdateBins&) = delete;
  UpdateBins& operator=(const UpdateBins&) = delete;

  // updates: whole records of the job. Threads call it at once, each with its own index.
  void add(int thread, uint32_t job, std::span<const std::byte> updates);

  // Hands every update of the jobs to apply(job, records), destination partition by destination
  // partition, and empties their bins. Not while add() runs.
  void drain(std::span<const uint32_t> jobs, ReaderFactory& readers, const Apply& apply);

  UpdateCounters counters() const;
  uint64_t memory_bytes() const { return memory_.load(); }

 private:
  struct Segment {  // one spill write
    uint32_t job = 0, partition = 0;
    uint64_t offset = 0, bytes = 0;
  };
  using Bin = boost::container::vector<std::byte>;  // grows by default_init: not zeroed
  // One thread's bins and scratch; only that thread touches it during scatter.
  struct Shard {
    std::vector<Bin> bins;                     // job * partitions + partition
    std::vector<uint32_t> partition_of;        // scratch: each record's destination partition
    std::vector<uint64_t> per_partition;       // scratch: records per destination partition
    std::vector<std::byte*> bin_data;          // scratch: the job's bins, by destination partition
    uint64_t records = 0, bytes = 0;
  };
  void shed_own(Shard& shard);  // applies all the thread's bins, or spills its largest, as above
  void release(Shard& shard, size_t bin);
  void spill(Shard& shard, size_t bin);

  const GridMeta& meta_;
  uint32_t partitions_ = 0;
  // Each record's destination partition is its id over the range size: a multiply and a shift
  // instead of a hardware division (which took 60% of add()'s time).
  libdivide::divider<uint32_t> range_divider_;
  std::vector<uint32_t> record_bytes_;
  uint64_t budget_ = 0;
  std::vector<Shard> shards_;
  Apply overflow_;
  std::atomic<uint64_t> applied_early_{0};
  std::atomic<uint64_t> memory_{0};  // all bins' capacity in bytes
  std::mutex spill_mutex_;           // the spill file and segments_
  SpillFile spill_;
  std::vector<Segment> segments_;
  uint64_t bytes_read_ = 0;
};

}  // namespace graphso
