// A directory a run owns for its scratch files (the X-Stream engine's spilled updates): made under
// a parent (`run --spill-dir`, by default the system's temporary directory) as a temporary of
// the process (base/staging.h: "graphso-scratch.scratch-<pid>-<n>") and removed with what it holds
// when the object goes. A run killed with -9 cannot remove its own: making one first removes
// those under the same parent whose process no longer runs, as every temporary is.
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
};

}  // namespace graphso
