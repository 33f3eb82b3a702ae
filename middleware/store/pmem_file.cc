#include "middleware/store/pmem_file.h"

#include <fcntl.h>
#include <libpmem.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <utility>

#include "engine/common/error.h"

namespace graphso::store {
PmemFile PmemFile::create(const std::string& path, uint64_t bytes) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL, 0644);
  if (fd < 0) fail("{}: cannot create the store: {}", path, errno_text(errno));
  // ftruncate, not pmem_map_file's posix_fallocate: the regions stay sparse until written.
  int rc = ::ftruncate(fd, static_cast<off_t>(bytes));
  int saved = errno;
  ::close(fd);
  if (rc != 0) {
    ::unlink(path.c_str());
    fail("{}: cannot size the store to {} bytes: {}", path, bytes, errno_text(saved));
  }
  return open(path);
}

PmemFile PmemFile::open(const std::string& path) {
  size_t length = 0;
  int is_pmem = 0;
  auto* base = static_cast<std::byte*>(pmem_map_file(path.c_str(), 0, 0, 0, &length, &is_pmem));
  if (!base) fail("{}: cannot map the store: {}", path, pmem_errormsg());
  return PmemFile(path, base, length, is_pmem != 0);
}

void publish_file(const std::string& temp, const std::string& path) {
  if (::rename(temp.c_str(), path.c_str()) != 0)
    fail("{}: cannot rename {} into place: {}", path, temp, errno_text(errno));
  std::string dir = std::filesystem::path(path).parent_path().string();
  int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) fail("{}: cannot open its directory to sync it: {}", path, errno_text(errno));
  int rc = ::fsync(fd);
  int saved = errno;
  ::close(fd);
  if (rc != 0) fail("{}: cannot sync its directory: {}", path, errno_text(saved));
}

PmemFile::~PmemFile() {
  if (base_) pmem_unmap(base_, size_);
}

PmemFile::PmemFile(PmemFile&& other) noexcept
    : path_(std::move(other.path_)),
      base_(std::exchange(other.base_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      is_pmem_(other.is_pmem_) {}

PmemFile& PmemFile::operator=(PmemFile&& other) noexcept {
  if (this != &other) {
    if (base_) pmem_unmap(base_, size_);
    path_ = std::move(other.path_);
    base_ = std::exchange(other.base_, nullptr);
    size_ = std::exchange(other.size_, 0);
    is_pmem_ = other.is_pmem_;
  }
  return *this;
}

}  // namespace graphso::store
