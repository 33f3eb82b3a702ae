// Streams byte ranges of an engine's files into memory, double-buffered: consecutive ranges are
// packed into loads that fill one of two aligned buffers (ranges that follow each other in a
// file become one read), each load is submitted as one batch per file (many requests in
// flight), and load k is handed to the caller while load k+1 is read. Both engines stream their
// own partitions with it; the X-Stream engine also reads its spilled updates back with it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/common/file.h"
#include "middleware/io/chunk_reader.h"
#include "middleware/io/read_plan.h"

namespace graphso {

class LoadStreamer {
 public:
  // files: indexed by FileRange::file; opened on first use. buffer_bytes: each of the two
  // buffers, allocated on the first stream().
  LoadStreamer(ReaderFactory& readers, std::vector<std::string> files, uint64_t buffer_bytes);

  uint64_t buffer_bytes() const { return buffer_bytes_; }
  // The largest range that always fits a load (a range starting mid-page needs a page of slack
  // on either side).
  uint64_t max_range_bytes() const { return buffer_bytes_ - 2 * kDirectAlignment; }

  // process(first, last, data): ranges [first, last) are in memory, range k at data[k - first].
  using Process = std::function<void(size_t first, size_t last, std::span<const std::byte* const> data)>;
  void stream(std::span<const FileRange> ranges, const Process& process);

  IoStats io_stats() const;
  // The backend of the readers in use ("uring", "pread" after a fallback, "pmem"); "none" before any read.
  const char* backend() const;

 private:
  struct Load {
    size_t first = 0, last = 0;
    std::vector<uint64_t> placement;  // buffer offset of each range's first byte
    std::vector<uint32_t> files;      // files with a batch in flight
  };
  ChunkReader& reader(uint32_t file);
  Load submit(std::span<const FileRange> ranges, size_t first, std::byte* buffer);
  void wait(const Load& load);
  void wait_quietly(const Load& load);

  ReaderFactory& factory_;
  std::vector<std::string> files_;
  std::vector<std::unique_ptr<ChunkReader>> readers_;
  AlignedBuffer buffers_[2];
  uint64_t buffer_bytes_ = 0;
};

}  // namespace graphso
