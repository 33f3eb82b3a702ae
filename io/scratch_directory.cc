#include "io/scratch_directory.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>

#include "base/error.h"
#include "base/staging.h"

namespace graphso {

std::string default_scratch_parent() {
  const char* tmpdir = std::getenv("TMPDIR");
  return tmpdir && *tmpdir ? tmpdir : "/var/tmp";
}

ScratchDirectory::ScratchDirectory(const std::string& parent) {
  std::error_code error;
  if (!std::filesystem::is_directory(parent, error)) fail("--spill-dir {}: not a directory", parent);
  const std::string target = (std::filesystem::path(parent) / "graphso-scratch").string();
  remove_dead_temporaries(target);
  path_ = temporary_name(target, "scratch");
  if (::mkdir(path_.c_str(), 0755) != 0)
    fail("--spill-dir {}: cannot make a scratch directory there: {}", parent, errno_text(errno));
}

ScratchDirectory::~ScratchDirectory() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace graphso
