// X-Stream's update buffers: what the scatter phase emits, binned by destination partition per
// job, held in memory up to a budget and spilled to disk beyond it, until the gather phase
// drains them.
//
// Scatter threads add() runs of update records; a run is shuffled into the job's bins under one
// lock (counted first, then copied, so a bin grows once per run). When the bins' memory passes
// the budget, the largest bins are written to the spill file (middleware/io/spill_file.h), in
// pieces of whole records, until they take half the budget. The gather phase
// drains a job's updates partition by partition: its spilled pieces read back through the I/O
// layer (LoadStreamer, every byte counted), then those still in memory.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "engine/gridgraph/grid_meta.h"
#include "middleware/io/chunk_reader.h"
#include "middleware/io/spill_file.h"

namespace graphso {

struct UpdateCounters {
  uint64_t records = 0;        // update records emitted by scatter
  uint64_t bytes = 0;          // their bytes
  uint64_t bytes_written = 0;  // spilled to disk (whole pages, as written)
  uint64_t bytes_read = 0;     // read back from disk in the gather phase
  uint64_t spills = 0;         // spill writes
  UpdateCounters& operator+=(const UpdateCounters& o) {
    records += o.records;
    bytes += o.bytes;
    bytes_written += o.bytes_written;
    bytes_read += o.bytes_read;
    spills += o.spills;
    return *this;
  }
};

class UpdateBins {
 public:
  // record_bytes: per job index, the size of its update records (0: the job emits none).
  // memory_bytes: the bins' budget. spill_piece: bytes per spill write (a multiple of 4096);
  // the staging buffer and each read buffer are this size. spill_path: created on the first
  // spill, removed with the bins.
  UpdateBins(const GridMeta& meta, std::vector<uint32_t> record_bytes, uint64_t memory_bytes, uint64_t spill_piece,
             std::string spill_path);
  UpdateBins(const UpdateBins&) = delete;
  UpdateBins& operator=(const UpdateBins&) = delete;

  // Thread-safe. updates: whole records of the job.
  void add(uint32_t job, std::span<const std::byte> updates);

  // Hands every update of the jobs to apply(job, records), destination partition by destination
  // partition, and empties their bins.
  using Apply = std::function<void(uint32_t job, std::span<const std::byte> records)>;
  void drain(std::span<const uint32_t> jobs, ReaderFactory& readers, const Apply& apply);

  const UpdateCounters& counters() const { return counters_; }
  IoStats spill_io() const { return spill_io_; }
  uint64_t memory_bytes() const { return memory_; }

 private:
  struct Segment {  // one spill write
    uint32_t job = 0, partition = 0;
    uint64_t offset = 0, bytes = 0;
  };
  std::vector<std::byte>& bin(uint32_t job, uint32_t partition) { return bins_[job * partitions_ + partition]; }
  void spill_until(uint64_t target);
  void spill(uint32_t job, uint32_t partition);

  const GridMeta& meta_;
  uint32_t partitions_ = 0;
  std::vector<uint32_t> record_bytes_;
  uint64_t budget_ = 0;
  std::mutex mutex_;
  std::vector<std::vector<std::byte>> bins_;  // job * partitions + partition
  uint64_t memory_ = 0;                       // bins' capacity in bytes
  SpillFile spill_;
  std::vector<Segment> segments_;
  UpdateCounters counters_;
  IoStats spill_io_;
};

}  // namespace graphso
