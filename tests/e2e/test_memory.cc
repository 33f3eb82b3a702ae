// Memory the report can be trusted on: the kernel's peak RSS of `graphso run` held to --mem from
// the least budget each engine and mode accepts to above the graph, the report's peak equal to the
// kernel's, a TChunk table that fits small budgets, and chunk-mode
// bytes that repeat run after run.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <string>

#include "base/file.h"
#include "tests/e2e/cli.h"
#include "tests/test_graphs.h"

using namespace graphso;
using namespace graphso::testing;

namespace {

// In synchronous rounds: these tests compare results byte for byte across budgets and modes, and
// asynchronous delta-PageRank's last digits depend on the order its deltas meet in.
const std::vector<std::string> kW1 = {"--job", "pagerank-delta:tolerance=0.01", "--job", "wcc",
                                      "--job", "sssp:source=0", "--job", "bfs:source=0", "--async", "off"};

std::vector<std::string> with_w1(std::vector<std::string> args) {
  args.insert(args.end(), kW1.begin(), kW1.end());
  return args;
}

// The least --mem (KiB) that `run ARGS --mem` accepts, within 1/8, found by bisection: every
// budget below it is refused with a one-line error before anything is written, none exceeded.
uint64_t least_mem_kib(const std::vector<std::string>& args, const std::string& out) {
  uint64_t refused = 64, works = 8 << 10;
  auto at = [&](uint64_t kib) {
    std::vector<std::string> probe = args;
    probe.insert(probe.end(), {"--mem", std::to_string(kib) + "K"});
    return graphso_cli(probe);
  };
  REQUIRE(at(works).status == 0);
  while (works - refused > works / 8) {
    const uint64_t mid = (refused + works) / 2;
    std::filesystem::remove_all(out);
    CliResult r = at(mid);
    if (r.status == 0) {
      works = mid;
    } else {
      INFO("--mem " << mid << "K");
      // Each refusal says what is too small or names the least that works.
      require_one_line_error(r, "");
      REQUIRE_THAT(r.err, Catch::Contains("too small") || Catch::Contains("the least that does is"));
      REQUIRE(!std::filesystem::exists(out));
      refused = mid;
    }
  }
  return works;
}

}  // namespace

TEST_CASE("memory: every engine and mode holds --mem + 16 MiB from just above its least budget to above the graph") {
  TempDir dir;
  const std::string edges = dir.file("e.bin"), g = dir.file("g");
  REQUIRE(graphso_cli({"generate", "rmat", "-o", edges, "--scale", "13", "--edge-factor", "16", "--weighted"}).status == 0);
  // Degree order: the order's two id maps are part of the budget too.
  REQUIRE(graphso_cli({"prep", edges, "-o", g, "--engine", "both", "--order", "degree", "--chunk-size", "64K"}).status == 0);
  const uint64_t graph_kib = (std::filesystem::file_size(g + "/grid.row") + std::filesystem::file_size(g + "/grid.col")) >> 10;
  for (const char* engine : {"gridgraph", "xstream"}) {
    const std::string ref = dir.file(std::string("ref-") + engine);
    REQUIRE(graphso_cli(with_w1({"run", g, "--engine", engine, "--sharing", "independent", "--out", ref})).status == 0);
    for (const char* mode : {"independent", "partition", "chunk"}) {
      const std::string out = dir.file("out"), report = dir.file("r.json");
      const std::vector<std::string> args = with_w1({"run", g, "--engine", engine, "--sharing", mode, "--out", out});
      const uint64_t least = least_mem_kib(args, out);
      // Just above the least (the results' writing or the engine sets it) in both output formats,
      // then x8 until past the graph.
      for (uint64_t mem_kib = least;; mem_kib *= 8) {
        for (const char* format : {"text", "bin"}) {
          if (mem_kib > least && std::string(format) == "bin") continue;
          std::filesystem::remove_all(out);
          std::vector<std::string> measured = args;
          measured.insert(measured.end(), {"--mem", std::to_string(mem_kib) + "K", "--out-format", format, "--report", report});
          MeasuredRun m = graphso_measured(measured);
          INFO(engine << " " << mode << " " << format << " --mem " << mem_kib << "K (least " << least << "K): " << m.result.err);
          REQUIRE(m.result.status == 0);
          const uint64_t reported = report_field(read_small_file(report), "peak_rss_bytes");
          INFO("kernel " << (m.max_rss_bytes >> 10) << " KiB, report " << (reported >> 10) << " KiB");
          REQUIRE(m.max_rss_bytes > (4u << 20));  // a real measurement, above the test binary's own pages
#ifdef __SANITIZE_ADDRESS__
          // AddressSanitizer's shadow memory and quarantine are in the RSS: the bounds are for real builds.
          WARN("sanitizer build: peak RSS " << (m.max_rss_bytes >> 20) << " MiB not held to --mem " << mem_kib << "K");
#else
          REQUIRE(m.max_rss_bytes <= (mem_kib << 10) + (16u << 20));
          const uint64_t gap = m.max_rss_bytes > reported ? m.max_rss_bytes - reported : reported - m.max_rss_bytes;
          REQUIRE(gap <= (1u << 20));
#endif
          if (std::string(format) == "text")
            for (const char* job : {"0-pagerank-delta.txt", "1-wcc.txt", "2-sssp.txt", "3-bfs.txt"})
              REQUIRE(read_small_file(out + "/" + job) == read_small_file(ref + "/" + job));
        }
        if (mem_kib > graph_kib) break;
      }
    }
  }
}

