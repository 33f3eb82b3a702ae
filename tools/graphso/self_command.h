// Running another graphso command as a child process of this one (the Graphalytics driver times
// convert, prep, run and validate as a user running them would see them), its output in a log.
#pragma once

#include <string>
#include <vector>

namespace graphso {

struct CommandOutcome {
  int status = 0;        // the exit status (128 + the signal when killed by one)
  double seconds = 0;    // wall time from start to exit
};

// Runs this binary (/proc/self/exe) with `args`, standard output and error into `log`.
CommandOutcome run_self(const std::vector<std::string>& args, const std::string& log);

// The last non-empty line of a text file ("" when none): a failed command's one-line error.
std::string last_line(const std::string& path);

}  // namespace graphso
