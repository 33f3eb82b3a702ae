// Trust nothing read back (issue 17), through the CLI: a damaged page stops a run with one line
// and no results; convert and snapshot into a filesystem that fills up, or killed with -9, leave
// the previous output or nothing, never a partial file a later command would take as valid.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>

#include "base/file.h"
#include "tests/e2e/cli.h"
#include "tests/test_graphs.h"

using namespace graphso;
using namespace graphso::testing;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string small_rmat(const TempDir& dir, const std::string& name, uint32_t scale, uint32_t edge_factor, uint64_t seed) {
  EdgeSet set = rmat_edges(scale, edge_factor, true, seed, dir);
  const std::string path = dir.file(name);
  write_edges(path, set);
  return path;
}

std::chrono::nanoseconds time_of(const std::vector<std::string>& args) {
  const auto t0 = std::chrono::steady_clock::now();
  REQUIRE(graphso_cli(args).status == 0);
  return std::chrono::steady_clock::now() - t0;
}

}  // namespace

TEST_CASE("integrity 1: a flipped bit in an edge page stops run with one line naming file and offset, and no results") {
  TempDir dir;
  const std::string edges = small_rmat(dir, "e.bin", 10, 8, 4), g = dir.file("g");
  REQUIRE(graphso_cli({"prep", edges, "-o", g, "--engine", "both", "--chunk-size", "4K"}).status == 0);
  const std::string row = g + "/grid.row", part = g + "/xstream.part.1";
  const uint64_t row_size = std::filesystem::file_size(row);
  REQUIRE(row_size >= 3 * 4096);
  flip_bit(row, 4096 + 123, 3);  // page 1
  flip_bit(part, 17, 0);         // page 0
  for (const char* mode : {"independent", "partition", "chunk"}) {
    INFO(mode);
    const std::string out = dir.file(std::string("out-") + mode);
    CliResult r = graphso_cli({"run", g, "--job", "wcc", "--job", "sssp:source=1", "--sharing", mode, "--out", out,
                               "--report", dir.file("r.json")});
    require_one_line_error(r, "grid.row: checksum mismatch in the page at offset 4096 (page 1");
    REQUIRE_FALSE(path_exists(out));
    REQUIRE_FALSE(path_exists(dir.file("r.json")));
    CliResult x = graphso_cli({"run", g, "--engine", "xstream", "--job", "wcc", "--sharing", mode, "--out", out});
    require_one_line_error(x, "xstream.part.1: checksum mismatch in the page at offset 0 (page 0");
    REQUIRE_FALSE(path_exists(out));
  }
  // inspect --verify finds them too, by the page checksums first.
  CliResult inspect = graphso_cli({"inspect", g, "--verify"});
  require_one_line_error(inspect, "grid.row: checksum mismatch in the page at offset 4096");
  // Without verification the same run "succeeds": what the option is for is measuring, not use.
  // A stock mode on one thread reads WCC's dense round from grid.col (intact); on several, or in
  // chunk mode, it reads grid.row, where the flipped bit puts an id out of its block and the
  // range check stops the run instead.
  CliResult unverified = graphso_cli({"run", g, "--job", "wcc", "--sharing", "independent", "--threads", "1", "--verify-reads", "off",
                                      "--report", dir.file("r.json")});
  INFO(unverified.err);
  REQUIRE(unverified.status == 0);
  REQUIRE_THAT(slurp(dir.file("r.json")), Catch::Contains("\"reads_verified\": false") &&
                                              Catch::Contains("\"page_sums_bytes\": 0"));
  require_usage_error(graphso_cli({"run", g, "--job", "wcc", "--verify-reads", "maybe"}), "--verify-reads 'maybe'");
  // Repaired, the run is verified and succeeds; the report says what the checksums take.
  flip_bit(row, 4096 + 123, 3);
  flip_bit(part, 17, 0);
  REQUIRE(graphso_cli({"run", g, "--job", "wcc", "--report", dir.file("r.json")}).status == 0);
  REQUIRE_THAT(slurp(dir.file("r.json")), Catch::Contains("\"reads_verified\": true"));
  // A graph whose page checksums are gone is refused before the run, naming the remedy.
  std::filesystem::remove(row + ".sums");
  require_one_line_error(graphso_cli({"run", g, "--job", "wcc", "--out", dir.file("out")}),
                         "grid.row.sums: missing: the page checksums every read is verified with");
  REQUIRE_FALSE(path_exists(dir.file("out")));
}

