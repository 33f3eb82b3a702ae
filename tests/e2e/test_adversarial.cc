// Issue 20's adversarial findings, one test case per numbered item: each reproduces the finding's
// command (scaled down) and asserts the fixed behaviour.
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "datasets/edge_list.h"
#include "base/checksum.h"
#include "base/file.h"
#include "tests/e2e/cli.h"
#include "tests/test_graphs.h"

using namespace graphso;
using namespace graphso::testing;
namespace fs = std::filesystem;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Two commands started together; returns both results.
std::pair<CliResult, CliResult> race(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  CliResult ra, rb;
  std::thread other([&] { rb = graphso_cli(b); });
  ra = graphso_cli(a);
  other.join();
  return {ra, rb};
}

uint64_t stat_edges(const std::string& store) {
  CliResult r = graphso_cli({"store-stat", store});
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("edges: ", 0) == 0) return std::stoull(line.substr(7));
  FAIL("store-stat printed no edges line");
  return 0;
}

// A pid that belonged to a process now gone.
pid_t dead_pid() {
  pid_t pid = fork();
  if (pid == 0) _exit(0);
  int status = 0;
  waitpid(pid, &status, 0);
  return pid;
}

std::string small_rmat(const TempDir& dir, const std::string& name, uint32_t scale, uint32_t edge_factor, uint64_t seed) {
  EdgeSet set = rmat_edges(scale, edge_factor, false, seed, dir);
  std::string path = dir.file(name);
  write_edges(path, set);
  return path;
}

}  // namespace

TEST_CASE("adversarial 1: one writer per store; two ingests or two creations never corrupt it; readers read-only") {
  TempDir dir;
  const std::string a = small_rmat(dir, "a.bin", 10, 4, 1), b = small_rmat(dir, "b.bin", 10, 4, 2);
  const uint64_t edges = 4096;
  int refused = 0;
  for (int trial = 0; trial < 50; ++trial) {
    // Concurrent writers into an existing store.
    const std::string store = dir.file("s" + std::to_string(trial));
    REQUIRE(graphso_cli({"ingest", store, "--input", a, "--log-slots", "512", "--vertices", "1024"}).status == 0);
    auto [ra, rb] = race({"ingest", store, "--input", a, "--batch", "50"}, {"ingest", store, "--input", b, "--batch", "50"});
    // `a` run again is already ingested and adds nothing, unless `b` ran whole before it: the
    // store remembers only its current input, so `a` is then a new input and is added again.
    // `b` adds its edges if it ran.
    for (const CliResult* r : {&ra, &rb})
      if (r->status != 0) {
        require_one_line_error(*r, "another process is writing to this store");
        ++refused;
      }
    INFO(ra.out << rb.out);
    const bool a_again = ra.status == 0 && ra.out.find("is already ingested") == std::string::npos;
    if (a_again) REQUIRE(rb.status == 0);
    REQUIRE(stat_edges(store) == edges + (rb.status == 0 ? edges : 0) + (a_again ? edges : 0));
    REQUIRE(graphso_cli({"snapshot", store, "-o", dir.file("snap")}).status == 0);

    // Concurrent creations of one store.
    const std::string fresh = dir.file("c" + std::to_string(trial));
    auto [ca, cb] = race({"ingest", fresh, "--input", a, "--log-slots", "512", "--vertices", "1024", "--batch", "50"},
                         {"ingest", fresh, "--input", b, "--log-slots", "512", "--vertices", "1024", "--batch", "50"});
    for (const CliResult* r : {&ca, &cb})
      if (r->status != 0) {
        INFO(r->err);
        REQUIRE(r->err_lines().size() == 1);
        REQUIRE_THAT(r->err, Catch::Contains("another process"));
      }
    REQUIRE((ca.status == 0 || cb.status == 0));
    REQUIRE(stat_edges(fresh) == edges * ((ca.status == 0) + (cb.status == 0)));
    REQUIRE_FALSE(path_exists(fresh + ".new"));
  }
  WARN(refused << " of 50 concurrent ingests were refused as a second writer");

  // Readers on a read-only filesystem.
  if (geteuid() != 0) {
    WARN("not root: the read-only filesystem check is skipped");
    return;
  }
  SmallFilesystem media(dir.file("ro"), 64);
  REQUIRE(media.mounted());
  const std::string store = dir.file("ro/store");
  REQUIRE(graphso_cli({"ingest", store, "--input", a, "--log-slots", "512"}).status == 0);
  media.read_only();
  REQUIRE(stat_edges(store) == edges);
  CliResult snap = graphso_cli({"snapshot", store, "-o", dir.file("ro-snap")});
  INFO(snap.err);
  REQUIRE(snap.status == 0);
}

