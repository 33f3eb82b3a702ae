// pread backend: synchronous reads in submit(); the fallback when io_uring is unavailable.
#include <chrono>

#include "base/error.h"
#include "base/file.h"
#include "io/chunk_reader.h"

namespace graphso {
namespace {

class PreadReader final : public ChunkReader {
 public:
  PreadReader(const std::string& path, const ReaderOptions& options)
      : file_(path, options.direct ? File::Mode::ReadDirect : File::Mode::Read), options_(options) {}

  const char* backend() const override { return "pread"; }

  void submit(std::span<const ReadRequest> requests) override {
    auto start = std::chrono::steady_clock::now();
    forget_landed();  // what an earlier batch that failed left
    ++stats_.batches;
    for (const ReadRequest& r : requests) {
      for (uint64_t done = 0; done < r.length; done += options_.max_request_bytes) {
        uint64_t piece = std::min(options_.max_request_bytes, r.length - done);
        file_.pread_exact(std::span<std::byte>(r.dest + done, piece), r.offset + done);
        landed({r.offset + done, piece, r.dest + done});
        stats_.bytes_read += piece;
        ++stats_.requests;
      }
    }
    stats_.wait_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    verify_landed(file_.path());
  }
  void wait() override {}

 private:
  File file_;
  ReaderOptions options_;
};

}  // namespace

std::unique_ptr<ChunkReader> open_pread_reader(const std::string& path, const ReaderOptions& options) {
  return std::make_unique<PreadReader>(path, options);
}

}  // namespace graphso
