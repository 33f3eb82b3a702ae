// The demo's batch (W1 on the demo's road grid, generated smaller here) in every engine and
// sharing mode gives results files byte for byte equal to those recorded before the engines and
// sharing modes were restructured (issue 13: one Engine interface, sharing modes as loaders).
// The digests are sha256 of the text results written by the commit before that change, in
// synchronous rounds (`--async off`): asynchronous delta-PageRank's last digits depend on the
// order its deltas meet in (its bound is checked against the reference in the unit tests).
#include <catch2/catch.hpp>

#include <regex>

#include "tests/e2e/cli.h"
#include "tests/test_graphs.h"

using namespace graphso;
using namespace graphso::testing;

namespace {

const std::vector<std::pair<std::string, std::string>> kRecorded = {
    {"0-pagerank-delta.txt", "29c4ad95c5753c0af90373c6ac721a8510bdf33f121642186b3c31b8c31160b7"},
    {"1-wcc.txt", "f415eb8552902e8d5c79742fbd5459bfbee49b1371fccc92239d78c999737878"},
    {"2-sssp.txt", "7a0ee39e2bc9605fcf20527db0aa009cf67c6095bfc8ed363429154532b6a538"},
    {"3-bfs.txt", "f22a370e7ce0c541db8a532eb98037957cd6f06c2bc391883441f134c55d393e"},
};

std::string sha256_of(const std::string& path) {
  CliResult r = run_program({"/usr/bin/sha256sum", path});
  REQUIRE(r.status == 0);
  return r.out.substr(0, 64);
}

}  // namespace

TEST_CASE("the demo batch's results are byte-identical to the recorded ones in every engine and sharing mode") {
  TempDir dir;
  CliResult gen = graphso_cli({"generate", "road", "--width", "256", "--height", "256", "--weighted", "--seed", "1", "-o",
                               dir.file("road.bin")});
  REQUIRE(gen.status == 0);
  std::smatch m;
  REQUIRE(std::regex_search(gen.out, m, std::regex("centre intersection: vertex ([0-9]+)")));
  const std::string centre = m[1].str();
  REQUIRE(graphso_cli({"prep", dir.file("road.bin"), "-o", dir.file("road"), "--engine", "both", "--chunk-size", "16K"}).status == 0);
  CliResult inspect = graphso_cli({"inspect", dir.file("road")});
  REQUIRE(std::regex_search(inspect.out, m, std::regex("edges: *([0-9]+)")));
  const std::string budget = std::to_string(std::stoull(m[1].str()) * 12 / 4);
  for (const char* engine : {"gridgraph", "xstream"})
    for (const char* mode : {"independent", "partition", "chunk"}) {
      INFO(engine << " " << mode);
      std::string out = dir.file(std::string("res-") + engine + "-" + mode);
      CliResult run = graphso_cli({"run", dir.file("road"), "--job", "pagerank-delta:tolerance=0.01", "--job", "wcc", "--job",
                                   "sssp:source=" + centre, "--job", "bfs:source=" + centre, "--engine", engine, "--sharing",
                                   mode, "--graph-mem", budget, "--chunk-size", "16K", "--async", "off", "--out", out});
      INFO(run.err);
      REQUIRE(run.status == 0);
      for (const auto& [file, digest] : kRecorded) {
        INFO(file);
        CHECK(sha256_of(out + "/" + file) == digest);
      }
    }
}