TEST_CASE("adversarial 2: a truncated or corrupt .gz is an error naming the line reached, not fewer edges") {
  TempDir dir;
  std::string text;
  for (int i = 1; i <= 20000; ++i) text += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  write_text(dir.file("b.el"), text);
  REQUIRE(run_program({"gzip", "-kn", dir.file("b.el")}).status == 0);
  std::string gz = slurp(dir.file("b.el.gz"));
  write_text(dir.file("t.el.gz"), gz.substr(0, 30000));
  CliResult r = graphso_cli({"convert", dir.file("t.el.gz"), "-o", dir.file("t.bin")});
  require_one_line_error(r, "t.el.gz: the compressed input ends early (truncated?) around line");
  // The line reached is where the decompressed text stops, not line 0.
  const std::string after = r.err.substr(r.err.find("around line ") + 12);
  REQUIRE(std::stoull(after) > 8000);
  REQUIRE(files_in(dir.path()) == std::vector<std::string>{"b.el", "b.el.gz", "t.el.gz"});
  // A flipped byte in the middle of the stream.
  std::string bad = gz;
  bad[bad.size() / 2] ^= 0x55;
  write_text(dir.file("c.el.gz"), bad);
  require_one_line_error(graphso_cli({"convert", dir.file("c.el.gz"), "-o", dir.file("c.bin")}), "c.el.gz: ");
  REQUIRE_FALSE(path_exists(dir.file("c.bin")));
  // The whole file still converts.
  REQUIRE_THAT(graphso_cli({"convert", dir.file("b.el.gz"), "-o", dir.file("b.bin")}).out, Catch::Contains("20000 edges"));
}

TEST_CASE("adversarial 3: no crash: toml++ assertions, --log-slots 0, ingest into a full filesystem") {
  TempDir dir;
  const std::string edges = small_rmat(dir, "e.bin", 8, 4, 1);
  REQUIRE(graphso_cli({"prep", edges, "-o", dir.file("g")}).status == 0);
  for (const char* text : {"[}", "[[[1]]]", "[[[a]]]", "[[=", "a = \"\xc3\xa9\" ]"}) {
    write_text(dir.file("bad.toml"), text);
    CliResult r = graphso_cli({"run", dir.file("g"), "--jobs", dir.file("bad.toml")});
    INFO(text);
    require_one_line_error(r, "bad.toml");
  }
  // Non-ASCII in a comment is fine.
  write_text(dir.file("ok.toml"), "# caf\xc3\xa9 \xef\xb7\x90 \xe3\x80\x80\n[[job]]\nalgo = \"wcc\"  # \xc3\xa9\n");
  CliResult ok = graphso_cli({"run", dir.file("g"), "--jobs", dir.file("ok.toml")});
  INFO(ok.err);
  REQUIRE(ok.status == 0);

  require_usage_error(graphso_cli({"ingest", dir.file("s"), "--input", edges, "--log-slots", "0"}),
                         "--log-slots 0 is below the minimum of 64");
  REQUIRE_FALSE(path_exists(dir.file("s")));

  if (geteuid() != 0) {
    WARN("not root: the full-filesystem check is skipped");
    return;
  }
  SmallFilesystem media(dir.file("small"), 24);
  REQUIRE(media.mounted());
  // The default log alone (16M slots, 128 MiB) does not fit 24 MiB: refused up front, nothing left.
  CliResult full = graphso_cli({"ingest", dir.file("small/store"), "--input", edges});
  require_one_line_error(full, "cannot reserve the store's");
  REQUIRE(files_in(dir.file("small")).empty());
  // An existing store on a filesystem that filled up since: it still opens and takes edges (its
  // space was reserved when it was made).
  REQUIRE(graphso_cli({"ingest", dir.file("small/store"), "--input", edges, "--log-slots", "512"}).status == 0);
  media.fill();
  const std::string more = small_rmat(dir, "more.bin", 8, 4, 7);
  CliResult after = graphso_cli({"ingest", dir.file("small/store"), "--input", more});
  INFO(after.err);
  REQUIRE(after.status == 0);
  REQUIRE(stat_edges(dir.file("small/store")) == 2048);
}

