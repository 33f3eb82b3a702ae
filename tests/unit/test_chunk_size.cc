// The default chunk size: the rule over a measured device, its record in the graph directory,
// and what runs make of it (middleware/chunk_size.h).
#include <catch2/catch.hpp>

#include <fstream>

#include "base/error.h"
#include "base/file.h"
#include "engine/gridgraph/grid_engine.h"
#include "engine/gridgraph/grid_graph.h"
#include "middleware/chunk_size.h"
#include "middleware/graphso.h"
#include "middleware/tchunk.h"
#include "prep/graph_prep.h"
#include "tests/test_graphs.h"

using namespace graphso;
using graphso::testing::TempDir;

namespace {

// A device on which one request costs what `request_bytes` of transfer does.
DeviceProfile device_where_a_request_costs(double request_bytes) {
  DeviceProfile d;
  d.per_byte_seconds = 1e-9;
  d.per_request_seconds = request_bytes * 1e-9;
  return d;
}

void write_text(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

}  // namespace

TEST_CASE("chunk size rule: 32 requests' worth of transfer, the nearest power of two, clamped") {
  // This disk as measured (1.2 GB/s, 145 k random reads/s): a request costs 4.2 KiB of transfer.
  DeviceProfile here;
  here.per_byte_seconds = 1 / 1.2e9;
  here.per_request_seconds = 1 / 145e3 - 4096 * here.per_byte_seconds;
  REQUIRE(chunk_bytes_for_device(here) == 128 << 10);
  REQUIRE(chunk_bytes_for_device(device_where_a_request_costs(4096)) == 128 << 10);
  REQUIRE(chunk_bytes_for_device(device_where_a_request_costs(32 << 10)) == 1 << 20);
  // Nearest in powers of two: 32 x 5.5 KiB = 176 KiB is nearer 128 KiB, 32 x 6 KiB = 192 KiB nearer 256 KiB.
  REQUIRE(chunk_bytes_for_device(device_where_a_request_costs(5.5 * 1024)) == 128 << 10);
  REQUIRE(chunk_bytes_for_device(device_where_a_request_costs(6 * 1024)) == 256 << 10);
  // A disk (10 ms a seek at 150 MB/s) is clamped high; PMEM (no cost per request) and a fast
  // stretch of this disk (a request = 1 KiB of transfer) at the floor, 64 KiB.
  DeviceProfile disk;
  disk.per_byte_seconds = 1 / 150e6;
  disk.per_request_seconds = 0.01;
  REQUIRE(chunk_bytes_for_device(disk) == kLargestChosenChunk);
  REQUIRE(chunk_bytes_for_device(device_where_a_request_costs(0)) == kSmallestChosenChunk);
  REQUIRE(chunk_bytes_for_device(device_where_a_request_costs(1024)) == 64 << 10);
  REQUIRE(kSmallestChosenChunk == 64 << 10);
  REQUIRE(chunk_bytes_for_device(DeviceProfile{}) == kLargestChosenChunk);  // nothing measured: per byte 0
}

TEST_CASE("chunk size record: written by prep, read back whole; anything else is a one-line error") {
  TempDir dir;
  const GraphFiles files(dir.path());
  REQUIRE_FALSE(recorded_chunk_size(files).has_value());
  record_chunk_size(files, {131072, "measured (uring, median of 5): 1.2 GB/s"});
  std::optional<ChunkSizeChoice> back = recorded_chunk_size(files);
  REQUIRE(back.has_value());
  REQUIRE(back->bytes == 131072);
  REQUIRE(back->basis == "measured (uring, median of 5): 1.2 GB/s");

  for (const char* bad : {"", "\n", "65536\n", "65536 measured", "0 zero\n", "x65536 measured\n", " 65536 measured\n",
                          "65536 two\nlines\n", "99999999999999 too large\n", "-1 negative\n"}) {
    INFO("record '" << bad << "'");
    write_text(files.chunk_size(), bad);
    const std::string message = graphso::testing::error_of([&] { recorded_chunk_size(files); });
    REQUIRE_THAT(message, Catch::Contains("chunk_size: not a chunk-size record") && Catch::Contains("re-run graphso prep"));
    REQUIRE(message.find('\n') == std::string::npos);
  }
}

TEST_CASE("chunk size asked for: 0 is the directory's record (64 KiB without one), formula is Formula (1), else itself") {
  TempDir dir;
  const GraphFiles files(dir.path());
  REQUIRE(requested_chunk_size(0, files, 1ull << 30, 1 << 20, 2).bytes == kDefaultChunkBytes);
  REQUIRE_THAT(requested_chunk_size(0, files, 1ull << 30, 1 << 20, 2).basis, Catch::Contains("no chunk-size record"));
  record_chunk_size(files, {256 << 10, "measured here"});
  REQUIRE(requested_chunk_size(0, files, 1ull << 30, 1 << 20, 2).bytes == 256 << 10);
  REQUIRE(requested_chunk_size(0, files, 1ull << 30, 1 << 20, 2).basis == "measured here");
  REQUIRE(requested_chunk_size(1 << 20, files, 1ull << 30, 1 << 20, 2).bytes == 1 << 20);
  REQUIRE(requested_chunk_size(kFormulaChunkBytes, files, 1ull << 30, 1 << 20, 2).bytes ==
          formula_chunk_bytes(1ull << 30, 1 << 20, 2));
}

TEST_CASE("chunk size measured: a file too small keeps 64 KiB and says so; a large enough one gives the rule's size") {
  TempDir dir;
  const std::string file = dir.file("edges");
  {
    File out(file, File::Mode::Write);
    std::vector<std::byte> bytes(8 << 20, std::byte{7});
    out.pwrite_all(bytes, 0);
  }
  ChunkSizeChoice small = measure_chunk_bytes(file, ReaderOptions{});
  REQUIRE(small.bytes == kDefaultChunkBytes);
  REQUIRE_THAT(small.basis, Catch::Contains("too small to measure the device on"));

  ChunkSizeChoice measured = measure_chunk_bytes(file, ReaderOptions{}, 1 << 20);
  INFO(measured.basis);
  REQUIRE_THAT(measured.basis, Catch::StartsWith("measured (") && Catch::Contains("median of 5"));
  REQUIRE(measured.bytes >= kSmallestChosenChunk);
  REQUIRE(measured.bytes <= kLargestChosenChunk);
  REQUIRE(std::has_single_bit(measured.bytes));
}

TEST_CASE("chunk size: prep records its choice and builds its tables at it; a chunk-mode run uses the record, lowered only to fit") {
  TempDir dir;
  EdgeSet set = graphso::testing::rmat_edges(13, 8, false, 5, dir);
  graphso::testing::write_edges(dir.file("g.bin"), set);
  PrepOptions prep;
  prep.grid.partitions = 2;
  prep.device_sample_bytes = 64 << 10;  // measure even this small graph
  const PrepSummary summary = prepare_graph(dir.file("g.bin"), dir.file("g"), prep);
  const GraphFiles files(dir.file("g"));
  std::optional<ChunkSizeChoice> recorded = recorded_chunk_size(files);
  REQUIRE(recorded.has_value());
  REQUIRE(recorded->bytes == summary.chunk_bytes);
  REQUIRE_THAT(recorded->basis, Catch::StartsWith("measured ("));
  REQUIRE(files.tchunk_sizes("gridgraph") == std::vector<uint64_t>{summary.chunk_bytes});

  // A run naming no size uses the record: here one of 16 KiB, with a budget that holds it.
  record_chunk_size(files, {16 << 10, "test record"});
  GridGraph graph = GridGraph::open(dir.file("g"));
  const EngineLayout layout = gridgraph_layout(graph);
  ReaderFactory readers{ReaderOptions{}};
  GraphSOConfig config;
  config.graph_budget_bytes = 8 << 20;
  auto middleware = GraphSO::Init(layout, config, readers);
  REQUIRE(middleware->table().chunk_bytes() == 16 << 10);
  REQUIRE(middleware->chunk_size_basis() == "test record");

  // A record larger than the budget allows is lowered, and the basis says so.
  record_chunk_size(files, {8 << 20, "large record"});
  middleware = GraphSO::Init(layout, config, readers);
  REQUIRE(middleware->table().chunk_bytes() < 8 << 20);
  REQUIRE_THAT(middleware->chunk_size_basis(), Catch::StartsWith("large record; lowered from 8.0 MiB"));

  // prep --chunk-size records the size asked for.
  prep.chunk_bytes = 32 << 10;
  prepare_graph(dir.file("g.bin"), dir.file("h"), prep);
  REQUIRE(recorded_chunk_size(GraphFiles(dir.file("h")))->bytes == 32 << 10);
  REQUIRE(recorded_chunk_size(GraphFiles(dir.file("h")))->basis == "given to prep: --chunk-size");
}
