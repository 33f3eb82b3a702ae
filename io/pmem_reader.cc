// libpmem backend: the file is mapped with pmem_map_file (real PMEM or, as on machines without
// it, an ordinary file) and requests are copied out of the mapping.
#include <libpmem.h>

#include <chrono>
#include <cstring>

#include "base/error.h"
#include "io/chunk_reader.h"

namespace graphso {
namespace {

class PmemMapping {
 public:
  explicit PmemMapping(const std::string& path) : path_(path) {
    base_ = static_cast<std::byte*>(pmem_map_file(path.c_str(), 0, 0, 0, &length_, &is_pmem_));
    if (!base_) fail("{}: pmem_map_file failed: {}", path, pmem_errormsg());
  }
  ~PmemMapping() { pmem_unmap(base_, length_); }
  PmemMapping(const PmemMapping&) = delete;
  PmemMapping& operator=(const PmemMapping&) = delete;
  const std::byte* base() const { return base_; }
  uint64_t length() const { return length_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::byte* base_ = nullptr;
  size_t length_ = 0;
  int is_pmem_ = 0;
};

class PmemReader final : public ChunkReader {
 public:
  explicit PmemReader(const std::string& path) : mapping_(path) {}
  const char* backend() const override { return "pmem"; }

  void submit(std::span<const ReadRequest> requests) override {
    auto start = std::chrono::steady_clock::now();
    forget_landed();  // what an earlier batch that failed left
    ++stats_.batches;
    for (const ReadRequest& r : requests) {
      if (r.offset > mapping_.length() || r.length > mapping_.length() - r.offset)
        fail("{}: short read: {} bytes at offset {} past the end ({} bytes)", mapping_.path(),
             r.length, r.offset, mapping_.length());
      std::memcpy(r.dest, mapping_.base() + r.offset, r.length);
      landed(r);
      stats_.bytes_read += r.length;
      ++stats_.requests;
    }
    stats_.wait_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    verify_landed(mapping_.path());
  }
  void wait() override {}

 private:
  PmemMapping mapping_;
};

}  // namespace

std::unique_ptr<ChunkReader> open_pmem_reader(const std::string& path) {
  return std::make_unique<PmemReader>(path);
}

}  // namespace graphso
