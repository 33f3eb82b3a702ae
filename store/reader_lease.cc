#include "store/reader_lease.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "base/error.h"

namespace graphso::store {

namespace {

// Leases live far past any store's bytes: a lock does not need the file to reach its range.
constexpr uint64_t kLeaseBase = uint64_t{1} << 60;

struct flock lease_range(short type, uint64_t first_seq, uint64_t seqs) {
  struct flock lock {};
  lock.l_type = type;
  lock.l_whence = SEEK_SET;
  lock.l_start = static_cast<off_t>(kLeaseBase + first_seq);
  lock.l_len = static_cast<off_t>(seqs);
  return lock;  // l_pid 0, as open-file-description locks require
}

}  // namespace

ReaderLease ReaderLease::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("{}: cannot open the store: {}", path, errno_text(errno));
  return ReaderLease(fd, path);
}

void ReaderLease::hold(uint64_t seq) {
  if (holding_ && held_ == seq) return;
  if (seq >= kLeaseBase) fail("{}: corrupt store: checkpoint {} is past any a store reaches", path_, seq);
  struct flock lock = lease_range(F_RDLCK, seq, 1);
  int rc;
  while ((rc = ::fcntl(fd_, F_OFD_SETLKW, &lock)) != 0 && errno == EINTR) {
  }
  if (rc != 0) fail("{}: cannot take a reader's lease on the store: {}", path_, errno_text(errno));
  if (holding_) {
    struct flock old = lease_range(F_UNLCK, held_, 1);
    if (::fcntl(fd_, F_OFD_SETLK, &old) != 0) fail("{}: cannot let go of a reader's lease: {}", path_, errno_text(errno));
  }
  held_ = seq;
  holding_ = true;
}

ReaderLease::~ReaderLease() {
  if (fd_ >= 0) ::close(fd_);  // drops the lease
}

ReaderLease::ReaderLease(ReaderLease&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)), held_(other.held_), holding_(other.holding_) {}

ReaderLease& ReaderLease::operator=(ReaderLease&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
    held_ = other.held_;
    holding_ = other.holding_;
  }
  return *this;
}

bool readers_before(int fd, uint64_t seq) {
  if (seq == 0) return false;
  struct flock probe = lease_range(F_WRLCK, 0, seq);
  if (::fcntl(fd, F_OFD_GETLK, &probe) != 0) fail("cannot test the store's reader leases: {}", errno_text(errno));
  return probe.l_type != F_UNLCK;
}

}  // namespace graphso::store