TEST_CASE("adversarial 4: numeric options are parsed once, in range, or refused naming the option") {
  TempDir dir;
  const std::string edges = small_rmat(dir, "e.bin", 8, 4, 1);
  REQUIRE(graphso_cli({"prep", edges, "-o", dir.file("g")}).status == 0);
  const std::string g = dir.file("g");
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"generate", "rmat", "--scale", "4", "--edge-factor", "-1", "-o", dir.file("x.bin")}, "option '--edge-factor': '-1' is negative"},
      {{"generate", "rmat", "--seed", "-1", "-o", dir.file("x.bin")}, "option '--seed': '-1' is negative"},
      {{"generate", "rmat", "--scale", "99999999999", "-o", dir.file("x.bin")}, "option '--scale': '99999999999' is out of range"},
      {{"generate", "road", "--drop", "nan", "-o", dir.file("x.bin")}, "option '--drop': 'nan' is not a finite number"},
      {{"ingest", dir.file("s"), "--input", edges, "--batch", "-1"}, "option '--batch': '-1' is negative"},
      {{"ingest", dir.file("s"), "--input", edges, "--threads", "2x"}, "option '--threads': '2x' is not a whole number"},
      {{"run", g, "--job", "wcc", "--max-rounds", "-1"}, "option '--max-rounds': '-1' is negative"},
      {{"run", g, "--job", "wcc", "--mem", "17179869184G"}, "--mem: '17179869184G' is too large"},
      {{"run", g, "--job", "wcc", "--mem", "99999999999999999999"}, "--mem: '99999999999999999999' is too large"},
      {{"run", g, "--job", "wcc", "--sharing", "chunk", "--cache-ratio", "nan"}, "option '--cache-ratio': 'nan' is not a finite number"},
      {{"run", g, "--job", "wcc", "--threads", "-3"}, "--threads -3 is out of range (0 to 1024"},
      {{"prep", edges, "-o", dir.file("h"), "--partitions", "-2"}, "option '--partitions': '-2' is negative"},
  };
  for (const Case& c : cases) {
    INFO(c.args[0] << " " << c.args[c.args.size() - 2 >= 2 ? 2 : 0]);
    require_usage_error(graphso_cli(c.args), c.message);
  }
  REQUIRE(files_in(dir.path()) == std::vector<std::string>{"e.bin", "g", "rmat.bin"});
}

TEST_CASE("adversarial 5: a failed or killed prep leaves the graph it would replace whole") {
  TempDir dir;
  const std::string small = small_rmat(dir, "small.bin", 10, 8, 1);
  const std::string large = small_rmat(dir, "large.bin", 15, 16, 2);
  const std::string g = dir.file("g");
  REQUIRE(graphso_cli({"prep", small, "-o", g}).status == 0);
  CliResult reference = graphso_cli({"run", g, "--job", "wcc", "--out", dir.file("ref")});
  REQUIRE(reference.status == 0);
  // Killed at moments spread over one uninterrupted prep of the larger graph.
  auto t0 = std::chrono::steady_clock::now();
  REQUIRE(graphso_cli({"prep", large, "-o", dir.file("timing")}).status == 0);
  const auto span = std::chrono::steady_clock::now() - t0;
  REQUIRE(graphso_cli({"run", dir.file("timing"), "--job", "wcc", "--out", dir.file("ref-large")}).status == 0);
  // Whole: the old graph, or (killed after its rename put it in place) the new one whole.
  auto intact = [&] {
    REQUIRE(graphso_cli({"inspect", g, "--verify"}).status == 0);
    REQUIRE(graphso_cli({"run", g, "--job", "wcc", "--out", dir.file("now")}).status == 0);
    const std::string now = slurp(dir.file("now/0-wcc.txt"));
    if (now == slurp(dir.file("ref-large/0-wcc.txt"))) {
      REQUIRE(graphso_cli({"prep", small, "-o", g}).status == 0);
      return;
    }
    REQUIRE(now == slurp(dir.file("ref/0-wcc.txt")));
  };
  std::mt19937_64 rng(5);
  for (int kill_index = 0; kill_index < 20; ++kill_index) {
    if (killed_after({"prep", large, "-o", g, "--engine", "both"}, span * (rng() % 1000) / 1000)) intact();
    // A prep that finished before the kill replaced the graph whole: put the small one back.
    else REQUIRE(graphso_cli({"prep", small, "-o", g}).status == 0);
  }
  // Dead preps' staging directories are removed by the next prep of the same target.
  REQUIRE(graphso_cli({"prep", small, "-o", g}).status == 0);
  for (const std::string& name : files_in(dir.path())) REQUIRE(name.find(".staging-") == std::string::npos);

  if (geteuid() != 0) {
    WARN("not root: the full-filesystem check is skipped");
    return;
  }
  SmallFilesystem media(dir.file("small-fs"), 6);
  REQUIRE(media.mounted());
  const std::string on_media = dir.file("small-fs/g");
  REQUIRE(graphso_cli({"prep", small, "-o", on_media}).status == 0);
  CliResult full = graphso_cli({"prep", large, "-o", on_media, "--encoding", "raw"});  // raw: larger than the media
  REQUIRE(full.status == 1);
  REQUIRE_THAT(full.err, Catch::Contains("No space left on device"));
  REQUIRE(files_in(dir.file("small-fs")) == std::vector<std::string>{"g"});
  REQUIRE(graphso_cli({"run", on_media, "--job", "wcc", "--out", dir.file("media-out")}).status == 0);
  REQUIRE(slurp(dir.file("media-out/0-wcc.txt")) == slurp(dir.file("ref/0-wcc.txt")));
}

