// One checked-file helper (base/checked_file.h) behind every format: for each of the six (graph
// meta, X-Stream meta, TChunk table, page checksums, edge list, store) a wrong magic, a newer version, a
// truncation and a flipped byte are each refused with the same one-line message naming the file.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <functional>

#include "base/checked_file.h"
#include "base/file.h"
#include "base/graph_files.h"
#include "datasets/edge_list.h"
#include "engine/gridgraph/grid_engine.h"
#include "engine/gridgraph/grid_graph.h"
#include "engine/xstream/xstream_layout.h"
#include "io/page_sums.h"
#include "middleware/tchunk.h"
#include "store/graph_store.h"
#include "tests/test_graphs.h"

using namespace graphso;
using graphso::testing::error_of;
using graphso::testing::TempDir;

namespace {

struct Format {
  const char* name;
  std::string path;
  std::function<void()> open;
  uint64_t crc_covered_byte;  // a byte inside what the CRC protects, past the tag
};

}  // namespace

TEST_CASE("every format's magic, version, size and CRC are checked by one helper, with one message each") {
  TempDir dir;
  const std::string graph_dir =
      graphso::testing::prepare_graph(dir, graphso::testing::rmat_edges(8, 4, true, 7, dir), 2, "g");
  const GraphFiles files(graph_dir);
  const std::string store_path = dir.file("store.pm");
  store::GraphStore::create(store_path, store::default_geometry(64, 1024, 256), store::StoreMode::XPGraph, {});
  {
    GridGraph graph = GridGraph::open(graph_dir);
    TChunkTable::load_or_build(gridgraph_layout(graph), 4096);
  }
  auto open_table = [&] {
    GridGraph graph = GridGraph::open(graph_dir);
    TChunkTable::load(gridgraph_layout(graph), 4096);
  };
  const std::vector<Format> formats = {
      {"graph meta", files.meta(), [&] { GridGraph::open(graph_dir); }, 40},
      {"X-Stream meta", files.xstream_meta(), [&] { XStreamLayout::open(GridGraph::open(graph_dir)); }, 30},
      {"TChunk table", files.tchunk("gridgraph", 4096), open_table, 80},
      {"page checksums", page_sums_path(files.grid_row()),
       [&] { PageSums::load(files.grid_row(), File(files.grid_row(), File::Mode::Read).size()); }, 28},
      {"edge list", dir.file("g.bin"), [&] { EdgeListReader reader(dir.file("g.bin")); }, 20},
      {"store", store_path, [&] { store::GraphStore::open(store_path, {}); }, 20},
  };
  for (const Format& f : formats) {
    INFO(f.name << ": " << f.path);
    REQUIRE(error_of(f.open) == "(no error)");
    const std::string original = read_small_file(f.path);
    // Damages the file, returns the error opening it gives, and puts the file back.
    auto damaged = [&](const std::function<void(const File&)>& damage) {
      {
        File file(f.path, File::Mode::ReadWrite);
        damage(file);
      }
      std::string error = error_of(f.open);
      File file(f.path, File::Mode::ReadWrite);
      file.truncate(0);
      file.pwrite_all(std::as_bytes(std::span<const char>(original.data(), original.size())), 0);
      return error;
    };
    const std::byte x{'X'};
    REQUIRE_THAT(damaged([&](const File& file) { file.pwrite_all(std::span<const std::byte>(&x, 1), 0); }),
                 Catch::StartsWith(f.path + ": not ") && Catch::Contains("(bad magic"));
    const uint32_t version = 99;
    REQUIRE_THAT(damaged([&](const File& file) { file.pwrite_all(as_bytes_of(version), offsetof(FormatTag, version)); }),
                 Catch::StartsWith(f.path + ": ") && Catch::Contains("version 99, this build reads version"));
    const std::byte flipped = static_cast<std::byte>(original[f.crc_covered_byte]) ^ std::byte{0x10};
    REQUIRE_THAT(damaged([&](const File& file) { file.pwrite_all(std::span<const std::byte>(&flipped, 1), f.crc_covered_byte); }),
                 Catch::StartsWith(f.path + ": ") && Catch::Contains("checksum mismatch"));
    REQUIRE_THAT(damaged([&](const File& file) { file.truncate(original.size() - 8); }),
                 Catch::StartsWith(f.path + ": ") && (Catch::Contains("truncated") || Catch::Contains("too short")));
    REQUIRE(error_of(f.open) == "(no error)");
  }
}

TEST_CASE("a sealed file written in pieces, its head last, is the file written whole; unfinished, it is not there") {
  TempDir dir;
  std::string head = "HEAD-0123456789", body;
  for (int i = 0; i < 100000; ++i) body += static_cast<char>('a' + i * 7 % 26);
  const auto bytes = [](const std::string& s) { return std::as_bytes(std::span<const char>(s.data(), s.size())); };
  write_sealed_file(dir.file("whole"), head + body);
  {
    SealedFileWriter out(dir.file("pieces"), head.size());
    for (size_t at = 0; at < body.size(); at += 9999) out.append(bytes(body.substr(at, 9999)));
    REQUIRE(out.body_bytes() == body.size());
    out.finish(bytes(head));
  }
  REQUIRE(read_small_file(dir.file("pieces")) == read_small_file(dir.file("whole")));
  REQUIRE(crc32_combine(crc32_of(bytes(head)), crc32_of(bytes(body)), body.size()) == crc32_of(bytes(head + body)));
  {
    SealedFileWriter out(dir.file("unfinished"), head.size());
    out.append(bytes(body));
    REQUIRE_THAT(error_of([&] { out.finish(bytes("short")); }), Catch::Contains("head is 5 bytes, not 15"));
  }
  REQUIRE_FALSE(path_exists(dir.file("unfinished")));
  REQUIRE(std::distance(std::filesystem::directory_iterator(dir.path()), std::filesystem::directory_iterator()) == 2);
}

TEST_CASE("CRC-32C: the Castagnoli check value, and four pages at once equal each page alone") {
  const std::string check = "123456789";
  REQUIRE(crc32c_of(std::as_bytes(std::span<const char>(check.data(), check.size()))) == 0xE3069283u);
  std::vector<std::byte> pages(7 * 4096);  // four at once, then three one by one
  for (size_t i = 0; i < pages.size(); ++i) pages[i] = static_cast<std::byte>((i * 2654435761u) >> 13);
  std::vector<uint32_t> crcs(7);
  crc32c_of_pages(pages, 4096, crcs);
  for (size_t p = 0; p < 7; ++p) {
    INFO("page " << p);
    REQUIRE(crcs[p] == crc32c_of(std::span<const std::byte>(pages).subspan(p * 4096, 4096)));
  }
  REQUIRE(crcs[0] != crcs[1]);
}