TEST_CASE("integrity 2: convert and snapshot into a full filesystem end with one line and leave no partial output") {
  if (geteuid() != 0) {
    WARN("not root: the full-filesystem checks are skipped");
    return;
  }
  TempDir dir;
  const std::string small = small_rmat(dir, "small.bin", 9, 4, 1), large = small_rmat(dir, "large.bin", 15, 8, 2);
  REQUIRE(graphso_cli({"export", small, "-o", dir.file("small.el")}).status == 0);
  REQUIRE(graphso_cli({"export", large, "-o", dir.file("large.el")}).status == 0);
  SmallFilesystem media(dir.file("fs"), 2);
  REQUIRE(media.mounted());

  // convert: an earlier output stays as it was; no temporary is left.
  const std::string converted = dir.file("fs/e.bin");
  REQUIRE(graphso_cli({"convert", dir.file("small.el"), "-o", converted, "--weighted"}).status == 0);
  const std::string before = slurp(converted);
  CliResult full = graphso_cli({"convert", dir.file("large.el"), "-o", converted, "--weighted"});
  require_one_line_error(full, "No space left on device");
  REQUIRE(slurp(converted) == before);
  REQUIRE(files_in(dir.file("fs")) == std::vector<std::string>{"e.bin"});

  // snapshot: the store is elsewhere; its snapshot does not fit.
  const std::string store = dir.file("store.pm");
  REQUIRE(graphso_cli({"ingest", store, "--input", small, "--vertices", "32768"}).status == 0);
  const std::string snap = dir.file("fs/snap");
  REQUIRE(graphso_cli({"snapshot", store, "-o", snap}).status == 0);
  CliResult ok = graphso_cli({"run", snap, "--job", "wcc", "--out", dir.file("ref")});
  REQUIRE(ok.status == 0);
  CliResult ingested = graphso_cli({"ingest", store, "--input", large});
  INFO(ingested.err);
  REQUIRE(ingested.status == 0);
  CliResult no_room = graphso_cli({"snapshot", store, "-o", snap, "--engine", "both"});
  require_one_line_error(no_room, "No space left on device");
  // The previous snapshot is whole and runs as before; nothing else is on the filesystem.
  REQUIRE(files_in(dir.file("fs")) == std::vector<std::string>{"e.bin", "snap"});
  REQUIRE(graphso_cli({"inspect", snap, "--verify"}).status == 0);
  REQUIRE(graphso_cli({"run", snap, "--job", "wcc", "--out", dir.file("again")}).status == 0);
  REQUIRE(slurp(dir.file("again/0-wcc.txt")) == slurp(dir.file("ref/0-wcc.txt")));
}

TEST_CASE("integrity 3: convert and snapshot killed with -9 leave the previous output whole, or none") {
  TempDir dir;
  const std::string small = small_rmat(dir, "small.bin", 9, 4, 1), large = small_rmat(dir, "large.bin", 15, 8, 2);
  REQUIRE(graphso_cli({"export", large, "-o", dir.file("large.el")}).status == 0);
  std::mt19937_64 random(17);

  // convert over an earlier output.
  const std::string converted = dir.file("e.bin");
  REQUIRE(graphso_cli({"convert", small, "-o", converted}).status == 0);
  const std::string before = slurp(converted);
  const std::vector<std::string> convert = {"convert", dir.file("large.el"), "-o", converted, "--weighted"};
  const auto convert_time = time_of(convert);
  const std::string after = slurp(converted);
  REQUIRE(graphso_cli({"convert", small, "-o", converted}).status == 0);
  int kills = 0;
  for (int k = 0; k < 10; ++k) {
    if (killed_after(convert, convert_time * (random() % 1000) / 1000)) ++kills;
    const std::string now = slurp(converted);
    REQUIRE((now == before || now == after));
    if (now == after) REQUIRE(graphso_cli({"convert", small, "-o", converted}).status == 0);
  }
  CHECK(kills > 0);

  // snapshot over an earlier snapshot: each time the target holds the grid alone, and the killed
  // command was adding the X-Stream layout; it is left with one or the other, whole.
  const std::string store = dir.file("store.pm"), snap = dir.file("snap");
  REQUIRE(graphso_cli({"ingest", store, "--input", large}).status == 0);
  const std::vector<std::string> grid_only = {"snapshot", store, "-o", snap};
  const std::vector<std::string> both = {"snapshot", store, "-o", snap, "--engine", "both"};
  const auto snapshot_time = time_of(both);
  REQUIRE(graphso_cli({"run", snap, "--job", "wcc", "--out", dir.file("ref")}).status == 0);
  kills = 0;
  for (int k = 0; k < 8; ++k) {
    std::filesystem::remove_all(snap);
    REQUIRE(graphso_cli(grid_only).status == 0);
    if (killed_after(both, snapshot_time * (random() % 1000) / 1000)) ++kills;
    REQUIRE(graphso_cli({"inspect", snap, "--verify"}).status == 0);
    REQUIRE(graphso_cli({"run", snap, "--job", "wcc", "--out", dir.file("now")}).status == 0);
    REQUIRE(slurp(dir.file("now/0-wcc.txt")) == slurp(dir.file("ref/0-wcc.txt")));
  }
  CHECK(kills > 0);
  // The killed commands' temporaries are removed by the next run of each.
  REQUIRE(graphso_cli({"convert", small, "-o", converted}).status == 0);
  std::filesystem::remove_all(snap);
  REQUIRE(graphso_cli(grid_only).status == 0);
  for (const std::string& name : files_in(dir.path()))
    REQUIRE((name.find(".tmp-") == std::string::npos && name.find(".staging-") == std::string::npos));
}