TEST_CASE("adversarial 6: concurrent runs never mix result sets or collide on a lazily built TChunk table") {
  TempDir dir;
  const std::string edges = small_rmat(dir, "e.bin", 9, 8, 3);
  const std::string g = dir.file("g");
  REQUIRE(graphso_cli({"prep", edges, "-o", g, "--no-chunks"}).status == 0);
  // The two possible result sets.
  for (const char* source : {"0", "1"}) {
    REQUIRE(graphso_cli({"run", g, "--job", std::string("bfs:name=b:source=") + source, "--out", dir.file(std::string("ref") + source)}).status == 0);
  }
  const std::string ref0 = slurp(dir.file("ref0/b.txt")), ref1 = slurp(dir.file("ref1/b.txt"));
  REQUIRE(ref0 != ref1);
  int refused = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const std::string out = dir.file("out");
    auto [a, b] = race({"run", g, "--job", "bfs:name=b:source=0", "--job", "wcc:name=w", "--out", out},
                       {"run", g, "--job", "bfs:name=b:source=1", "--out", out});
    INFO(a.err << b.err);
    // Overlapping runs on one --out: the second is refused by the first's lock, before it runs.
    for (const CliResult* r : {&a, &b})
      if (r->status != 0) require_one_line_error(*r, "--out " + out + ": another graphso process is writing there");
    REQUIRE((a.status == 0 || b.status == 0));
    if (a.status != 0 || b.status != 0) ++refused;
    // Whole sets: the second run's set has no w.txt, the first's has one with b from source 0.
    std::vector<std::string> names = files_in(out);
    std::string result = slurp(out + "/b.txt");
    if (std::find(names.begin(), names.end(), "w.txt") != names.end()) REQUIRE(result == ref0);
    else REQUIRE(result == ref1);
  }
  WARN(refused << " of 50 overlapping pairs of runs on one --out: one refused by the other's lock");
  for (int trial = 0; trial < 50; ++trial) {
    const std::string chunk = std::to_string(4096 * (trial + 1));
    auto [a, b] = race({"run", g, "--job", "wcc", "--sharing", "chunk", "--chunk-size", chunk},
                       {"run", g, "--job", "wcc", "--sharing", "chunk", "--chunk-size", chunk});
    INFO(a.err << b.err);
    REQUIRE(a.status == 0);
    REQUIRE(b.status == 0);
  }
  for (const std::string& name : files_in(g)) REQUIRE(name.find(".tmp-") == std::string::npos);
}

