// io_uring backend: requests are sorted, merged when both file ranges and buffers are adjacent,
// split into max_request_bytes pieces, and kept queue_depth deep in the ring. Completions are
// checked one by one; each piece that has landed whole is verified against the page checksums
// while the device still works on the rest, and what is left once nothing is in flight is
// verified on the run's threads. As liburing's users do, a short count is continued with a read of the rest
// and EAGAIN asked again; a read that makes no progress (end of file), fails, or needs more than
// kMaxRetries retries is an Error.
#include <liburing.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <vector>

#include "base/error.h"
#include "base/file.h"
#include "io/chunk_reader.h"

namespace graphso {
namespace {

constexpr uint32_t kMaxRetries = 64;

class Ring {
 public:
  explicit Ring(uint32_t depth) {
    int rc = io_uring_queue_init(depth, &ring_, 0);
    if (rc < 0) throw UringUnavailable(fmt::format("io_uring unavailable: {}", errno_text(-rc)));
  }
  ~Ring() { io_uring_queue_exit(&ring_); }
  Ring(const Ring&) = delete;
  Ring& operator=(const Ring&) = delete;
  io_uring* get() { return &ring_; }

 private:
  io_uring ring_{};
};

class UringReader final : public ChunkReader {
 public:
  UringReader(const std::string& path, const ReaderOptions& options)
      : file_(path, options.direct ? File::Mode::ReadDirect : File::Mode::Read),
        ring_(options.queue_depth),
        options_(options) {}

  const char* backend() const override { return "uring"; }

  void submit(std::span<const ReadRequest> requests) override {
    if (!pending_.empty() || in_flight_ > 0) fail("{}: submit() with a batch still outstanding", file_.path());
    forget_landed();  // what an earlier batch that failed left
    std::vector<ReadRequest> sorted(requests.begin(), requests.end());
    std::sort(sorted.begin(), sorted.end(),
              [](const ReadRequest& a, const ReadRequest& b) { return a.offset < b.offset; });
    std::vector<ReadRequest> merged;
    for (const ReadRequest& r : sorted) {
      if (r.length == 0) continue;
      if (options_.direct && (r.offset % kDirectAlignment || r.length % kDirectAlignment ||
                              reinterpret_cast<uintptr_t>(r.dest) % kDirectAlignment))
        fail("{}: unaligned O_DIRECT read ({} bytes at {})", file_.path(), r.length, r.offset);
      if (!merged.empty() && merged.back().offset + merged.back().length == r.offset &&
          merged.back().dest + merged.back().length == r.dest)
        merged.back().length += r.length;
      else
        merged.push_back(r);
    }
    for (const ReadRequest& r : merged)
      for (uint64_t done = 0; done < r.length; done += options_.max_request_bytes) {
        const ReadRequest piece{r.offset + done, std::min(options_.max_request_bytes, r.length - done), r.dest + done};
        pending_.push_back({piece, piece, piece.length, 0});
      }
    ++stats_.batches;
    fill_ring();
  }