TEST_CASE("memory: the TChunk source index beyond the budget is read on demand, and results stay right") {
  TempDir dir;
  const std::string edges = dir.file("road.bin"), g = dir.file("g");
  REQUIRE(graphso_cli({"generate", "road", "-o", edges, "--width", "160", "--height", "160", "--weighted"}).status == 0);
  REQUIRE(graphso_cli({"prep", edges, "-o", g, "--engine", "both", "--order", "degree", "--chunk-size", "16K"}).status == 0);
  const std::string inspect = graphso_cli({"inspect", g}).out;
  REQUIRE_THAT(inspect, Catch::Contains("bytes/edge, always in memory") && Catch::Contains("source index"));
  for (const char* engine : {"gridgraph", "xstream"}) {
    INFO(engine);
    // The whole index in memory, then an eighth of the edge bytes: the index no longer fits.
    REQUIRE(graphso_cli(with_w1({"run", g, "--engine", engine, "--sharing", "independent", "--out", dir.file("ref")})).status == 0);
    const std::string report = dir.file("r.json");
    CliResult r = graphso_cli(with_w1({"run", g, "--engine", engine, "--sharing", "chunk", "--chunk-size", "16K",
                                       "--graph-mem", "200K", "--cache-ratio", "0.5", "--out", dir.file("small"),
                                       "--report", report}));
    INFO(r.err);
    REQUIRE(r.status == 0);
    const std::string json = read_small_file(report);
    REQUIRE(report_field(json, "tchunk_bytes") < report_field(json, "tchunk_index_bytes"));
    REQUIRE(report_field(json, "tchunk_index_bytes_read") > 0);
    REQUIRE(report_field(json, "tchunk_bytes") + report_field(json, "cache_bytes") + 2 * report_field(json, "buffer_bytes") <=
            report_field(json, "graph_budget_bytes") - report_field(json, "update_budget_bytes"));
    for (const char* job : {"0-pagerank-delta.txt", "1-wcc.txt", "2-sssp.txt", "3-bfs.txt"})
      REQUIRE(read_small_file(dir.file("small/") + job) == read_small_file(dir.file("ref/") + job));
  }
}

