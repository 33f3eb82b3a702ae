// Bits flipped at random in every file of a prepared graph (both layouts, the TChunk tables, the
// page checksums, meta and degrees): in every engine and sharing mode each flip is harmless (the
// results equal the reference) or an error before any result exists, never a different result.
// The same flips with --verify-reads off show why: some of them then change results silently.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>

#include "base/error.h"
#include "base/file.h"
#include "engine/gridgraph/grid_graph.h"
#include "integrations/result_check.h"
#include "tests/test_graphs.h"

using namespace graphso;
using graphso::testing::flip_bit;
using graphso::testing::TempDir;

namespace {

const std::vector<std::string> kJobs = {"bfs:source=1", "sssp:source=1", "wcc"};

enum class Outcome { Same, Error, Different };

// One batch: an Error (opening the graph or reading it), or the results checked against the reference.
Outcome run_and_check(const std::string& graph_dir, EngineKind engine, Sharing sharing, bool verify,
                      const ReferenceGraph& reference, std::string* why) {
  ReaderOptions options;
  options.verify_reads = verify;
  ReaderFactory readers(options);
  graphso::testing::RunOptions run;
  run.engine = engine;
  run.readers = &readers;
  run.chunk_bytes = 4096;
  graphso::testing::Batch batch;
  try {
    batch = graphso::testing::run_batch_on(graph_dir, kJobs, sharing, 1 << 20, run);
  } catch (const Error& e) {
    *why = e.what();
    return Outcome::Error;
  }
  for (size_t j = 0; j < batch.jobs.size(); ++j) {
    if (!batch.jobs[j]->converged()) {
      *why = batch.specs[j].name + " did not converge";
      return Outcome::Different;
    }
    const ResultCheck check = check_result(batch.specs[j], *batch.jobs[j], reference, batch.order);
    if (!check.ok) {
      *why = batch.specs[j].name + ": " + check.detail;
      return Outcome::Different;
    }
  }
  return Outcome::Same;
}

}  // namespace

TEST_CASE("flips: 600 random bit flips in a prepared graph are each harmless or an error, in every engine and mode") {
  TempDir dir;
  const EdgeSet set = graphso::testing::rmat_edges(10, 8, true, 3, dir);
  const std::string graph_dir = graphso::testing::prepare_graph(dir, set, 4);
  const ReferenceGraph reference = make_reference_graph(set.vertices, set.edges);
  struct Run {
    EngineKind engine;
    Sharing sharing;
  };
  std::vector<Run> runs;
  for (EngineKind engine : graphso::testing::kEngines)
    for (Sharing sharing : {Sharing::Independent, Sharing::Partition, Sharing::Chunk}) runs.push_back({engine, sharing});
  // Clean runs first: every one matches the reference, and chunk mode has built its tables.
  for (const Run& r : runs) {
    std::string why;
    INFO(engine_name(r.engine) << " " << sharing_name(r.sharing) << ": " << why);
    REQUIRE(run_and_check(graph_dir, r.engine, r.sharing, true, reference, &why) == Outcome::Same);
  }
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(graph_dir)) files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 16);  // meta, degrees, grid.row/col, four X-Stream parts, their sums, tables

  std::mt19937_64 random(20261122);
  constexpr int kFlips = 600;
  constexpr int kControl = 150;  // the first flips are run again without verification
  uint64_t errors = 0, harmless = 0, flips_caught = 0, silent_without_verify = 0;
  std::map<std::string, uint64_t> caught_in;
  for (int flip = 0; flip < kFlips; ++flip) {
    const std::string& path = files[random() % files.size()];
    const std::string name = std::filesystem::path(path).filename().string();
    const uint64_t byte = random() % std::filesystem::file_size(path);
    const int bit = static_cast<int>(random() % 8);
    flip_bit(path, byte, bit);
    bool caught = false;
    for (const Run& r : runs) {
      std::string why;
      const Outcome outcome = run_and_check(graph_dir, r.engine, r.sharing, true, reference, &why);
      INFO("flip " << flip << ": bit " << bit << " of byte " << byte << " of " << path << ", "
                   << engine_name(r.engine) << " " << sharing_name(r.sharing) << ": " << why);
      REQUIRE(outcome != Outcome::Different);
      if (outcome == Outcome::Error) {
        ++errors;
        caught = true;
        // One line, naming the damaged file.
        REQUIRE(why.find('\n') == std::string::npos);
        REQUIRE(why.find(name) != std::string::npos);
      } else {
        ++harmless;
      }
      if (flip < kControl && run_and_check(graph_dir, r.engine, r.sharing, false, reference, &why) == Outcome::Different)
        ++silent_without_verify;
    }
    flip_bit(path, byte, bit);  // back as it was
    if (caught) {
      ++flips_caught;
      ++caught_in[name];
    }
  }
  WARN(flips_caught << " of " << kFlips << " flips caught; " << errors << " runs ended in an error, " << harmless
                    << " were unaffected; with --verify-reads off, " << silent_without_verify << " runs of the first "
                    << kControl << " flips' " << kControl * runs.size() << " gave different results silently");
  REQUIRE(errors + harmless == kFlips * runs.size());
  REQUIRE(flips_caught > kFlips / 2);  // most bytes of a graph are read by some run
  REQUIRE(silent_without_verify > 0);  // the check is what stops them
  // The edge files' flips are caught by the page checksums, not only by the sealed files.
  REQUIRE(caught_in["grid.row"] + caught_in["grid.col"] > 0);
  uint64_t in_parts = 0;
  for (const auto& [file, count] : caught_in)
    if (file.rfind("xstream.part.", 0) == 0 && file.find(".sums") == std::string::npos) in_parts += count;
  REQUIRE(in_parts > 0);
  // Every run after the flips were undone still matches.
  for (const Run& r : runs) {
    std::string why;
    REQUIRE(run_and_check(graph_dir, r.engine, r.sharing, true, reference, &why) == Outcome::Same);
  }
}
