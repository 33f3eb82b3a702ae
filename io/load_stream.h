// Streams a list of byte ranges of some files through a DoubleBuffer: consecutive ranges are
// packed into loads that fill one buffer, and load k is handed to the caller while load k+1 is
// read. The generic sharing modes stream an engine's partitions with it; the X-Stream engine
// reads its spilled updates back with it.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "io/double_buffer.h"

namespace graphso {

class LoadStreamer {
 public:
  // buffer_bytes: each of the two buffers; at least four pages, so any range of two pages fits.
  LoadStreamer(ReaderFactory& readers, std::vector<std::string> files, uint64_t buffer_bytes);

  uint64_t buffer_bytes() const { return buffers_.buffer_bytes(); }
  uint64_t max_range_bytes() const { return buffers_.max_range_bytes(); }

  // process(first, last, data): ranges [first, last) are in memory, range k at data[k - first].
  // ends: ascending range indexes a load must not cross (a load ends at each).
  using Process = std::function<void(size_t first, size_t last, std::span<const std::byte* const> data)>;
  void stream(std::span<const FileRange> ranges, const Process& process, std::span<const size_t> ends = {});

  IoStats io_stats() const { return buffers_.io_stats(); }
  const char* backend() const { return buffers_.backend(); }

 private:
  DoubleBuffer buffers_;
};

}  // namespace graphso
