// Two aligned buffers and the files' readers: one load is read into one buffer while the caller
// works on the other. Every loader goes through it: the engines' own streaming (LoadStreamer),
// the X-Stream engine reading spilled updates back, and GraphSO's logical partitions.
//
//   start(ranges)  places as many ranges (from the front) as fit one buffer (ranges that follow
//                  each other in a file become one read) and submits the reads: one batch per
//                  file, all in flight at once. At most one load is in flight.
//   finish()       waits for it; its ranges are then in memory, and the buffer handed out before
//                  is free for the next start().
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/file.h"
#include "io/chunk_reader.h"
#include "io/read_plan.h"

namespace graphso {

class DoubleBuffer {
 public:
  // files: indexed by FileRange::file; opened on first use. buffer_bytes: each of the two
  // buffers, allocated on first use.
  DoubleBuffer(ReaderFactory& readers, std::vector<std::string> files, uint64_t buffer_bytes);
  ~DoubleBuffer();  // a load still in flight lands first: its buffer must outlive the reads
  DoubleBuffer(const DoubleBuffer&) = delete;
  DoubleBuffer& operator=(const DoubleBuffer&) = delete;

  uint64_t buffer_bytes() const { return buffer_bytes_; }
  // The largest range that always fits a buffer (one starting mid-page needs a page of slack on
  // either side).
  uint64_t max_range_bytes() const { return buffer_bytes_ - 2 * kDirectAlignment; }
  bool in_flight() const { return in_flight_.has_value(); }

  // Starts the next load; returns how many ranges it holds (0 only for an empty span). A first
  // range that does not fit is an error.
  size_t start(std::span<const FileRange> ranges);
  // Waits for the load in flight; where each of its ranges is, in order. The first read error
  // is thrown once every read of the load has landed.
  std::vector<const std::byte*> finish();
  // Lets a load in flight land, ignoring its errors (an error is leaving the caller).
  void abandon();

  // A free buffer for a one-off use between loads (the device probe); none may be in flight.
  std::byte* scratch();

  IoStats io_stats() const;
  // The backend of the readers in use ("uring", "pread" after a fallback, "pmem"); "none" before any read.
  const char* backend() const;

 private:
  struct Load {
    int slot = 0;
    std::vector<uint64_t> placement;  // buffer offset of each range's first byte
    std::vector<uint32_t> files;      // files with a batch in flight
  };
  ChunkReader& reader(uint32_t file);
  std::byte* buffer(int slot);
  void wait(const Load& load);

  ReaderFactory& factory_;
  std::vector<std::string> files_;
  std::vector<std::unique_ptr<ChunkReader>> readers_;
  AlignedBuffer buffers_[2];
  uint64_t buffer_bytes_ = 0;
  int served_ = -1;  // the buffer handed out by the last finish()
  std::optional<Load> in_flight_;
};

}  // namespace graphso
