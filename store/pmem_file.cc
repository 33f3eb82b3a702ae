#include "store/pmem_file.h"

#include <fcntl.h>
#include <libpmem.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <utility>

#include "base/error.h"
#include "base/staging.h"

namespace graphso::store {
PmemFile PmemFile::open(const std::string& path) {
  size_t length = 0;
  int is_pmem = 0;
  auto* base = static_cast<std::byte*>(pmem_map_file(path.c_str(), 0, 0, 0, &length, &is_pmem));
  if (!base) fail("{}: cannot map the store: {}", path, pmem_errormsg());
  return PmemFile(path, base, length, is_pmem != 0, false);
}

PmemFile PmemFile::open_read_only(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("{}: cannot open the store: {}", path, errno_text(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_size == 0) {
    ::close(fd);
    fail("{}: not a store (empty or unreadable)", path);
  }
  void* base = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
  int saved = errno;
  ::close(fd);
  if (base == MAP_FAILED) fail("{}: cannot map the store: {}", path, errno_text(saved));
  PmemFile file(path, static_cast<std::byte*>(base), static_cast<uint64_t>(st.st_size), false, true);
  file.identity_ = FileIdentity{static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)};
  return file;
}

FileIdentity file_identity(int fd, const std::string& path) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail("{}: cannot stat the store: {}", path, errno_text(errno));
  return FileIdentity{static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)};
}

void PmemFile::unmap() {
  if (!base_) return;
  if (read_only_) ::munmap(base_, size_);
  else pmem_unmap(base_, size_);
  base_ = nullptr;
}

WriterLock WriterLock::take(const std::string& path, const std::string& store, bool create) {
  // A writer that grows the store renames a new file over it while holding both files' locks: a
  // lock taken on the old file after that is on a file no longer at `path`, so it is taken again.
  for (int attempt = 0; attempt < 64; ++attempt) {
    int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), 0644);
    if (fd < 0) fail("{}: cannot open the store for writing: {}", store, errno_text(errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      int saved = errno;
      ::close(fd);
      if (saved == EWOULDBLOCK)
        fail("{}: another process is {} this store (a store has one writer; snapshot and store-stat may run beside it)",
             store, create ? "creating" : "writing to");
      fail("{}: cannot lock the store: {}", store, errno_text(saved));
    }
    struct stat locked {}, named {};
    if (::fstat(fd, &locked) == 0 && ::stat(path.c_str(), &named) == 0 && locked.st_ino == named.st_ino &&
        locked.st_dev == named.st_dev)
      return WriterLock(fd);
    ::close(fd);
  }
  fail("{}: the store file kept being replaced while its lock was taken", store);
}

void WriterLock::reserve(const std::string& path, uint64_t bytes) const {
  int rc = ::posix_fallocate(fd_, 0, static_cast<off_t>(bytes));
  if (rc != 0) fail("{}: cannot reserve the store's {} bytes on its device: {}", path, bytes, errno_text(rc));
}

WriterLock::~WriterLock() {
  if (fd_ >= 0) ::close(fd_);
}

WriterLock::WriterLock(WriterLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

WriterLock& WriterLock::operator=(WriterLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

void publish_file(const std::string& temp, const std::string& path) {
  if (::rename(temp.c_str(), path.c_str()) != 0)
    fail("{}: cannot rename {} into place: {}", path, temp, errno_text(errno));
  sync_parent_directory(path);
}

PmemFile::~PmemFile() { unmap(); }

PmemFile::PmemFile(PmemFile&& other) noexcept
    : path_(std::move(other.path_)),
      base_(std::exchange(other.base_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      is_pmem_(other.is_pmem_),
      read_only_(other.read_only_),
      identity_(other.identity_) {}

PmemFile& PmemFile::operator=(PmemFile&& other) noexcept {
  if (this != &other) {
    unmap();
    path_ = std::move(other.path_);
    base_ = std::exchange(other.base_, nullptr);
    size_ = std::exchange(other.size_, 0);
    is_pmem_ = other.is_pmem_;
    read_only_ = other.read_only_;
    identity_ = other.identity_;
  }
  return *this;
}

}  // namespace graphso::store