  void wait() override {
    auto start = std::chrono::steady_clock::now();
    while (in_flight_ > 0) {
      io_uring_cqe* cqe = nullptr;
      // While the device works on the rest, what has landed is verified.
      if (io_uring_peek_cqe(ring_.get(), &cqe) != 0 || !cqe) {
        cqe = nullptr;
        if (verify_or_abandon()) continue;
      }
      int rc = cqe ? 0 : io_uring_wait_cqe(ring_.get(), &cqe);
      if (rc == -EINTR) continue;
      if (rc < 0) fail("{}: io_uring wait failed: {}", file_.path(), errno_text(-rc));
      const Read read = *static_cast<Read*>(io_uring_cqe_get_data(cqe));
      const int result = cqe->res;
      io_uring_cqe_seen(ring_.get(), cqe);
      --in_flight_;
      if (result == -EAGAIN || result == -EINTR) {  // nothing read: ask again
        retry(read, read.rest);
        continue;
      }
      if (result < 0) {
        abandon();
        fail("{}: read of {} bytes at offset {} failed: {}", file_.path(), read.whole.length, read.whole.offset,
             errno_text(-result));
      }
      const uint64_t got = static_cast<uint64_t>(result);
      stats_.bytes_read += got;
      if (got < read.rest.length) {
        // A count short of what was wanted: the rest is read again, unless nothing came (the end
        // of the file) or, with O_DIRECT, an unaligned count (the end of the file inside a block).
        const uint64_t done = read.rest.offset + got - read.whole.offset;
        if (got == 0 || (options_.direct && got % kDirectAlignment != 0)) {
          abandon();
          fail("{}: short read: {} of {} bytes at offset {} (file truncated?)", file_.path(), done, read.whole.length,
               read.whole.offset);
        }
        retry(read, {read.rest.offset + got, read.rest.length - got, read.rest.dest + got});
        continue;
      }
      landed(read.whole);
      fill_ring();
    }
    in_ring_.clear();
    verify_landed(file_.path());
    stats_.wait_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

 private:
  // One piece of a request: the whole piece, what is still to read of it, how much of that the
  // ring is asked for, and the retries so far.
  struct Read {
    ReadRequest whole;
    ReadRequest rest;
    uint64_t asked;
    uint32_t retries;
  };

  // Verifies one landed piece; on a mismatch the batch is drained first. False: none to verify.
  bool verify_or_abandon() {
    try {
      return verify_one(file_.path());
    } catch (...) {
      abandon();
      throw;
    }
  }

  void retry(const Read& read, const ReadRequest& rest) {
    if (read.retries + 1 > kMaxRetries) {
      abandon();
      fail("{}: read of {} bytes at offset {} made no progress after {} retries", file_.path(), read.whole.length,
           read.whole.offset, kMaxRetries);
    }
    ++stats_.retries;
    pending_.push_front({read.whole, rest, rest.length, read.retries + 1});
    fill_ring();
  }

  void fill_ring() {
    bool added = false;
    while (!pending_.empty() && in_flight_ < options_.queue_depth) {
      io_uring_sqe* sqe = io_uring_get_sqe(ring_.get());
      if (!sqe) break;
      in_ring_.push_back(pending_.front());
      pending_.pop_front();
      Read& r = in_ring_.back();
      // Tests: ask for half (aligned) now and then, for the retry path to run on real reads.
      const uint64_t half = align_down(r.rest.length / 2, options_.direct ? kDirectAlignment : 1);
      if (options_.short_read_every && ++submitted_ % options_.short_read_every == 0 && half > 0) r.asked = half;
      io_uring_prep_read(sqe, file_.fd(), r.rest.dest, static_cast<unsigned>(r.asked), r.rest.offset);
      io_uring_sqe_set_data(sqe, &r);
      ++in_flight_;
      ++stats_.requests;
      added = true;
    }
    if (added) {
      int rc = io_uring_submit(ring_.get());
      if (rc < 0) fail("{}: io_uring submit failed: {}", file_.path(), errno_text(-rc));
    }
  }

  // After an error: drain what is still in flight so no completion writes into freed memory.
  void abandon() {
    pending_.clear();
    forget_landed();
    while (in_flight_ > 0) {
      io_uring_cqe* cqe = nullptr;
      if (io_uring_wait_cqe(ring_.get(), &cqe) < 0) break;
      io_uring_cqe_seen(ring_.get(), cqe);
      --in_flight_;
    }
    in_ring_.clear();
  }

  File file_;  // opened before the ring: a missing file is an Error, not a reason to fall back
  Ring ring_;
  ReaderOptions options_;
  std::deque<Read> pending_;
  std::deque<Read> in_ring_;  // stable addresses for user_data until the batch ends
  uint32_t in_flight_ = 0;
  uint64_t submitted_ = 0;
};

}  // namespace

std::unique_ptr<ChunkReader> open_uring_reader(const std::string& path, const ReaderOptions& options) {
  return std::make_unique<UringReader>(path, options);
}

}  // namespace graphso
