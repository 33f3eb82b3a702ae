// The store file mapped with libpmem: real PMEM or, as on machines without it, an ordinary file
// (is_pmem() false: persisting is pmem_msync). Its space is reserved (posix_fallocate) before it
// is mapped for writing, so a full device is an error up front, never a SIGBUS mid-ingest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace graphso::store {

// Which file an open descriptor or mapping is: the store's path may be renamed onto a new file
// (a store grows by being rebuilt), and two opens of the path must meet the same one.
struct FileIdentity {
  uint64_t device = 0;
  uint64_t inode = 0;
  bool operator==(const FileIdentity&) const = default;
};
FileIdentity file_identity(int fd, const std::string& path);

class PmemFile {
 public:
  // Maps the file for the store's writer, who holds its WriterLock.
  static PmemFile open(const std::string& path);
  // Maps it read-only (snapshots, store-stat): works beside a writer and on read-only media.
  static PmemFile open_read_only(const std::string& path);

  PmemFile() = default;
  ~PmemFile();
  PmemFile(PmemFile&& other) noexcept;
  PmemFile& operator=(PmemFile&& other) noexcept;
  PmemFile(const PmemFile&) = delete;
  PmemFile& operator=(const PmemFile&) = delete;

  std::byte* base() const { return base_; }
  uint64_t size() const { return size_; }
  bool is_pmem() const { return is_pmem_; }
  const std::string& path() const { return path_; }
  // Of a read-only mapping: the file it maps.
  const FileIdentity& identity() const { return identity_; }

  template <typename T>
  T* at(uint64_t offset) const { return reinterpret_cast<T*>(base_ + offset); }

 private:
  PmemFile(std::string path, std::byte* base, uint64_t size, bool is_pmem, bool read_only)
      : path_(std::move(path)), base_(base), size_(size), is_pmem_(is_pmem), read_only_(read_only) {}
  void unmap();
  std::string path_;
  std::byte* base_ = nullptr;
  uint64_t size_ = 0;
  bool is_pmem_ = false;
  bool read_only_ = false;  // mapped by mmap, not libpmem
  FileIdentity identity_;
};

// The store's one writer: an advisory lock (flock) on the store file, taken before anything is
// read or written and held while the writer lives; the kernel drops it when the process exits or
// is killed. `create` makes a missing file (the creating writer locks the file it will publish);
// errors name `store`.
class WriterLock {
 public:
  static WriterLock take(const std::string& path, const std::string& store, bool create);
  WriterLock() = default;
  ~WriterLock();
  WriterLock(WriterLock&& other) noexcept;
  WriterLock& operator=(WriterLock&& other) noexcept;
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;
  int fd() const { return fd_; }
  // Gives the locked file `bytes` of allocated space up front (posix_fallocate), so a full disk is
  // an error here rather than a SIGBUS on a page of the mapping later.
  void reserve(const std::string& path, uint64_t bytes) const;

 private:
  explicit WriterLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

// Renames temp over path and persists the rename (the directory is synced).
void publish_file(const std::string& temp, const std::string& path);

}  // namespace graphso::store
