#include "tests/e2e/cli.h"

#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/test_graphs.h"

namespace graphso::testing {

std::vector<std::string> CliResult::err_lines() const {
  std::vector<std::string> lines;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

CliResult graphso_cli(const std::vector<std::string>& args) {
  const char* bin = std::getenv("GRAPHSO_BIN");
  std::string binary = bin ? bin : "build/graphso";
  REQUIRE(std::filesystem::exists(binary));
  TempDir capture;
  std::string command = "'" + binary + "'";
  for (const auto& a : args) command += " '" + a + "'";
  command += " >" + capture.file("out") + " 2>" + capture.file("err") + " </dev/null";
  int raw = std::system(command.c_str());
  CliResult r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  auto slurp = [](const std::string& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  r.out = slurp(capture.file("out"));
  r.err = slurp(capture.file("err"));
  return r;
}

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> names;
  if (!std::filesystem::exists(dir)) return names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace graphso::testing
