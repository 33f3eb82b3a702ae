#include "io/load_stream.h"

#include <algorithm>

#include "base/error.h"

namespace graphso {

LoadStreamer::LoadStreamer(ReaderFactory& readers, std::vector<std::string> files, uint64_t buffer_bytes)
    : buffers_(readers, std::move(files), buffer_bytes) {
  if (buffers_.buffer_bytes() < 4 * kDirectAlignment)
    fail("read buffers of {} bytes are too small (need at least {})", buffers_.buffer_bytes(), 4 * kDirectAlignment);
}

void LoadStreamer::stream(std::span<const FileRange> ranges, const Process& process, std::span<const size_t> ends) {
  // The ranges a load starting at `from` may take: up to the next end after it.
  auto window = [&](size_t from) {
    size_t limit = ranges.size();
    for (size_t end : ends)
      if (end > from) {
        limit = std::min(limit, end);
        break;
      }
    return ranges.subspan(from, limit - from);
  };
  size_t first = 0;
  size_t count = buffers_.start(window(0));
  while (count) {
    std::vector<const std::byte*> data = buffers_.finish();
    // The next load is read while this one is processed.
    const size_t next = first + count;
    const size_t next_count = buffers_.start(window(next));
    try {
      process(first, next, data);
    } catch (...) {
      buffers_.abandon();
      throw;
    }
    first = next;
    count = next_count;
  }
}

}  // namespace graphso
