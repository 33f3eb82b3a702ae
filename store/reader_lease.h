// A reader's claim on the pages of the checkpoint it reads (docs/store.md, "Reading beside the
// writer"). A dgap writer rewrites sections to free pages, and a page the checkpoint in force no
// longer names becomes free: it is reused only while no reader holds a lease, so a snapshot or a
// run that started from an older checkpoint never reads a page written over. The lease is an
// open-file-description read lock on the store file's first byte: the kernel drops it when the
// reader exits or is killed, and it never meets the writer's own lock (flock, pmem_file.h).
#pragma once

#include <string>

namespace graphso::store {

class ReaderLease {
 public:
  // Opens the store read-only and takes the lease (waiting only for another process's test of it).
  static ReaderLease take(const std::string& path);
  ReaderLease() = default;
  ~ReaderLease();
  ReaderLease(ReaderLease&& other) noexcept;
  ReaderLease& operator=(ReaderLease&& other) noexcept;
  ReaderLease(const ReaderLease&) = delete;
  ReaderLease& operator=(const ReaderLease&) = delete;

 private:
  explicit ReaderLease(int fd) : fd_(fd) {}
  int fd_ = -1;
};

// Whether some process holds a lease on the store that `fd` (the writer's, open for writing) is.
bool readers_present(int fd);

}  // namespace graphso::store
