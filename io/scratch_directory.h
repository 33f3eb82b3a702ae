// A directory a run owns for its scratch files (the X-Stream engine's spilled updates): made under
// a parent (`run --spill-dir`, by default the system's temporary directory) as
// "graphso-scratch-<pid>-XXXXXX", locked (flock on the directory) while the object lives, and
// removed with what it holds when it goes. A run killed with -9 cannot remove its own: making one
// first removes those under the same parent whose lock no process holds any more.
#pragma once

#include <string>

namespace graphso {

// $TMPDIR, else /var/tmp (on disk: it takes O_DIRECT, which a tmpfs /tmp does not).
std::string default_scratch_parent();

class ScratchDirectory {
 public:
  explicit ScratchDirectory(const std::string& parent);
  ~ScratchDirectory();
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;  // the directory, locked
};

}  // namespace graphso