TEST_CASE("memory: a budget too small for chunk mode is refused before any table is built, naming the least that works") {
  TempDir dir;
  const std::string edges = dir.file("road.bin"), g = dir.file("g");
  REQUIRE(graphso_cli({"generate", "road", "-o", edges, "--width", "100", "--height", "100"}).status == 0);
  REQUIRE(graphso_cli({"prep", edges, "-o", g, "--no-chunks", "--encoding", "raw"}).status == 0);
  CliResult r = graphso_cli({"run", g, "--sharing", "chunk", "--chunk-size", "64K", "--graph-mem", "64K", "--job", "bfs:source=0"});
  require_one_line_error(r, "it needs a graph-data budget of at least");
  REQUIRE_THAT(r.err, Catch::Contains("with --chunk-size 32.0 KiB, at least"));
  for (const std::string& name : files_in(g)) REQUIRE(name.rfind("tchunk", 0) != 0);
  // The least it names is enough to build the table; with the table known the smallest budget that
  // works is exact (it adds the source index's read buffers when the index cannot stay whole).
  auto named = [](const CliResult& refused, const std::string& after) {
    const std::string said = refused.err.substr(refused.err.find(after) + after.size());
    const std::string size = said.substr(0, said.find(" ("));
    REQUIRE(size.find("KiB") != std::string::npos);
    return std::to_string(static_cast<uint64_t>(std::stod(size)) + 1) + "K";
  };
  std::string budget = named(r, "budget of at least ");
  CliResult at_least = graphso_cli({"run", g, "--sharing", "chunk", "--chunk-size", "64K", "--graph-mem", budget, "--job", "bfs:source=0"});
  if (at_least.status != 0) {
    require_one_line_error(at_least, "the smallest graph-data budget that works is");
    budget = named(at_least, "works is ");
  }
  REQUIRE(graphso_cli({"run", g, "--sharing", "chunk", "--chunk-size", "64K", "--graph-mem", budget, "--job", "bfs:source=0"}).status == 0);
}

TEST_CASE("memory: chunk-mode bytes and cache hits repeat exactly over five runs (synchronous on two threads, asynchronous on one)") {
  TempDir dir;
  const std::string edges = dir.file("road.bin"), g = dir.file("g");
  REQUIRE(graphso_cli({"generate", "road", "-o", edges, "--width", "128", "--height", "128", "--weighted"}).status == 0);
  REQUIRE(graphso_cli({"prep", edges, "-o", g, "--engine", "both", "--chunk-size", "16K"}).status == 0);
  for (const char* engine : {"gridgraph", "xstream"}) {
    for (const char* threads : {"2", "1"}) {
      std::string first;
      for (int run = 0; run < 5; ++run) {
        const std::string report = dir.file("r.json");
        std::vector<std::string> args = with_w1({"run", g, "--engine", engine, "--sharing", "chunk", "--threads", threads,
                                                 "--chunk-size", "16K", "--graph-mem", "256K", "--report", report});
        if (std::string(threads) == "1") args.back() = "on";  // kW1 ends with --async off
        CliResult r = graphso_cli(args);
        INFO(engine << " threads " << threads << " run " << run << ": " << r.err);
        REQUIRE(r.status == 0);
        const std::string json = read_small_file(report);
        const std::string counts = std::to_string(report_field(json, "bytes_read")) + " bytes, " +
                                   std::to_string(report_field(json, "cache_hits")) + " hits, " +
                                   std::to_string(report_field(json, "rounds_total")) + " rounds";
        if (run == 0) first = counts;
        REQUIRE(counts == first);
      }
    }
  }
}

TEST_CASE("memory: X-Stream runs small graphs at a quarter of their edge bytes (the update budget's least is derived)") {
  TempDir dir;
  const std::string edges = dir.file("e.bin"), g = dir.file("g");
  REQUIRE(graphso_cli({"generate", "rmat", "-o", edges, "--scale", "13", "--edge-factor", "8"}).status == 0);
  REQUIRE(graphso_cli({"prep", edges, "-o", g, "--engine", "xstream"}).status == 0);
  const std::string report = dir.file("r.json");
  // 65,536 edges of 8 bytes: a quarter is 128 KiB, under the 256 KiB the update budget once needed alone.
  for (const char* mode : {"independent", "partition", "chunk"}) {
    CliResult r = graphso_cli(with_w1({"run", g, "--engine", "xstream", "--sharing", mode, "--graph-mem", "128K", "--report", report}));
    INFO(mode << ": " << r.err);
    REQUIRE(r.status == 0);
    REQUIRE(report_field(read_small_file(report), "update_budget_bytes") < (128u << 10));
  }
}

