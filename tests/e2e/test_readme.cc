// The README's "Using it" block and its Spark block, run as written and in order as one bash
// script (set -e: the first failing command fails the test), from the repository's top directory
// as a user following the README would; the block moves into a temporary directory of its own,
// which the test removes. The only stand-in is the one the README states (R-MAT scale 12 for 22).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "base/file.h"
#include "tests/e2e/cli.h"
#include "tests/test_graphs.h"

using namespace graphso;
using namespace graphso::testing;

namespace {

namespace fs = std::filesystem;

fs::path source_root() { return graphso::testing::repository_root(); }

// The first ``` block after the heading.
std::string code_block_after(const std::string& text, const std::string& heading) {
  const size_t at = text.find(heading);
  REQUIRE(at != std::string::npos);
  const size_t open = text.find("```\n", at);
  REQUIRE(open != std::string::npos);
  const size_t close = text.find("```\n", open + 4);
  REQUIRE(close != std::string::npos);
  return text.substr(open + 4, close - open - 4);
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  size_t count = 0;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
    ++count;
  }
  REQUIRE(count > 0);  // the README still says what the test stands in for
}

}  // namespace

TEST_CASE("readme: \"Using it\" and the Spark block run as written, in order, in the temporary directory they make") {
  const fs::path root = source_root();
  const std::string readme = read_small_file((root / "README.md").string());
  std::string script = code_block_after(readme, "## Using it\n") + code_block_after(readme, "## Beyond one machine: Spark\n");
  // The one stand-in the README states: R-MAT scale 12 for 22 (a 1.6 GB edge list).
  replace_all(script, "--scale 22", "--scale 12");
  // A sanitizer build's binary is not the one in build/.
  const fs::path binary = fs::absolute(graphso_binary());
  if (binary.parent_path() != root / "build") replace_all(script, "$PWD/build", binary.parent_path().string());

  TempDir dir;  // the script, and where the block's own temporary directory was when it ended
  std::ofstream(dir.file("readme.sh")) << "set -euo pipefail -x\ntrap \"pwd > '" << dir.file("where") << "'\" EXIT\ncd '"
                                       << root.string() << "'\n" << script;
  CliResult r = run_program({"bash", dir.file("readme.sh")});
  const std::string where = path_exists(dir.file("where")) ? read_small_file(dir.file("where")) : "";
  const fs::path work = where.empty() ? fs::path() : fs::path(where.substr(0, where.size() - 1));
  struct RemovedAtEnd {  // the block's directory, whatever the outcome; never the checkout
    fs::path path;
    ~RemovedAtEnd() {
      std::error_code ignored;
      if (path.parent_path() == fs::temp_directory_path()) fs::remove_all(path, ignored);
    }
  } removed{work};
  INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
  REQUIRE(r.status == 0);
  REQUIRE(work.parent_path() == fs::temp_directory_path());  // the block left the checkout

  // What the commands said they made is there, and nothing was made in the checkout.
  for (const char* made : {"slashdot.bin", "rmat22.bin", "slashdot/meta", "results/0-bfs.txt", "report.json",
                           "independent.json", "partition.json", "chunk.json", "rounds.png", "slashdot.txt",
                           "removed.bin", "graph.store", "snap/meta", "slashdot.parquet/graphso.json",
                           "spark-results/bfs-from-0.txt", "graphso-results/bfs-from-0.txt"})
    CHECK(fs::exists(work / made));
  const CliResult untracked = run_program({"git", "-C", root.string(), "status", "--porcelain", "--untracked-files=all"});
  for (const char* made : {"slashdot", "rmat22", "results/", "report.json", "rounds.png", "graph.store", "spark-results"})
    CHECK_THAT(untracked.out, !Catch::Contains(made));
  REQUIRE_THAT(r.out, Catch::Contains("graphso 0.") && Catch::Contains("\"bytes_read\"") &&
                          Catch::Contains("input_kind: deletions") && Catch::Contains("acknowledged 1000\n") &&
                          Catch::Contains("4 jobs in"));
}

TEST_CASE("readme: the first screen's example runs from the checkout") {
  const fs::path root = source_root();
  const std::string readme = read_small_file((root / "README.md").string());
  const std::string intro = "Example, from the checkout: `";
  const size_t at = readme.find(intro);
  REQUIRE(at != std::string::npos);
  REQUIRE(at < 2000);  // on the first screen
  const size_t begin = at + intro.size();
  std::string command = readme.substr(begin, readme.find('`', begin) - begin);
  TempDir dir;  // its files go here rather than into /tmp
  replace_all(command, "/tmp/", dir.path() + "/");
  const fs::path binary = fs::absolute(graphso_binary());
  if (binary.parent_path() != root / "build") replace_all(command, "build/graphso", binary.string());
  const CliResult r = run_program({"bash", "-c", "set -e; cd '" + root.string() + "'; " + command});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  REQUIRE(path_exists(dir.file("enron-results/2-pagerank.txt")));
}
