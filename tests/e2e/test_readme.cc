// The README's "Using it" block, run verbatim and in order as one bash script (set -e: the first
// failing command fails the test), with the small graphs the README names in place of its large
// ones. Run in a scratch directory that sees the repository's docs/ and tools/, with graphso on
// the PATH, as a user following the README from the top directory would.
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

TEST_CASE("readme: every command of \"Using it\" runs verbatim, in order") {
  const fs::path root = source_root();
  std::string script = code_block_after(read_small_file((root / "README.md").string()), "## Using it\n");
  // The small graphs the README says the test uses.
  replace_all(script, "soc-slashdot.el.gz", datasets_dir() + "/email-enron-u.el.gz");
  replace_all(script, "--scale 22", "--scale 12");

  TempDir dir;
  for (const char* shared : {"docs", "tools"}) fs::create_directory_symlink(root / shared, dir.file(shared));
  const fs::path binary = fs::absolute(graphso_binary());
  std::ofstream(dir.file("readme.sh")) << "set -euo pipefail -x\ncd '" << dir.path() << "'\nexport PATH='"
                                       << binary.parent_path().string() << "':\"$PATH\"\n"
                                       << script;
  CliResult r = run_program({"bash", dir.file("readme.sh")});
  INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
  REQUIRE(r.status == 0);

  // What the commands said they made is there.
  for (const char* made : {"slashdot.bin", "rmat22.bin", "slashdot/meta", "results/0-bfs.txt", "report.json",
                           "independent.json", "partition.json", "chunk.json", "rounds.png", "slashdot.txt",
                           "removed.bin", "graph.store", "snap/meta"})
    REQUIRE(path_exists(dir.file(made)));
  REQUIRE_THAT(r.out, Catch::Contains("graphso 0.") && Catch::Contains("\"bytes_read\"") &&
                          Catch::Contains("input_kind: deletions"));
}
