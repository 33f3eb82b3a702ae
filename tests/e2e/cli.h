// Running the graphso binary from tests ($GRAPHSO_BIN, set by tests/run_tests.sh).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace graphso::testing {

struct CliResult {
  int status = -1;
  std::string out;
  std::string err;
  // stderr lines (without the trailing empty one)
  std::vector<std::string> err_lines() const;
};

// args are passed through the shell as single-quoted words.
CliResult graphso_cli(const std::vector<std::string>& args);
// Any program: argv[0] and its arguments, quoted the same way.
CliResult run_program(const std::vector<std::string>& argv);
// graphso under tests/peak_rss (built beside the test binaries): its result, the kernel's account
// of its peak resident set (wait4's ru_maxrss), and its largest anonymous resident set, sampled
// every millisecond (what it holds beside the files it maps).
struct MeasuredRun {
  CliResult result;
  uint64_t max_rss_bytes = 0;
  uint64_t max_anonymous_bytes = 0;
};
MeasuredRun graphso_measured(const std::vector<std::string>& args);
// Starts argv (argv[0] a path) with stdout discarded; returns its pid.
pid_t spawn(std::vector<std::string> argv);
// Starts graphso with args and kills it with -9 `after` later; true when the kill came first
// (false: it had exited, with status 0 or the test fails).
bool killed_after(const std::vector<std::string>& args, std::chrono::nanoseconds after);
// The graphso binary the tests run ($GRAPHSO_BIN, default build/graphso).
std::string graphso_binary();

std::vector<std::string> files_in(const std::string& dir);

// Writes text to a new or truncated file.
void write_text(const std::string& path, const std::string& text);

// A whole-number field of a JSON report (the first with this name); REQUIREs that it is there.
uint64_t report_field(const std::string& report, const std::string& name);

// REQUIREs exit status 1 and exactly one stderr line, "graphso: error: ..." containing `contains`.
void require_one_line_error(const CliResult& r, const std::string& contains);
// The same for a usage error (a bad option, value or argument): exit status 2.
void require_usage_error(const CliResult& r, const std::string& contains);

// A small tmpfs of `megabytes`, unmounted with the object; the disk-full tests need root.
class SmallFilesystem {
 public:
  SmallFilesystem(const std::string& dir, uint32_t megabytes);
  ~SmallFilesystem();
  SmallFilesystem(const SmallFilesystem&) = delete;
  SmallFilesystem& operator=(const SmallFilesystem&) = delete;
  bool mounted() const { return mounted_; }
  void read_only() const;
  // Fills what is left with one file, so the next write finds no space.
  void fill() const;
  // Removes what fill() wrote.
  void unfill() const;

 private:
  std::string dir_;
  bool mounted_ = false;
};

}  // namespace graphso::testing
