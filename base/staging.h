// Output that appears whole or not at all, under temporary names no other process uses.
//
// A temporary beside TARGET is named "TARGET.<kind>-<pid>-<n>" (kind: tmp, staging, or scratch for
// a run's scratch directory, io/scratch_directory.h). A
// process killed with -9 leaves its temporaries behind; the next process that writes the same
// target removes those whose process is gone, and only those (a live writer's are left alone).
#pragma once

#include <string>

namespace graphso {

// "dir/", "dir//x" and "./dir/" name what "dir", "dir/x" and "./dir" name: trailing and repeated
// slashes go (the root stays "/").
std::string normal_path(const std::string& path);

// A fresh temporary name beside target, unique to this process and call.
std::string temporary_name(const std::string& target, const char* kind);

// Removes the temporaries of `target` left by processes that no longer run.
void remove_dead_temporaries(const std::string& target);

// Syncs the directory holding `path`, so a rename into it survives a crash.
void sync_parent_directory(const std::string& path);

// A directory built beside its target and swapped in whole by publish(): a failure or a kill
// before then leaves the target as it was. Dropped unpublished, the staging directory is removed.
class StagedDirectory {
 public:
  explicit StagedDirectory(const std::string& target);
  ~StagedDirectory();
  StagedDirectory(const StagedDirectory&) = delete;
  StagedDirectory& operator=(const StagedDirectory&) = delete;

  const std::string& path() const { return staging_; }
  const std::string& target() const { return target_; }
  // Replaces the target (atomically exchanged when it exists) and removes what it held.
  void publish();

 private:
  std::string target_;
  std::string staging_;
  bool published_ = false;
};

// Held while a process writes `target` (a run's --out or --report): an advisory lock (flock) on a
// lock file beside it, ".NAME.lock", removed when the lock is let go (a killed process leaves the
// file, unlocked: the next one takes it). A second process that would write the same target gets
// a one-line error naming it, instead of publishing its output beside this one's.
class OutputLock {
 public:
  // `option` names the target in the error ("--out").
  OutputLock(const std::string& target, const std::string& option);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  std::string lock_path_;
  int fd_ = -1;
};

}  // namespace graphso
