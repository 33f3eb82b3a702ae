#include "io/double_buffer.h"

#include <exception>

#include "base/error.h"

namespace graphso {

DoubleBuffer::DoubleBuffer(ReaderFactory& readers, std::vector<std::string> files, uint64_t buffer_bytes)
    : factory_(readers), files_(std::move(files)), readers_(files_.size()),
      buffer_bytes_(align_down(buffer_bytes, kDirectAlignment)) {
  if (buffer_bytes_ < kDirectAlignment)
    fail("read buffers of {} bytes are too small (need at least {})", buffer_bytes, kDirectAlignment);
}

DoubleBuffer::~DoubleBuffer() { abandon(); }

ChunkReader& DoubleBuffer::reader(uint32_t file) {
  if (!readers_[file]) readers_[file] = factory_.open(files_[file]);
  return *readers_[file];
}

std::byte* DoubleBuffer::buffer(int slot) {
  if (!buffers_[slot].data()) buffers_[slot] = AlignedBuffer(buffer_bytes_);
  return buffers_[slot].data();
}

std::byte* DoubleBuffer::scratch() {
  if (in_flight_) fail("the scratch buffer was asked for while a load is in flight");
  return buffer(served_ == 0 ? 1 : 0);
}

IoStats DoubleBuffer::io_stats() const {
  IoStats total;
  for (const auto& r : readers_)
    if (r) total += r->stats();
  return total;
}

const char* DoubleBuffer::backend() const {
  for (const auto& r : readers_)
    if (r) return r->backend();
  return "none";
}

size_t DoubleBuffer::start(std::span<const FileRange> ranges) {
  if (in_flight_) fail("a load was started while another is in flight");
  if (ranges.empty()) return 0;
  const int slot = served_ == 0 ? 1 : 0;
  ReadPlan plan = plan_reads(ranges, buffer(slot), buffer_bytes_);
  if (plan.placed == 0) fail("a range of {} bytes does not fit a read buffer of {}", ranges[0].length, buffer_bytes_);
  in_flight_ = Load{slot, std::move(plan.placement), {}};
  try {
    for (uint32_t f = 0; f < files_.size(); ++f) {
      std::vector<ReadRequest> mine = reads_of_file(plan, f);
      if (mine.empty()) continue;
      reader(f).submit(mine);
      in_flight_->files.push_back(f);
    }
  } catch (...) {
    abandon();  // the batches already submitted land before the error leaves
    throw;
  }
  return plan.placed;
}

void DoubleBuffer::wait(const Load& load) {
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

std::vector<const std::byte*> DoubleBuffer::finish() {
  if (!in_flight_) fail("no load in flight to finish");
  Load load = std::move(*in_flight_);
  in_flight_.reset();
  wait(load);
  served_ = load.slot;
  std::vector<const std::byte*> data;
  data.reserve(load.placement.size());
  for (uint64_t at : load.placement) data.push_back(buffers_[load.slot].data() + at);
  return data;
}

void DoubleBuffer::abandon() {
  if (!in_flight_) return;
  Load load = std::move(*in_flight_);
  in_flight_.reset();
  try {
    wait(load);
  } catch (...) {
  }
}

}  // namespace graphso
