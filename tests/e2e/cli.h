// Running the graphso binary from tests ($GRAPHSO_BIN, set by tests/run_tests.sh).
#pragma once

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

std::vector<std::string> files_in(const std::string& dir);

}  // namespace graphso::testing