TEST_CASE("adversarial 7: output paths are checked before the run; results and report are published together") {
  TempDir dir;
  const std::string edges = small_rmat(dir, "e.bin", 9, 8, 3);
  const std::string g = dir.file("g");
  REQUIRE(graphso_cli({"prep", edges, "-o", g}).status == 0);
  CliResult r = graphso_cli({"run", g, "--job", "wcc", "--job", "bfs:source=0", "--out", dir.file("out"), "--report",
                             dir.file("nodir/r.json")});
  require_one_line_error(r, "nodir/r.json");
  REQUIRE_FALSE(path_exists(dir.file("out")));
  REQUIRE(r.out.empty());  // refused before the run
  // --out under a missing directory names the directory (not the lock file beside the results).
  CliResult no_parent = graphso_cli({"run", g, "--job", "wcc", "--out", dir.file("a/b/res")});
  require_one_line_error(no_parent, "--out " + dir.file("a/b/res") + ": the directory " + dir.file("a/b") + " does not exist");
  REQUIRE(no_parent.out.empty());
  REQUIRE_FALSE(path_exists(dir.file("a")));
  // Every output name is checked before the run: a job name no file can carry (a million
  // characters: once a 1 MB error after a whole batch), a --report that is a directory, empty
  // --out and --report, a thread count libgomp cannot make.
  const std::string long_name(1'000'000, 'x');
  write_text(dir.file("long.toml"), "[[job]]\nalgo = \"wcc\"\nname = \"" + long_name + "\"\n");
  CliResult named = graphso_cli({"run", g, "--jobs", dir.file("long.toml"), "--out", dir.file("out")});
  require_one_line_error(named, "has 1000000 characters, more than 200");
  REQUIRE(named.err.size() < 300);
  REQUIRE(named.out.empty());
  fs::create_directories(dir.file("a-directory"));
  CliResult to_dir = graphso_cli({"run", g, "--job", "wcc", "--out", dir.file("out"), "--report", dir.file("a-directory")});
  require_one_line_error(to_dir, "--report " + dir.file("a-directory") + ": is a directory");
  REQUIRE(to_dir.out.empty());
  REQUIRE_FALSE(path_exists(dir.file("out")));
  require_usage_error(graphso_cli({"run", g, "--job", "wcc", "--out", ""}), "--out needs a directory");
  require_usage_error(graphso_cli({"run", g, "--job", "wcc", "--report", ""}), "--report needs a file");
  require_usage_error(graphso_cli({"run", g, "--job", "wcc", "--threads", "100000"}), "--threads 100000 is out of range (0 to 1024");
  // The report lists every result file beside it with its checksum: a report and results from two
  // runs (a kill between their two renames) are told apart.
  REQUIRE(graphso_cli({"run", g, "--job", "wcc", "--out", dir.file("ok"), "--report", dir.file("ok.json")}).status == 0);
  const std::string report = slurp(dir.file("ok.json")), wcc = slurp(dir.file("ok/0-wcc.txt"));
  REQUIRE_THAT(report, Catch::Contains("\"run_id\": \""));
  REQUIRE_THAT(report, Catch::Contains("\"results_dir\": \"" + dir.file("ok") + "\""));
  REQUIRE_THAT(report, Catch::Contains("\"file\": \"0-wcc.txt\"") && Catch::Contains(fmt::format("\"crc32c\": \"{:08x}\"",
                                                  crc32c_of(std::as_bytes(std::span<const char>(wcc.data(), wcc.size()))))));
  REQUIRE_FALSE(path_exists(dir.file(".ok.lock")));  // the lock goes with the run
  // --out holding someone else's files is refused, and left as it was.
  fs::create_directories(dir.file("mine"));
  write_text(dir.file("mine/notes.txt"), "mine");
  require_one_line_error(graphso_cli({"run", g, "--job", "wcc", "--out", dir.file("mine")}), "not graphso results");
  REQUIRE(files_in(dir.file("mine")) == std::vector<std::string>{"notes.txt"});

  if (geteuid() != 0) {
    WARN("not root: the full-filesystem check is skipped");
    return;
  }
  SmallFilesystem media(dir.file("small"), 2);
  REQUIRE(media.mounted());
  const std::string out = dir.file("small/out");
  REQUIRE(graphso_cli({"run", g, "--job", "wcc", "--job", "bfs:source=0", "--out", out, "--report", dir.file("small/r.json")}).status == 0);
  const std::string before = slurp(out + "/0-wcc.txt");
  const std::string report_before = slurp(dir.file("small/r.json"));
  media.fill();
  CliResult full = graphso_cli({"run", g, "--job", "wcc", "--job", "bfs:source=1", "--job", "pagerank", "--out", out,
                                "--report", dir.file("small/r.json")});
  REQUIRE(full.status == 1);
  REQUIRE_THAT(full.err, Catch::Contains("No space left on device"));
  // The earlier set whole, nothing of the failed run, no temporaries.
  REQUIRE(files_in(out) == std::vector<std::string>{".graphso-results", "0-wcc.txt", "1-bfs.txt"});
  REQUIRE(slurp(out + "/0-wcc.txt") == before);
  REQUIRE(slurp(dir.file("small/r.json")) == report_before);
  REQUIRE(files_in(dir.file("small")) == std::vector<std::string>{"filler", "out", "r.json"});
}

