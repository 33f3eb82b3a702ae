// The face of the I/O layer: read byte ranges of one file into memory, asynchronously where the
// backend can, and account every byte. Backends:
//   uring  io_uring, O_DIRECT, batched submissions, adjacent requests merged (default)
//   pmem   libpmem mapping of the file (PMDK), copied out with memcpy
//   pread  plain pread, O_DIRECT; the fallback when io_uring cannot be set up
// A failed or short read is an Error: the engine never continues with missing data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "base/error.h"

namespace graphso {

struct ReadRequest {
  uint64_t offset = 0;
  uint64_t length = 0;
  std::byte* dest = nullptr;
};

struct IoStats {
  uint64_t bytes_read = 0;     // bytes transferred from the device (or PMEM mapping)
  uint64_t requests = 0;       // device requests after merging and splitting
  uint64_t batches = 0;        // submit() calls
  double wait_seconds = 0;     // time blocked in wait() (or doing synchronous reads)
  uint64_t retries = 0;        // reads continued after a short count or asked again after EAGAIN
  IoStats& operator+=(const IoStats& o) {
    bytes_read += o.bytes_read;
    requests += o.requests;
    retries += o.retries;
    batches += o.batches;
    wait_seconds += o.wait_seconds;
    return *this;
  }
};

enum class IoBackend { Uring, Pmem, Pread };

// Thrown only when an io_uring instance cannot be created (old kernel, seccomp, limits).
class UringUnavailable : public Error {
 public:
  using Error::Error;
};
IoBackend parse_io_backend(const std::string& name);
const char* io_backend_name(IoBackend backend);

struct ReaderOptions {
  IoBackend backend = IoBackend::Uring;
  bool direct = true;             // O_DIRECT; false only for comparison runs (--buffered)
  uint32_t queue_depth = 64;
  uint64_t max_request_bytes = 1ull << 20;  // larger reads are split into pieces of this size
  // Tests only (uring): every Nth read is first asked for half its length, as a device returning a
  // short count would answer, so the retry of the rest runs on real completions. 0: never.
  uint32_t short_read_every = 0;
};

class ChunkReader {
 public:
  virtual ~ChunkReader() = default;
  // Starts reading every request. With O_DIRECT, offsets, lengths and buffers must be
  // 4096-aligned. At most one batch is outstanding: call wait() before the next submit().
  virtual void submit(std::span<const ReadRequest> requests) = 0;
  // Blocks until the submitted batch is complete; throws Error on a failed or short read.
  virtual void wait() = 0;
  void read(std::span<const ReadRequest> requests) {
    submit(requests);
    wait();
  }
  virtual const char* backend() const = 0;
  const IoStats& stats() const { return stats_; }

 protected:
  IoStats stats_;
};

// Creates readers for a run. Owns the run's one-time "io_uring unavailable" notice. Tests
// derive from it to wrap readers (fault injection).
class ReaderFactory {
 public:
  explicit ReaderFactory(ReaderOptions options) : options_(options) {}
  virtual ~ReaderFactory() = default;
  virtual std::unique_ptr<ChunkReader> open(const std::string& path);
  const ReaderOptions& options() const { return options_; }

 private:
  ReaderOptions options_;
  bool fallback_noted_ = false;
};

std::unique_ptr<ChunkReader> open_uring_reader(const std::string& path, const ReaderOptions& options);
std::unique_ptr<ChunkReader> open_pmem_reader(const std::string& path);
std::unique_ptr<ChunkReader> open_pread_reader(const std::string& path, const ReaderOptions& options);

}  // namespace graphso
