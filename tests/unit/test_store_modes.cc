// The table of store modes (store/store_mode.h): every mode reached through its entry, its options
// and crash points checked by name, and the shared store code naming no mode.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "store/graph_store.h"
#include "store/store_modes.h"
#include "tests/test_graphs.h"

using namespace graphso;
using namespace graphso::store;

TEST_CASE("store modes: the table lists each mode once, by its superblock number") {
  std::set<std::string> names;
  uint32_t number = 0;
  for (const StoreModeEntry* m : store_modes()) {
    INFO(m->name);
    REQUIRE(static_cast<uint32_t>(m->mode) == number++);
    REQUIRE(names.insert(m->name).second);
    REQUIRE(find_store_mode(static_cast<uint32_t>(m->mode)) == m);
    REQUIRE(parse_store_mode(m->name) == m->mode);
    REQUIRE((m->table_bytes && m->size && m->open_writer && m->open_view));
    REQUIRE((m->table_copies == 1 || m->table_copies == 2));
    // Its sizing gives a geometry the store accepts, and its table fits what the layout gives it.
    StoreGeometry g = default_geometry(1000, 5000, 1024, false, m->mode);
    const StoreLayout layout(g);
    REQUIRE(layout.table_bytes() == m->table_bytes(g));
    REQUIRE(layout.tables[1] - layout.tables[0] >= (m->table_copies == 2 ? layout.table_bytes() : 0));
  }
  REQUIRE(find_store_mode(number) == nullptr);
  REQUIRE_THROWS_WITH(parse_store_mode("lsgraph"), Catch::Contains("unknown store mode 'lsgraph' (expected xpgraph"));
}

TEST_CASE("store modes: an option or crash point is one some mode names, in its range") {
  // Options shared by several modes are the same option.
  for (const ModeOptionUse& use : mode_options()) {
    INFO(use.option->name);
    REQUIRE(!use.modes.empty());
    REQUIRE(use.option->fallback >= use.option->min);
    REQUIRE(use.option->fallback <= use.option->max);
  }
  REQUIRE_NOTHROW(check_mode_options({{"section-log", 4}, {"max-buffer", 64}, {"wear-levelling", 0}}));
  REQUIRE_THROWS_WITH(check_mode_options({{"section-logs", 4}}), "no store mode has an option --section-logs");
  REQUIRE_THROWS_WITH(check_mode_options({{"section-log", 0}}), Catch::Contains("--section-log 0 is out of range (1 to"));
  REQUIRE_THROWS_WITH(check_mode_options({{"wear-levelling", 2}}), Catch::Contains("--wear-levelling 2 is out of range"));
  REQUIRE_THROWS_WITH(check_mode_options({{"max-buffer", 100}}), Catch::Contains("a power of two from 16 to 256"));
  // A mode's own option reaches its writer: the value given, else the fallback.
  const std::vector<ModeOptionUse> uses = mode_options();
  const auto use = std::find_if(uses.begin(), uses.end(), [](const ModeOptionUse& u) { return std::string(u.option->name) == "section-log"; });
  REQUIRE(use != uses.end());
  const ModeOption& section_log = *use->option;
  REQUIRE(option_value({}, section_log) == section_log.fallback);
  REQUIRE(option_value({{"section-log", 7}}, section_log) == 7);

  StoreOptions options;
  for (const char* point : mode_crash_points()) {
    options.power_cut = {"shadow", point, 1};
    REQUIRE_NOTHROW(check_store_options(options));
  }
  options.power_cut = {"shadow", "relocations", 1};
  REQUIRE_THROWS_WITH(check_store_options(options), Catch::Contains("unknown crash point 'relocations'") &&
                                                        Catch::Contains("relocation, tree-entries, tree-bitmaps"));
}

TEST_CASE("store modes: the shared store code names no mode") {
  // Outside a mode's folder and the table, no file branches on a mode or includes a mode's header:
  // a fifth mode is a folder and a line in the table (docs/store.md, "Store modes as plug-ins").
  const std::string root = graphso::testing::repository_root();
  const std::regex names_a_mode(R"(StoreMode::\w+|#include "store/(xpgraph|dgap|gear|ftgraph)/)");
  uint64_t files = 0;
  for (const char* dir : {"store", "integrations", "prep", "engine", "middleware", "jobs", "io"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root + "/" + dir)) {
      const std::string path = entry.path().string();
      const std::string relative = path.substr(root.size() + 1);
      if (!entry.is_regular_file() || (entry.path().extension() != ".h" && entry.path().extension() != ".cc")) continue;
      if (relative.rfind("store/store_modes.", 0) == 0) continue;  // the table
      if (std::count(relative.begin(), relative.end(), '/') > 1 && relative.rfind("store/", 0) == 0) continue;  // a mode's folder
      std::ifstream in(path);
      std::stringstream text;
      text << in.rdbuf();
      std::smatch match;
      const std::string content = text.str();
      INFO(relative);
      CHECK_FALSE(std::regex_search(content, match, names_a_mode));
      ++files;
    }
  }
  REQUIRE(files > 100);
}
