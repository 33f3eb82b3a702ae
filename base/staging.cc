#include "base/staging.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <filesystem>

#include "base/error.h"

namespace graphso {
namespace {

namespace fs = std::filesystem;

constexpr const char* kKinds[] = {"tmp", "staging", "scratch"};

std::string parent_of(const std::string& path) {
  std::string parent = fs::path(path).parent_path().string();
  return parent.empty() ? "." : parent;
}

bool all_digits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// The pid in "<kind>-<pid>-<n>", or 0 when `suffix` is not a temporary's.
pid_t temporary_owner(std::string_view suffix) {
  for (const char* kind : kKinds) {
    std::string_view k(kind);
    if (suffix.size() <= k.size() + 1 || suffix.substr(0, k.size()) != k || suffix[k.size()] != '-') continue;
    std::string_view rest = suffix.substr(k.size() + 1);
    size_t dash = rest.find('-');
    if (dash == std::string_view::npos || !all_digits(rest.substr(0, dash)) || !all_digits(rest.substr(dash + 1)))
      return 0;
    pid_t pid = 0;
    auto [end, ec] = std::from_chars(rest.data(), rest.data() + dash, pid);
    return ec == std::errc() && pid > 0 ? pid : 0;
  }
  return 0;
}

bool process_gone(pid_t pid) { return pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH; }

}  // namespace

std::string normal_path(const std::string& path) {
  std::string out;
  for (char c : path)
    if (c != '/' || out.empty() || out.back() != '/') out += c;
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

std::string temporary_name(const std::string& target, const char* kind) {
  static std::atomic<uint64_t> counter{0};
  return fmt::format("{}.{}-{}-{}", normal_path(target), kind, ::getpid(), counter.fetch_add(1));
}

void remove_dead_temporaries(const std::string& target) {
  const std::string normal = normal_path(target);
  const std::string prefix = fs::path(normal).filename().string() + ".";
  std::error_code error;
  for (fs::directory_iterator it(parent_of(normal), error), end; !error && it != end; it.increment(error)) {
    std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    pid_t owner = temporary_owner(std::string_view(name).substr(prefix.size()));
    std::error_code ignored;
    if (owner && process_gone(owner)) fs::remove_all(it->path(), ignored);
  }
}

void sync_parent_directory(const std::string& path) {
  const std::string dir = parent_of(normal_path(path));
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail("{}: cannot open its directory to sync it: {}", path, errno_text(errno));
  int rc = ::fsync(fd);
  int saved = errno;
  ::close(fd);
  if (rc != 0) fail("{}: cannot sync its directory: {}", path, errno_text(saved));
}

StagedDirectory::StagedDirectory(const std::string& target) : target_(normal_path(target)) {
  remove_dead_temporaries(target_);
  staging_ = temporary_name(target_, "staging");
  if (::mkdir(staging_.c_str(), 0755) != 0) fail("{}: cannot create a directory beside it: {}", target_, errno_text(errno));
}

StagedDirectory::~StagedDirectory() {
  if (published_) return;
  std::error_code ignored;
  fs::remove_all(staging_, ignored);
}

void StagedDirectory::publish() {
  struct stat st {};
  if (::lstat(target_.c_str(), &st) != 0) {
    if (::rename(staging_.c_str(), target_.c_str()) == 0) {
      published_ = true;
      sync_parent_directory(target_);
      return;
    }
    // Another process published the same target since the lstat: replace its directory as if it
    // had been there all along (rename will not replace a non-empty directory).
    const int error = errno;
    if ((error != ENOTEMPTY && error != EEXIST) || ::lstat(target_.c_str(), &st) != 0)
      fail("{}: cannot move it into place: {}", target_, errno_text(error));
  }
  if (!S_ISDIR(st.st_mode)) fail("{}: exists and is not a directory", target_);
  // One atomic step: the target is the new directory, the staging name holds the old one.
  if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) != 0)
    fail("{}: cannot replace it: {}", target_, errno_text(errno));
  published_ = true;
  std::error_code ignored;
  fs::remove_all(staging_, ignored);  // killed meanwhile: a dead process's staging, removed later
  sync_parent_directory(target_);
}

OutputLock::OutputLock(const std::string& target, const std::string& option) {
  const std::filesystem::path path(normal_path(target));
  lock_path_ = (path.parent_path() / ("." + path.filename().string() + ".lock")).string();
  // The lock file is removed when the lock is let go; a process that opened it just before then
  // holds a lock on a file no longer there, so the lock counts only once the path names it.
  for (;;) {
    fd_ = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0 && errno == ENOENT)  // the output's directory is missing: say so, not the lock's name
      fail("{} {}: the directory {} does not exist", option, target, path.parent_path().empty() ? "." : path.parent_path().string());
    if (fd_ < 0) fail("{} {}: cannot create the lock file {}: {}", option, target, lock_path_, errno_text(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      ::close(fd_);
      fd_ = -1;
      if (error == EWOULDBLOCK) fail("{} {}: another graphso process is writing there", option, target);
      fail("{} {}: cannot lock {}: {}", option, target, lock_path_, errno_text(error));
    }
    struct stat held {}, named {};
    if (::fstat(fd_, &held) == 0 && ::stat(lock_path_.c_str(), &named) == 0 && held.st_ino == named.st_ino &&
        held.st_dev == named.st_dev)
      return;
    ::close(fd_);
  }
}

OutputLock::~OutputLock() {
  if (fd_ < 0) return;
  ::unlink(lock_path_.c_str());
  ::close(fd_);
}

}  // namespace graphso
