// A reader's claim on the pages of the checkpoint it reads (docs/store.md, "Reading beside the
// writer"). A dgap writer rewrites sections to free pages; a page that checkpoint r stopped naming
// was named by the checkpoints before r, and is reused only once no reader holds one of those. A
// reader holds its checkpoint's sequence number as an open-file-description read lock on one
// byte of the store file, at kLeaseBase + seq (a lock needs no byte of the file there): the
// kernel drops it when the reader exits or is killed, it never meets the writer's own lock
// (flock, pmem_file.h), and the writer asks the kernel whether any is held below r.
#pragma once

#include <cstdint>
#include <string>

#include "store/pmem_file.h"

namespace graphso::store {

class ReaderLease {
 public:
  // Opens the store read-only; no checkpoint is held yet.
  static ReaderLease open(const std::string& path);
  ReaderLease() = default;
  ~ReaderLease();
  ReaderLease(ReaderLease&& other) noexcept;
  ReaderLease& operator=(ReaderLease&& other) noexcept;
  ReaderLease(const ReaderLease&) = delete;
  ReaderLease& operator=(const ReaderLease&) = delete;

  // Holds checkpoint `seq` (and lets go of the one held before). The caller then checks that the
  // checkpoint is still in force: a writer that committed a later one meanwhile may not have seen
  // the lease before it reused a page.
  void hold(uint64_t seq);
  // The file the lease is taken on.
  FileIdentity identity() const { return file_identity(fd_, path_); }

 private:
  explicit ReaderLease(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_ = -1;
  std::string path_;
  uint64_t held_ = 0;
  bool holding_ = false;
};

// Whether a reader holds a checkpoint older than `seq` on the store `fd` is open on (the writer's).
bool readers_before(int fd, uint64_t seq);

}  // namespace graphso::store
