// A user has only the clone: everything the build, the tests, the demo and the benchmark read is
// in the repository. A fresh clone in a directory with nothing beside it (no shared/ next to it)
// runs a test that reads every shipped graph and the demo, and no tracked file names a data
// directory outside it.
#include <catch2/catch.hpp>

#include <filesystem>

#include "tests/e2e/cli.h"
#include "tests/test_graphs.h"

using namespace graphso::testing;
namespace fs = std::filesystem;

TEST_CASE("a fresh clone reads its graphs from itself: nothing outside the checkout") {
  const fs::path root = repository_root();
  TempDir dir;
  const fs::path clone = fs::path(dir.path()) / "graphso";
  const CliResult cloned = run_program({"git", "clone", "--quiet", "--no-hardlinks", root.string(), clone.string()});
  INFO(cloned.err);
  REQUIRE(cloned.status == 0);
  REQUIRE(fs::is_directory(clone / "datasets" / "data"));
  REQUIRE(!fs::exists(fs::path(dir.path()) / "shared"));

  // No tracked file reads the data from beside the checkout (the pattern is split so that this
  // file does not match it). git grep exits 1 when nothing matches.
  const CliResult named = run_program({"git", "-C", clone.string(), "grep", "-n", "-e", std::string("shared") + "/datasets",
                                       "-e", std::string("GRAPHSO_") + "DATASETS"});
  INFO("tracked files that name a data directory outside the checkout:\n" << named.out);
  REQUIRE(named.status == 1);

  // This build's unit tests, placed in the clone as if built there: their fixture finds the data
  // beside the binary's checkout, so the shipped-graph case reads the clone's files. The working
  // directory is the empty one above the clone.
  std::error_code error;
  const fs::path tests = fs::read_symlink("/proc/self/exe", error).parent_path();
  REQUIRE(!error);
  const fs::path placed = clone / tests.parent_path().filename() / "tests" / "unit_tests";
  fs::create_directories(placed.parent_path());
  fs::copy_file(tests / "unit_tests", placed);
  const CliResult shipped = run_program({"bash", "-c", "cd '" + dir.path() + "' && '" + placed.string() + "' '[shipped]'"});
  INFO(shipped.out << shipped.err);
  REQUIRE(shipped.status == 0);
  REQUIRE_THAT(shipped.out, Catch::Contains("All tests passed") && Catch::Contains("in 1 test case"));

  // The demo from the clone: its script with this build's graphso placed in the clone's build/
  // (what `make demo` runs after building), in the clone's top directory.
  fs::create_directories(clone / "build");
  fs::copy_file(fs::path(graphso_binary()), clone / "build" / "graphso");
  const CliResult demo = run_program({"bash", "-c", "cd '" + clone.string() + "' && tools/demo.sh build"});
  INFO(demo.out << demo.err);
  REQUIRE(demo.status == 0);
  REQUIRE_THAT(demo.out, Catch::Contains("BFS/SSSP/WCC results identical in all runs") &&
                             Catch::Contains("on the store's snapshot equal the runs above"));
}
