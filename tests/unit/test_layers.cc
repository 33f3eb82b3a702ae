// The layers the folders show, bottom to top, and the rule that keeps them layers: a file may
// include its own folder's headers and those of layers below it, never one above or beside it
// (except the engine handing runs to jobs). Reads every source file's #include lines from the
// checkout the test binary was built in.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "tests/test_graphs.h"

namespace {

namespace fs = std::filesystem;

// Folder -> rank; a file may include a folder of lower rank, or its own.
const std::map<std::string, int> kRank = {
    {"base", 0},                                                  // types, errors, files, bitmap, JSON
    {"io", 1},         {"datasets", 1},   {"reference", 1},       // readers, read plans; input formats; textbook algorithms
    {"jobs", 2},       {"engine", 2},                             // algorithms; engines
    {"middleware", 3}, {"store", 3},                              // GraphSO + sharing modes; PMEM store
    {"prep", 4},       {"integrations", 4},                       // prep + snapshots; the batch runner
    {"tools", 5},                                                 // the CLI
};
// Same-rank includes that are part of the design.
const std::set<std::pair<std::string, std::string>> kAllowed = {{"engine", "jobs"}};

std::string layer_of(const std::string& path) { return path.substr(0, path.find('/')); }

bool may_include(const std::string& layer, const std::string& target) {
  return target == layer || kRank.at(target) < kRank.at(layer) || kAllowed.count({layer, target});
}

fs::path source_root() { return graphso::testing::repository_root(); }

}  // namespace

TEST_CASE("the include graph: no layer includes a layer above or beside it; the store and the middleware never meet") {
  // The rule itself: downward yes, upward and sideways no.
  REQUIRE(may_include("middleware", "engine"));
  REQUIRE(may_include("engine", "jobs"));
  REQUIRE_FALSE(may_include("jobs", "engine"));
  REQUIRE_FALSE(may_include("base", "io"));
  REQUIRE_FALSE(may_include("engine", "middleware"));
  REQUIRE_FALSE(may_include("middleware", "store"));
  REQUIRE_FALSE(may_include("store", "middleware"));
  REQUIRE_FALSE(may_include("integrations", "tools"));
  REQUIRE_FALSE(may_include("prep", "integrations"));
  REQUIRE(may_include("prep", "store"));

  const fs::path root = source_root();
  REQUIRE(fs::exists(root / "base" / "types.h"));
  const std::regex include(R"re(^\s*#\s*include\s+"([^"]+)")re");
  std::vector<std::string> upward;
  uint64_t files = 0, edges = 0;
  for (const auto& ranked : kRank) {
    const std::string& layer = ranked.first;
    for (const auto& entry : fs::recursive_directory_iterator(root / layer)) {
      const std::string ext = entry.path().extension().string();
      if (ext != ".h" && ext != ".cc") continue;
      ++files;
      const std::string path = fs::relative(entry.path(), root).string();
      std::ifstream in(entry.path());
      int line_no = 0;
      for (std::string line; std::getline(in, line);) {
        ++line_no;
        std::smatch m;
        if (!std::regex_search(line, m, include)) continue;
        const std::string target = layer_of(m[1].str());
        if (!kRank.count(target)) continue;  // a system or third-party header
        ++edges;
        if (!may_include(layer, target)) upward.push_back(path + ":" + std::to_string(line_no) + " includes " + m[1].str());
      }
    }
  }
  INFO(files << " files, " << edges << " project includes; violations:\n" << [&] {
    std::string all;
    for (const std::string& v : upward) all += "  " + v + "\n";
    return all;
  }());
  REQUIRE(files > 100);
  REQUIRE(upward.empty());
}