TEST_CASE("adversarial 9: the chunk cache stays inside the budget, whatever the budget") {
  // 8 MiB chunks freed and allocated all run long once grew the heap past --mem (glibc's dynamic
  // mmap threshold): +16 and +21 MiB at 96M/192M in GridGraph, +32 and +60 MiB in X-Stream.
  TempDir dir;
  const std::string edges = small_rmat(dir, "e.bin", 17, 16, 4);
  const std::string g = dir.file("g");
  REQUIRE(graphso_cli({"prep", edges, "-o", g, "--engine", "both", "--chunk-size", "2M"}).status == 0);
  for (const char* engine : {"gridgraph", "xstream"})
    for (uint64_t mem_mib : {16, 32}) {
      CliResult r = graphso_cli({"run", g, "--engine", engine, "--sharing", "chunk", "--mem", std::to_string(mem_mib) + "M",
                                 "--chunk-size", "2M", "--job", "bfs:source=0", "--job", "wcc", "--job",
                                 "pagerank-delta:tolerance=0.01", "--report", dir.file("r.json")});
      INFO(r.err);
      REQUIRE(r.status == 0);
      // The kernel's high-water mark of graphso's own image (VmHWM), as the report gives it.
      const uint64_t peak = report_field(slurp(dir.file("r.json")), "peak_rss_bytes");
      INFO(engine << " --mem " << mem_mib << "M: peak RSS " << (peak >> 20) << " MiB");
      REQUIRE(peak > (mem_mib << 20) / 4);  // a real measurement
#ifdef __SANITIZE_ADDRESS__
      // AddressSanitizer's shadow memory and quarantine are in the RSS: the bound is for real builds.
      WARN("sanitizer build: peak RSS " << (peak >> 20) << " MiB not held to --mem " << mem_mib << "M");
#else
      REQUIRE(peak <= (mem_mib + 16) << 20);
#endif
    }
}

TEST_CASE("adversarial 9: empty rounds before an arrival are skipped") {
  TempDir dir;
  const std::string edges = small_rmat(dir, "e.bin", 8, 4, 1);
  const std::string g = dir.file("g");
  REQUIRE(graphso_cli({"prep", edges, "-o", g}).status == 0);
  write_text(dir.file("late.toml"), "[[job]]\nalgo = \"wcc\"\narrive_after = 1000000\n");
  CliResult r = graphso_cli({"run", g, "--jobs", dir.file("late.toml"), "--mem", "1M", "--report", dir.file("r.json")});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const std::string report = slurp(dir.file("r.json"));
  REQUIRE(report.size() < 64 * 1024);
  REQUIRE_THAT(report, Catch::Contains("\"round\": 1000000"));
  REQUIRE_THAT(report, !Catch::Contains("\"round\": 999999"));
}

