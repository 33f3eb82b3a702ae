#include "tests/e2e/cli.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "tests/test_graphs.h"

namespace graphso::testing {

std::vector<std::string> CliResult::err_lines() const {
  std::vector<std::string> lines;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string graphso_binary() {
  const char* bin = std::getenv("GRAPHSO_BIN");
  std::string binary = bin ? bin : "build/graphso";
  REQUIRE(std::filesystem::exists(binary));
  return binary;
}

CliResult graphso_cli(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {graphso_binary()};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_program(argv);
}

CliResult run_program(const std::vector<std::string>& argv) {
  TempDir capture;
  // Single-quoted words; a quote inside one closes it, adds an escaped quote and reopens it.
  std::string command;
  for (const auto& a : argv) {
    std::string quoted = "'";
    for (char c : a) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    command += (command.empty() ? "" : " ") + quoted + "'";
  }
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

MeasuredRun graphso_measured(const std::vector<std::string>& args) {
  // Through tests/peak_rss beside the test binaries: what it forks starts with its own few pages.
  const std::string binary = graphso_binary();
  const std::string helper = std::filesystem::path(binary).parent_path().string() + "/tests/peak_rss";
  REQUIRE(std::filesystem::exists(helper));
  TempDir dir;
  std::vector<std::string> argv = {helper, dir.file("rss"), binary};
  argv.insert(argv.end(), args.begin(), args.end());
  MeasuredRun m;
  m.result = run_program(argv);
  std::ifstream in(dir.file("rss"));
  uint64_t kib = 0, anonymous_kib = 0;
  REQUIRE(in >> kib >> anonymous_kib);
  m.max_rss_bytes = kib * 1024;
  m.max_anonymous_bytes = anonymous_kib * 1024;
  return m;
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  REQUIRE(out.good());
}

uint64_t report_field(const std::string& report, const std::string& name) {
  const std::string key = "\"" + name + "\": ";
  const size_t at = report.find(key);
  REQUIRE(at != std::string::npos);
  return std::stoull(report.substr(at + key.size()));
}

void require_one_line_error(const CliResult& r, const std::string& contains) {
  INFO("stderr: " << r.err);
  REQUIRE(r.status == 1);
  REQUIRE(r.err_lines().size() == 1);
  REQUIRE_THAT(r.err, Catch::StartsWith("graphso: error: ") && Catch::Contains(contains));
}

void require_usage_error(const CliResult& r, const std::string& contains) {
  INFO("stderr: " << r.err);
  REQUIRE(r.status == 2);
  REQUIRE(r.err_lines().size() == 1);
  REQUIRE_THAT(r.err, Catch::StartsWith("graphso: error: ") && Catch::Contains(contains));
}

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> names;
  if (!std::filesystem::exists(dir)) return names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

pid_t spawn(std::vector<std::string> argv) {
  std::vector<char*> raw;
  for (std::string& a : argv) raw.push_back(a.data());
  raw.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, raw[0], &actions, nullptr, raw.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  REQUIRE(rc == 0);
  return pid;
}

bool killed_after(const std::vector<std::string>& args, std::chrono::nanoseconds after) {
  std::vector<std::string> argv{graphso_binary()};
  argv.insert(argv.end(), args.begin(), args.end());
  const pid_t pid = spawn(argv);
  std::this_thread::sleep_for(after);
  ::kill(pid, SIGKILL);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  if (WIFSIGNALED(status)) return true;
  REQUIRE(WEXITSTATUS(status) == 0);
  return false;
}

SmallFilesystem::SmallFilesystem(const std::string& dir, uint32_t megabytes) : dir_(dir) {
  std::filesystem::create_directories(dir);
  const std::string options = "size=" + std::to_string(megabytes) + "m";
  mounted_ = ::mount("tmpfs", dir.c_str(), "tmpfs", 0, options.c_str()) == 0;
}

SmallFilesystem::~SmallFilesystem() {
  if (mounted_) ::umount2(dir_.c_str(), MNT_DETACH);
}

void SmallFilesystem::read_only() const {
  REQUIRE(::mount("tmpfs", dir_.c_str(), "tmpfs", MS_REMOUNT | MS_RDONLY, nullptr) == 0);
}

void SmallFilesystem::fill() const {
  std::ofstream out(dir_ + "/filler", std::ios::binary);
  std::string block(1 << 20, 'x');
  while (out.write(block.data(), static_cast<std::streamsize>(block.size()))) {}
}

void SmallFilesystem::unfill() const { std::filesystem::remove(dir_ + "/filler"); }

}  // namespace graphso::testing