TEST_CASE("memory: batches of 64 and 1,000 jobs hold --mem + 16 MiB with right results, and one too large names how many fit") {
  TempDir dir;
  const std::string edges = dir.file("e.bin"), g = dir.file("g");
  REQUIRE(graphso_cli({"generate", "rmat", "-o", edges, "--scale", "13", "--edge-factor", "16", "--weighted"}).status == 0);
  REQUIRE(graphso_cli({"prep", edges, "-o", g, "--engine", "both", "--chunk-size", "64K"}).status == 0);
  // A job file of many point traversals beside a few whole-graph jobs, from random sources: each
  // kind in groups, the whole-graph ones identical.
  auto job_file = [&](size_t jobs) {
    std::string toml;
    for (size_t k = 0; k < jobs; ++k) {
      const size_t kind = k % 20;
      const char* algo = kind < 12 ? "bfs" : kind < 16 ? "sssp" : kind < 18 ? "ppr" : kind < 19 ? "wcc" : "pagerank";
      toml += fmt::format("[[job]]\nalgo = \"{}\"\n", algo);
      if (kind < 18) toml += "source = \"random\"\n";
      if (kind == 16 || kind == 17) toml += "tolerance = 1e-4\n";
      if (kind == 19) toml += "iterations = 5\n";
    }
    const std::string path = dir.file(fmt::format("{}.toml", jobs));
    write_text(path, toml);
    return path;
  };
  for (size_t jobs : {64, 1000}) {
    const std::string file = job_file(jobs), out = dir.file("out"), report = dir.file("r.json");
    for (const char* engine : {"gridgraph", "xstream"}) {
      std::filesystem::remove_all(out);
      // X-Stream stages a group's wide records (a delta-PageRank group of 64 lanes: 516 bytes): its least
      // update budget is larger.
      MeasuredRun m = graphso_measured({"run", g, "--engine", engine, "--jobs", file, "--graph-mem", "4M", "--out", out,
                                        "--report", report});
      INFO(jobs << " jobs, " << engine << ": " << m.result.err);
      REQUIRE(m.result.status == 0);
      const std::string json = read_small_file(report);
      const uint64_t mem = report_field(json, "mem_bytes");
      INFO("kernel " << (m.max_rss_bytes >> 10) << " KiB, --mem " << (mem >> 10) << " KiB");
#ifndef __SANITIZE_ADDRESS__
      REQUIRE(m.max_rss_bytes <= mem + (16u << 20));
#endif
      REQUIRE(files_in(out).size() == jobs + 1);  // and the results marker
      // Grouped: far fewer runnables than jobs.
      REQUIRE(json.find("\"method\": \"bit-parallel bfs\"") != std::string::npos);
    }
    // Right results: every job against the reference.
    CliResult verified = graphso_cli({"run", g, "--jobs", file, "--graph-mem", "2M", "--verify"});
    INFO(verified.err);
    REQUIRE(verified.status == 0);
    size_t checked = 0;
    for (size_t at = verified.out.find("  verified "); at != std::string::npos; at = verified.out.find("  verified ", at + 1)) ++checked;
    REQUIRE(checked == jobs);
  }
  // The 1,000 jobs' vertex state in a budget that holds part of it: refused up front, naming how
  // many of them (in the file's order) fit.
  const std::string out = dir.file("refused");
  CliResult r = graphso_cli({"run", g, "--jobs", job_file(1000), "--mem", "24M", "--out", out});
  require_one_line_error(r, "of them fit");
  REQUIRE_THAT(r.err, Catch::Contains("the vertex state of 1000 jobs"));
  REQUIRE(!std::filesystem::exists(out));
}
