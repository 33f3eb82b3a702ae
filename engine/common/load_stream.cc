#include "engine/common/load_stream.h"

#include <exception>

#include "engine/common/error.h"

namespace graphso {

LoadStreamer::LoadStreamer(ReaderFactory& readers, std::vector<std::string> files, uint64_t buffer_bytes)
    : factory_(readers), files_(std::move(files)), readers_(files_.size()),
      buffer_bytes_(align_down(buffer_bytes, kDirectAlignment)) {
  if (buffer_bytes_ < 4 * kDirectAlignment)
    fail("read buffers of {} bytes are too small (need at least {})", buffer_bytes_, 4 * kDirectAlignment);
}

ChunkReader& LoadStreamer::reader(uint32_t file) {
  if (!readers_[file]) readers_[file] = factory_.open(files_[file]);
  return *readers_[file];
}

IoStats LoadStreamer::io_stats() const {
  IoStats total;
  for (const auto& r : readers_)
    if (r) total += r->stats();
  return total;
}

const char* LoadStreamer::backend() const {
  for (const auto& r : readers_)
    if (r) return r->backend();
  return "none";
}

LoadStreamer::Load LoadStreamer::submit(std::span<const FileRange> ranges, size_t first, std::byte* buffer) {
  ReadPlan plan = plan_reads(ranges.subspan(first), buffer, buffer_bytes_);
  if (plan.placed == 0) fail("a range of {} bytes does not fit a read buffer of {}", ranges[first].length, buffer_bytes_);
  Load load{first, first + plan.placed, std::move(plan.placement), {}};
  try {
    for (uint32_t f = 0; f < files_.size(); ++f) {
      std::vector<ReadRequest> mine = reads_of_file(plan, f);
      if (mine.empty()) continue;
      reader(f).submit(mine);
      load.files.push_back(f);
    }
  } catch (...) {
    wait_quietly(load);
    throw;
  }
  return load;
}

void LoadStreamer::wait(const Load& load) {
  // Every batch lands before the first error leaves: the buffer must outlive them all.
  std::exception_ptr error;
  for (uint32_t f : load.files) {
    try {
      readers_[f]->wait();
    } catch (...) {
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
}

void LoadStreamer::wait_quietly(const Load& load) {
  try {
    wait(load);
  } catch (...) {
  }
}

void LoadStreamer::stream(std::span<const FileRange> ranges, const Process& process) {
  if (ranges.empty()) return;
  if (!buffers_[0].data())
    for (AlignedBuffer& buffer : buffers_) buffer = AlignedBuffer(buffer_bytes_);
  int slot = 0;
  Load current = submit(ranges, 0, buffers_[0].data());
  wait(current);
  while (true) {
    // The next load is read while this one is processed.
    Load next;
    const bool more = current.last < ranges.size();
    if (more) next = submit(ranges, current.last, buffers_[1 - slot].data());
    try {
      std::vector<const std::byte*> data;
      for (size_t k = current.first; k < current.last; ++k)
        data.push_back(buffers_[slot].data() + current.placement[k - current.first]);
      process(current.first, current.last, data);
    } catch (...) {
      // Let the outstanding read land before the error leaves (its buffer must outlive it).
      wait_quietly(next);
      throw;
    }
    if (!more) return;
    wait(next);
    current = std::move(next);
    slot = 1 - slot;
  }
}

}  // namespace graphso