TEST_CASE("adversarial 10: what dead processes left is removed by the next run of the same command, and only that") {
  TempDir dir;
  const std::string edges = small_rmat(dir, "e.bin", 8, 4, 1);
  const pid_t gone = dead_pid();
  const std::string dead_tmp = dir.file("c.bin.tmp-" + std::to_string(gone) + "-0");
  const std::string live_tmp = dir.file("c.bin.tmp-" + std::to_string(getpid()) + "-0");
  const std::string dead_staging = dir.file("g.staging-" + std::to_string(gone) + "-3");
  write_text(dead_tmp, "partial");
  write_text(live_tmp, "another writer's");
  fs::create_directories(dead_staging + "/inner");
  REQUIRE(graphso_cli({"convert", edges, "-o", dir.file("c.bin")}).status == 0);
  REQUIRE_FALSE(path_exists(dead_tmp));
  REQUIRE(path_exists(live_tmp));
  REQUIRE(graphso_cli({"prep", dir.file("c.bin"), "-o", dir.file("g")}).status == 0);
  REQUIRE_FALSE(path_exists(dead_staging));
  // A snapshot killed mid-way leaves a staging directory; the next snapshot removes it.
  const std::string store = dir.file("st");
  REQUIRE(graphso_cli({"ingest", store, "--input", edges, "--log-slots", "512"}).status == 0);
  const std::string dead_snapshot = dir.file("snap.staging-" + std::to_string(gone) + "-0");
  fs::create_directories(dead_snapshot);
  REQUIRE(graphso_cli({"snapshot", store, "-o", dir.file("snap/")}).status == 0);  // trailing slash too
  REQUIRE_FALSE(path_exists(dead_snapshot));
  REQUIRE(path_exists(dir.file("snap/meta")));
  // An X-Stream run's scratch directory that a killed run left is removed by the next run spilling
  // there; a live one's is left alone.
  REQUIRE(graphso_cli({"prep", dir.file("c.bin"), "-o", dir.file("gx"), "--engine", "both"}).status == 0);
  const std::string dead_scratch = dir.file("spill/graphso-scratch.scratch-" + std::to_string(gone) + "-0");
  const std::string live_scratch = dir.file("spill/graphso-scratch.scratch-" + std::to_string(getpid()) + "-0");
  fs::create_directories(dead_scratch);
  fs::create_directories(live_scratch);
  write_text(dead_scratch + "/xstream.updates", "left behind");
  REQUIRE(graphso_cli({"run", dir.file("gx"), "--engine", "xstream", "--job", "wcc", "--spill-dir", dir.file("spill")})
              .status == 0);
  REQUIRE_FALSE(path_exists(dead_scratch));
  REQUIRE(files_in(dir.file("spill")) == std::vector<std::string>{fs::path(live_scratch).filename().string()});
  // A bad crash point is refused before a store file exists.
  require_usage_error(graphso_cli({"ingest", dir.file("st2"), "--input", edges, "--shadow", dir.file("sh"), "--crash-at", "bogus"}),
                         "unknown crash point 'bogus'");
  REQUIRE_FALSE(path_exists(dir.file("st2")));
  REQUIRE_FALSE(path_exists(dir.file("st2.new")));
}

TEST_CASE("adversarial 11: messages say what was declared and where, with control bytes escaped") {
  TempDir dir;
  write_text(dir.file("huge.mtx"), "%%MatrixMarket matrix coordinate pattern general\n3 3 1000000000000\n1 2\n");
  require_one_line_error(graphso_cli({"convert", dir.file("huge.mtx"), "-o", dir.file("x.bin")}),
                         "file ends after 1 entries, the header declares 1000000000000");
  write_text(dir.file("nan.mtx"), "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 nan\n");
  require_one_line_error(graphso_cli({"convert", dir.file("nan.mtx"), "-o", dir.file("x.bin"), "--ignore-weights"}),
                         "nan.mtx:3: value 'nan' is not a finite number");
  write_text(dir.file("ctl.el"), std::string("1 2\n3 4\r\n5 x\0y\r\n", 17));
  CliResult ctl = graphso_cli({"convert", dir.file("ctl.el"), "-o", dir.file("x.bin")});
  require_one_line_error(ctl, "destination id 'x\\x00y' is not a non-negative integer");
  REQUIRE(ctl.err.find('\0') == std::string::npos);
  // A graphso edge list whose header (with a valid checksum) claims 2^40 vertices.
  const std::string edges = small_rmat(dir, "e.bin", 8, 4, 1);
  {
    std::string bytes = slurp(edges);
    const uint64_t vertices = uint64_t{1} << 40;
    std::memcpy(bytes.data() + 16, &vertices, 8);  // the header's vertex count, then its CRC of the 60 bytes before it
    const uint32_t crc = crc32_of(std::as_bytes(std::span<const char>(bytes.data(), 60)));
    std::memcpy(bytes.data() + 60, &crc, 4);
    write_text(dir.file("big.bin"), bytes);
    require_one_line_error(graphso_cli({"prep", dir.file("big.bin"), "-o", dir.file("big")}),
                           "the header declares 1099511627776 vertices");
  }
  REQUIRE(graphso_cli({"prep", edges, "-o", dir.file("g")}).status == 0);
  write_text(dir.file("noname.toml"), "[[job]]\nalgo = \"wcc\"\nname = \"\"\n");
  require_one_line_error(graphso_cli({"run", dir.file("g"), "--jobs", dir.file("noname.toml")}), "noname.toml:3: job 0: name is empty");
  write_text(dir.file("source.toml"), "[[job]]\nalgo = \"bfs\"\n\nsource = 100000\n");
  require_one_line_error(graphso_cli({"run", dir.file("g"), "--jobs", dir.file("source.toml")}),
                         "source.toml:4: job 0: source = 100000 is out of range");
  require_one_line_error(graphso_cli({"run", dir.file("g"), "--jobs", dir.path()}), "is a directory, not a job file");
  write_text(dir.file("method.toml"), "[[job]]\nalgo = \"wcc\"\nmethod = \"label\"\n");
  REQUIRE(graphso_cli({"run", dir.file("g"), "--jobs", dir.file("method.toml")}).status == 0);
}

