#include "base/file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "base/error.h"
#include "base/staging.h"

namespace graphso {

std::string errno_text(int error_number) {
  char buffer[256];
  // GNU strerror_r returns the message pointer, which may or may not be buffer.
  return std::string(strerror_r(error_number, buffer, sizeof(buffer)));
}

File::File(const std::string& path, Mode mode) : path_(path) {
  int flags = O_CLOEXEC;
  switch (mode) {
    case Mode::Read: flags |= O_RDONLY; break;
    case Mode::ReadDirect: flags |= O_RDONLY | O_DIRECT; break;
    case Mode::Write: flags |= O_WRONLY | O_CREAT | O_TRUNC; break;
    case Mode::WriteDirect: flags |= O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT; break;
    case Mode::ReadWrite: flags |= O_RDWR | O_CREAT; break;
    case Mode::WriteStream: flags |= O_WRONLY | O_APPEND; break;
  }
  fd_ = ::open(path.c_str(), flags, 0644);
  if (fd_ < 0) fail("{}: cannot open: {}", path, errno_text(errno));
}

File::~File() {
  if (fd_ >= 0) ::close(fd_);
}

File::File(File&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

File& File::operator=(File&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
  }
  return *this;
}

uint64_t File::size() const {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) fail("{}: cannot stat: {}", path_, errno_text(errno));
  return static_cast<uint64_t>(st.st_size);
}

uint64_t File::pread_to_end(std::span<std::byte> bytes, uint64_t offset) const {
  uint64_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::pread(fd_, bytes.data() + done, bytes.size() - done,
                        static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("{}: read of {} bytes at offset {} failed: {}", path_, bytes.size(), offset,
           errno_text(errno));
    }
    if (n == 0) break;
    done += static_cast<uint64_t>(n);
  }
  return done;
}

void File::pread_exact(std::span<std::byte> bytes, uint64_t offset) const {
  const uint64_t done = pread_to_end(bytes, offset);
  if (done < bytes.size())
    fail("{}: short read: {} of {} bytes at offset {} (file truncated?)", path_, done, bytes.size(), offset);
}

void File::pwrite_all(std::span<const std::byte> bytes, uint64_t offset) const {
  uint64_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::pwrite(fd_, bytes.data() + done, bytes.size() - done,
                         static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("{}: write of {} bytes at offset {} failed: {}", path_, bytes.size(), offset,
           errno_text(errno));
    }
    done += static_cast<uint64_t>(n);
  }
}

void File::write_all(std::span<const std::byte> bytes) const {
  uint64_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("{}: write of {} bytes failed: {}", path_, bytes.size(), errno_text(errno));
    }
    done += static_cast<uint64_t>(n);
  }
}

void File::truncate(uint64_t size) const {
  if (::ftruncate(fd_, static_cast<off_t>(size)) != 0)
    fail("{}: cannot resize to {} bytes: {}", path_, size, errno_text(errno));
}

void File::sync() const {
  if (::fdatasync(fd_) != 0) fail("{}: fdatasync failed: {}", path_, errno_text(errno));
}

void AlignedBuffer::Free::operator()(std::byte* p) const { std::free(p); }

AlignedBuffer::AlignedBuffer(uint64_t bytes) : size_(align_up(bytes, kDirectAlignment)) {
  if (size_ == 0) return;
  void* p = nullptr;
  if (posix_memalign(&p, kDirectAlignment, size_) != 0)
    fail("cannot allocate an aligned buffer of {} bytes", size_);
  std::memset(p, 0, size_);
  data_.reset(static_cast<std::byte*>(p));
}

namespace {

// Where an output file really goes: a process's standard streams (/dev/stdout, /proc/self/fd/1)
// and devices, pipes and sockets are written in place (renaming over them would replace the
// link or device node); a symbolic link to a regular file is followed, so the file it names is
// replaced and the link kept.
struct OutputTarget {
  std::string path;
  bool stream = false;
};

OutputTarget output_target(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return {path, false};
  if (path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0) return {path, true};
  if (S_ISLNK(st.st_mode)) {
    char resolved[PATH_MAX];
    if (::realpath(path.c_str(), resolved) && ::stat(resolved, &st) == 0)
      return S_ISREG(st.st_mode) ? OutputTarget{resolved, false} : OutputTarget{path, true};
    return {path, false};  // a dangling link: replaced by the file
  }
  return {path, !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)};
}

}  // namespace

AtomicOutputFile::AtomicOutputFile(std::string path) {
  OutputTarget target = output_target(path == "-" ? "/dev/stdout" : normal_path(path));
  path_ = target.path;
  if (target.stream) {
    file_ = File(path_, File::Mode::WriteStream);
    return;
  }
  remove_dead_temporaries(path_);
  temp_path_ = temporary_name(path_, "tmp");
  file_ = File(temp_path_, File::Mode::Write);
}

AtomicOutputFile::~AtomicOutputFile() {
  if (!committed_ && !temp_path_.empty()) ::unlink(temp_path_.c_str());
}

void AtomicOutputFile::append(std::span<const std::byte> bytes) {
  if (temp_path_.empty()) file_.write_all(bytes);
  else file_.pwrite_all(bytes, written_);
  written_ += bytes.size();
}

void AtomicOutputFile::append(const std::string& text) {
  append(std::as_bytes(std::span<const char>(text.data(), text.size())));
}

void AtomicOutputFile::commit() {
  if (temp_path_.empty()) {
    committed_ = true;
    return;
  }
  file_.sync();
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0)
    fail("{}: cannot rename into place: {}", path_, errno_text(errno));
  committed_ = true;
}

std::string read_small_file(const std::string& path) {
  File file(path, File::Mode::Read);
  std::string text(file.size(), '\0');
  file.pread_exact(std::as_writable_bytes(std::span<char>(text.data(), text.size())), 0);
  return text;
}

std::string read_stream(int fd, const std::string& name, uint64_t most) {
  std::string text;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n == 0) return text;
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("{}: cannot read: {}", name, errno_text(errno));
    }
    text.append(buffer, static_cast<size_t>(n));
    if (text.size() > most) fail("{}: more than {} bytes", name, most);
  }
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool path_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace graphso
