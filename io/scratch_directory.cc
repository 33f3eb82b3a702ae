#include "io/scratch_directory.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "base/error.h"

namespace graphso {
namespace {

namespace fs = std::filesystem;
constexpr const char* kPrefix = "graphso-scratch-";

// Removes the scratch directories under `parent` that no live run holds.
void remove_abandoned(const std::string& parent) {
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(parent, error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(kPrefix, 0) != 0 || !entry.is_directory(error)) continue;
    const int fd = ::open(entry.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) continue;
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) fs::remove_all(entry.path(), error);
    ::close(fd);
  }
}

}  // namespace

std::string default_scratch_parent() {
  const char* tmpdir = std::getenv("TMPDIR");
  return tmpdir && *tmpdir ? tmpdir : "/var/tmp";
}

ScratchDirectory::ScratchDirectory(const std::string& parent) {
  std::error_code error;
  if (!fs::is_directory(parent, error)) fail("--spill-dir {}: not a directory", parent);
  remove_abandoned(parent);
  std::string name = (fs::path(parent) / (kPrefix + std::to_string(::getpid()) + "-XXXXXX")).string();
  std::vector<char> buffer(name.begin(), name.end());
  buffer.push_back('\0');
  if (!::mkdtemp(buffer.data())) fail("--spill-dir {}: cannot make a scratch directory there: {}", parent, errno_text(errno));
  path_ = buffer.data();
  fd_ = ::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0 || ::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int e = errno;
    fs::remove_all(path_, error);
    if (fd_ >= 0) ::close(fd_);
    fail("{}: cannot lock the scratch directory: {}", path_, errno_text(e));
  }
}

ScratchDirectory::~ScratchDirectory() {
  std::error_code error;
  fs::remove_all(path_, error);
  ::close(fd_);
}

}  // namespace graphso
