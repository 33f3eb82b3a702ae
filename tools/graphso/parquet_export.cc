#include "tools/graphso/parquet_export.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "base/file.h"
#include "tools/graphso/self_command.h"

extern char** environ;

namespace graphso {
namespace {

namespace fs = std::filesystem;

// The checkout the binary was built in: build/graphso -> the directory above build/.
fs::path checkout() {
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  return error ? fs::current_path() : exe.parent_path().parent_path();
}

std::string python() {
  if (const char* given = std::getenv("GRAPHSO_PYTHON")) return given;
  const fs::path venv = checkout() / ".venv-spark/bin/python";
  return fs::exists(venv) ? venv.string() : "python3";
}

std::string spark_tool() {
  if (const char* given = std::getenv("GRAPHSO_SPARK_TOOL")) return given;
  return (checkout() / "tools/spark").string();
}

// A file removed when it goes out of scope, whatever happened.
struct Removed {
  std::string path;
  ~Removed() {
    std::error_code ignored;
    fs::remove(path, ignored);
  }
};

// The last line the writer printed to stderr: its one-line reason.
}  // namespace

ExportSummary export_parquet(const std::string& input, const std::string& output_dir) {
  if (output_dir == "-" || output_dir == "/dev/stdout") fail("export: --format parquet writes a directory, not standard output");
  const std::string tool = spark_tool();
  if (!fs::exists(tool + "/graphso_spark/parquet_export.py"))
    fail("export: {}/graphso_spark/parquet_export.py is missing (set GRAPHSO_SPARK_TOOL to the checkout's tools/spark)", tool);
  const Removed edges{output_dir + ".graphso-export.bin"}, errors{output_dir + ".graphso-export.err"};
  const ExportSummary done = export_graph(input, edges.path, ExportFormat::Binary);

  std::vector<std::string> argv = {python(), "-m", "graphso_spark.parquet_export", edges.path, output_dir,
                                   "--vertices", std::to_string(done.vertices), "--edges-count", std::to_string(done.edges)};
  if (done.weighted) argv.push_back("--weighted");
  if (done.real_weights) argv.push_back("--real-weights");
  if (done.symmetric) argv.push_back("--symmetric");
  std::vector<char*> args;
  for (std::string& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  const std::string pythonpath = "PYTHONPATH=" + tool;
  std::vector<char*> env = {const_cast<char*>(pythonpath.c_str())};
  for (char** e = environ; *e; ++e)
    if (std::string_view(*e).rfind("PYTHONPATH=", 0) != 0) env.push_back(*e);
  env.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errors.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) fail("export: cannot start {}: {}", argv[0], std::strerror(spawned));
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) fail("export: waiting for {}: {}", argv[0], std::strerror(errno));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string reason = last_line(errors.path);
    if (reason.find("No module named") != std::string::npos)
      reason += " (make deps installs pyarrow in .venv-spark; or set GRAPHSO_PYTHON)";
    fail("export: writing Parquet with {}: {}", argv[0], reason.empty() ? "it failed" : reason);
  }
  return done;
}

}  // namespace graphso
