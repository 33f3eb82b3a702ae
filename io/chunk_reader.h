// The face of the I/O layer: read byte ranges of one file into memory, asynchronously where the
// backend can, and account every byte. Backends:
//   uring  io_uring, O_DIRECT, batched submissions, adjacent requests merged (default)
//   pmem   libpmem mapping of the file (PMDK), copied out with memcpy
//   pread  plain pread, O_DIRECT; the fallback when io_uring cannot be set up
// A failed or short read is an Error: the engine never continues with missing data. A reader
// given its file's page checksums verifies every piece as it lands (io/page_sums.h): a corrupt
// page is an Error too, before any job sees it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <map>
#include <string>
#include <vector>

#include "base/error.h"
#include "io/page_sums.h"

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
  // Every read is checked against the file's page checksums; off (--verify-reads off) only to
  // measure what checking costs.
  bool verify_reads = true;
  // Threads that verify what has landed once a batch has no read left in flight (0: all cores).
  int verify_threads = 0;
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
  // From now on every piece that lands is verified against these sums (null: none), by `threads`
  // threads (0: all cores) where there is no read to wait for.
  void verify_with(std::shared_ptr<const PageSums> sums, int threads);

 protected:
  // Verification, for the backends: each piece that has landed whole is handed to landed();
  // while reads are still in flight, verify_one() checks one landed piece (the device is busy
  // meanwhile); before wait() returns, verify_landed() checks the rest on the verify threads.
  // A mismatch is an Error naming the file, the page and the read.
  void landed(const ReadRequest& piece);
  bool verify_one(const std::string& path);
  void verify_landed(const std::string& path);
  void forget_landed() { landed_.clear(); }
  IoStats stats_;

 private:
  std::shared_ptr<const PageSums> sums_;
  int verify_threads_ = 1;
  std::vector<ReadRequest> landed_;  // landed, not yet verified
};

// Creates readers for a run. Owns the run's one-time "io_uring unavailable" notice. Tests
// derive from it to wrap readers (fault injection).
class ReaderFactory {
 public:
  explicit ReaderFactory(ReaderOptions options) : options_(options) {}
  virtual ~ReaderFactory() = default;
  // A reader of `path` that verifies what it reads (unless verify_reads is off) with the sums
  // given to use_page_sums() for it, or else with its sidecar, loaded once per factory.
  virtual std::unique_ptr<ChunkReader> open(const std::string& path);
  const ReaderOptions& options() const { return options_; }

  // The sums that reads of `path` are verified with: null when verify_reads is off. Loads the
  // sidecar on first use, so a missing or damaged one is an Error before any read.
  std::shared_ptr<const PageSums> page_sums(const std::string& path);
  // Sums kept by whoever writes `path` (a spill file), used instead of a sidecar.
  void use_page_sums(const std::string& path, std::shared_ptr<const PageSums> sums);

 private:
  ReaderOptions options_;
  bool fallback_noted_ = false;
  std::map<std::string, std::shared_ptr<const PageSums>> sums_;
};

std::unique_ptr<ChunkReader> open_uring_reader(const std::string& path, const ReaderOptions& options);
std::unique_ptr<ChunkReader> open_pmem_reader(const std::string& path);
std::unique_ptr<ChunkReader> open_pread_reader(const std::string& path, const ReaderOptions& options);

}  // namespace graphso
