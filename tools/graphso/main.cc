// graphso: concurrent out-of-core graph jobs over one copy of a graph.
#include <malloc.h>
#include <limits.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "base/error.h"
#include "base/version.h"
#include "tools/graphso/commands.h"

namespace {

const char* kUsage =
    "usage: graphso <command> [options]   (graphso help <command>, or graphso <command> --help, for its options)\n"
    "\n"
    "  convert INPUT -o OUT.bin        edge list (text/.gz/.mtx/raw) -> graphso edge list\n"
    "  generate rmat|road -o OUT.bin   R-MAT graph (Graph500 parameters) or weighted road grid\n"
    "  prep EDGES.bin -o GRAPH_DIR     prepare the on-disk graph (GridGraph grid; --engine both adds X-Stream's)\n"
    "  inspect GRAPH_DIR               describe (and with --verify, check) a prepared graph\n"
    "  run GRAPH_DIR --job ALGO[:K=V]  run concurrent jobs out of core, write results + report\n"
    "  jobs                            the algorithms a job can run, with their parameters\n"
    "  disk-bandwidth FILE             sequential O_DIRECT read bandwidth of FILE's device\n"
    "  ingest STORE --input EDGES.bin  append edges to the evolving-graph store (PMEM, crash-safe)\n"
    "  store-stat STORE                what the store holds, one key: value per line\n"
    "  store-check STORE               read everything in the store, both directions; report any damage\n"
    "  store-compact STORE             rebuild the store into a file sized for its live edges\n"
    "  snapshot STORE -o GRAPH_DIR     the store's current graph as a prepared graph for `run`\n"
    "  export GRAPH_DIR|EDGES.bin -o OUT  the graph as a text edge list (original ids)\n"
    "  validate RESULTS EXPECTED --algo A  check a result file against another by LDBC Graphalytics' rules\n"
    "  graphalytics DATASET.properties|DIR -o OUT  LDBC Graphalytics' benchmark: load, each algorithm, one batch, validated\n"
    "\n"
    "Exit status: 0 done, 1 error (one line on stderr), 2 usage error, 3 run: a job did not converge.\n";

// OpenMP threads that wait for work spin by default (libgomp: 300,000 turns), and a batch waits
// between every two loads. On a busy machine the spinning takes the cores the other processes and
// the working threads need: W1 on soc-slashdot out of core beside two busy processes took 0.6-2.2 s
// spinning against 0.51-0.54 s with idle threads asleep at once (OMP_WAIT_POLICY=passive). But a
// thread put to sleep at once is woken through the kernel at the next parallel region, and short
// rounds have several: a BFS on road-FLA's resident graph (870 passes) took 0.38 s so against
// 0.25-0.27 s spinning. A short spin, then sleep, has both: 3,000 turns (GOMP_SPINCOUNT), the same
// W1 0.35-0.47 s busy and 0.19-0.20 s quiet (passive 0.20-0.21 s), road-FLA's BFS 0.27 s (docs/
// evaluation.md, section 20). libgomp reads it when it loads, before main, so when the user has
// chosen neither, the program sets it and starts itself again, once. The binary's own path, not
// /proc/self/exe, so that the process keeps its name (ps, pkill).
constexpr const char* kSpinTurns = "3000";
void spin_briefly_when_idle(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") || std::getenv("GOMP_SPINCOUNT")) return;
  char self[PATH_MAX];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (length <= 0) return;
  self[length] = '\0';
  if (setenv("GOMP_SPINCOUNT", kSpinTurns, 1) != 0) return;
  execv(self, argv);  // returns only on failure: then run on with the default policy
}

}  // namespace

int main(int argc, char** argv) {
  spin_briefly_when_idle(argv);
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? graphso::kExitUsage : 0;
  }
  if (!std::strcmp(argv[1], "--version") || !std::strcmp(argv[1], "version")) {
    std::printf("graphso %s\n", graphso::kVersion);
    return 0;
  }
  // Large buffers (chunk cache entries, update bins, read buffers) come and go all run long.
  // glibc raises its mmap threshold after the first large free, and from then on serves them from
  // the heap, which keeps freed memory: peak RSS grew with the budget, past it (16-60 MiB at
  // 96-192 MiB with 8 MiB chunks). A fixed threshold maps and unmaps each one.
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  std::string command = argv[1];
  graphso::Args args(argv + 2, argv + argc);
  if (command == "help") {  // `graphso help run` is `graphso run --help`
    if (args.empty()) {
      std::fputs(kUsage, stdout);
      return 0;
    }
    command = args.front();
    args = {"--help"};
  }
  try {
    if (command == "convert") return graphso::cmd_convert(args);
    if (command == "generate") return graphso::cmd_generate(args);
    if (command == "prep") return graphso::cmd_prep(args);
    if (command == "inspect") return graphso::cmd_inspect(args);
    if (command == "run") return graphso::cmd_run(args);
    if (command == "jobs") return graphso::cmd_jobs(args);
    if (command == "disk-bandwidth") return graphso::cmd_disk_bandwidth(args);
    if (command == "ingest") return graphso::cmd_ingest(args);
    if (command == "store-stat") return graphso::cmd_store_stat(args);
    if (command == "store-check") return graphso::cmd_store_check(args);
    if (command == "store-compact") return graphso::cmd_store_compact(args);
    if (command == "snapshot") return graphso::cmd_snapshot(args);
    if (command == "export") return graphso::cmd_export(args);
    if (command == "validate") return graphso::cmd_validate(args);
    if (command == "graphalytics") return graphso::cmd_graphalytics(args);
    std::fprintf(stderr, "graphso: error: unknown command '%s'\n%s", command.c_str(), kUsage);
    return graphso::kExitUsage;
  } catch (const graphso::UsageError& e) {
    std::fprintf(stderr, "graphso: error: %s\n", e.what());
    return graphso::kExitUsage;
  } catch (const graphso::Error& e) {
    std::fprintf(stderr, "graphso: error: %s\n", e.what());
    return graphso::kExitError;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "graphso: error: out of memory\n");
    return graphso::kExitError;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "graphso: error: %s\n", e.what());
    return graphso::kExitError;
  }
}