TEST_CASE("adversarial 12: a flipped edge record, a snapshot asked for another layout, job files from pipes, convert over its input") {
  TempDir dir;
  const std::string edges = small_rmat(dir, "e.bin", 8, 4, 1);
  // A flipped bit in an edge record (not the header): every reader of .bin refuses it, naming the
  // records, before anything is published.
  const std::string flipped = dir.file("flipped.bin");
  std::filesystem::copy_file(edges, flipped);
  flip_bit(flipped, 64 + 8 * 100 + 1, 3);  // edge 100's destination
  const std::string damaged = "flipped.bin: corrupt edge list: records 0..1023 do not match their checksum";
  require_one_line_error(graphso_cli({"prep", flipped, "-o", dir.file("g1")}), damaged);
  require_one_line_error(graphso_cli({"ingest", dir.file("s.pm"), "--input", flipped}), damaged);
  require_one_line_error(graphso_cli({"convert", flipped, "-o", dir.file("c.bin")}), damaged);
  require_one_line_error(graphso_cli({"export", flipped, "-o", dir.file("x.el")}), damaged);
  for (const char* made : {"g1", "s.pm", "c.bin", "x.el"}) REQUIRE_FALSE(path_exists(dir.file(made)));
  // A version 1 edge list (no record checksums) is still read, with a warning.
  std::string v1 = slurp(edges);
  const uint32_t version = 1;
  std::memcpy(v1.data() + 8, &version, 4);
  const uint32_t crc = crc32_of(std::as_bytes(std::span<const char>(v1.data(), 60)));
  std::memcpy(v1.data() + 60, &crc, 4);
  v1.resize(64 + 8 * 1024);  // no block checksums after the records
  write_text(dir.file("v1.bin"), v1);
  CliResult old = graphso_cli({"prep", dir.file("v1.bin"), "-o", dir.file("g1")});
  INFO(old.err);
  REQUIRE(old.status == 0);
  REQUIRE_THAT(old.err, Catch::Contains("v1.bin: an edge list of format 1, whose records carry no checksum"));

  // A snapshot asked for with other layout options is rebuilt with them, and says so.
  REQUIRE(graphso_cli({"ingest", dir.file("s.pm"), "--input", edges}).status == 0);
  REQUIRE(graphso_cli({"snapshot", dir.file("s.pm"), "-o", dir.file("snap")}).status == 0);
  REQUIRE_THAT(graphso_cli({"snapshot", dir.file("s.pm"), "-o", dir.file("snap")}).out, Catch::Contains("not rebuilt"));
  CliResult raw = graphso_cli({"snapshot", dir.file("s.pm"), "-o", dir.file("snap"), "--encoding", "raw"});
  REQUIRE_THAT(raw.out, Catch::Contains("rebuilt with the layout options asked for"));
  REQUIRE_THAT(graphso_cli({"inspect", dir.file("snap")}).out, Catch::Contains("raw"));
  REQUIRE_THAT(graphso_cli({"snapshot", dir.file("s.pm"), "-o", dir.file("snap"), "--encoding", "raw"}).out,
               Catch::Contains("not rebuilt"));

  // Job files from a pipe and from standard input.
  const std::string binary = graphso_binary();
  for (const std::string& jobs : {std::string("/dev/stdin"), std::string("-")}) {
    CliResult piped = run_program({"bash", "-c", "printf '[[job]]\\nalgo = \"wcc\"\\n' | '" + binary + "' run '" +
                                                     dir.file("snap") + "' --jobs " + jobs + " --out '" + dir.file("piped") + "'"});
    INFO(piped.err);
    REQUIRE(piped.status == 0);
    REQUIRE(path_exists(dir.file("piped/0-wcc.txt")));
  }
  // convert (and export) never write over their input.
  REQUIRE(graphso_cli({"export", edges, "-o", dir.file("e.el")}).status == 0);
  const std::string text = slurp(dir.file("e.el"));
  require_one_line_error(graphso_cli({"convert", dir.file("e.el"), "-o", dir.file("e.el")}), "is the input");
  require_one_line_error(graphso_cli({"export", edges, "-o", edges}), "is the input");
  REQUIRE(slurp(dir.file("e.el")) == text);
}
