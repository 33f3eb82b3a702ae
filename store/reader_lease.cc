#include "store/reader_lease.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "base/error.h"
#include "base/file.h"

namespace graphso::store {

namespace {

struct flock first_byte(short type) {
  struct flock lock {};
  lock.l_type = type;
  lock.l_whence = SEEK_SET;
  lock.l_start = 0;
  lock.l_len = 1;
  return lock;  // l_pid 0, as open-file-description locks require
}

}  // namespace

ReaderLease ReaderLease::take(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("{}: cannot open the store: {}", path, errno_text(errno));
  struct flock lock = first_byte(F_RDLCK);
  int rc;
  while ((rc = ::fcntl(fd, F_OFD_SETLKW, &lock)) != 0 && errno == EINTR) {
  }
  if (rc != 0) {
    const int error = errno;
    ::close(fd);
    fail("{}: cannot take a reader's lease on the store: {}", path, errno_text(error));
  }
  return ReaderLease(fd);
}

ReaderLease::~ReaderLease() {
  if (fd_ >= 0) ::close(fd_);  // drops the lease
}

ReaderLease::ReaderLease(ReaderLease&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

ReaderLease& ReaderLease::operator=(ReaderLease&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

bool readers_present(int fd) {
  struct flock probe = first_byte(F_WRLCK);
  if (::fcntl(fd, F_OFD_GETLK, &probe) != 0) fail("cannot test the store's reader leases: {}", errno_text(errno));
  return probe.l_type != F_UNLCK;
}

}  // namespace graphso::store
