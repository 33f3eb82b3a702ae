// A prepared graph directory, every file of it from the input: records of (u8 file, u32 length,
// bytes), the file being one of the directory's names (tests/fuzz/pack_graph_dir.py packs a real
// one for the corpus). Opened as `run` and `inspect --verify` open it: the grid, its page
// checksums and blocks, the X-Stream layout, the chunk-size record, every TChunk table; accepted or refused with one line.
#include <algorithm>
#include <filesystem>
#include <string>

#include "base/graph_files.h"
#include "engine/gridgraph/grid_engine.h"
#include "engine/gridgraph/grid_graph.h"
#include "engine/xstream/xstream_engine.h"
#include "engine/xstream/xstream_layout.h"
#include "io/page_sums.h"
#include "middleware/chunk_size.h"
#include "middleware/tchunk.h"
#include "tests/fuzz/fuzz_target.h"

namespace {

// The order is the corpus format's: pack_graph_dir.py writes the same list.
const char* const kFiles[] = {"meta",          "degrees",         "order",           "grid.row",
                              "grid.col",      "grid.row.sums",   "grid.col.sums",   "xstream.meta",
                              "xstream.part.0", "xstream.part.1", "xstream.part.0.sums", "xstream.part.1.sums",
                              "tchunk.4096",   "tchunk.xstream.4096", "chunk_size"};
constexpr size_t kFileCount = sizeof(kFiles) / sizeof(kFiles[0]);

}  // namespace

GRAPHSO_FUZZ_TARGET(graph_dir) {
  using namespace graphso;
  fuzz::clear_scratch_directory();
  const std::string dir = std::string(fuzz::scratch_directory()) + "/g";
  std::filesystem::create_directory(dir);
  for (size_t at = 0; at + 5 <= size;) {
    const uint8_t file = data[at];
    uint32_t length;
    std::memcpy(&length, data + at + 1, 4);
    at += 5;
    length = static_cast<uint32_t>(std::min<size_t>(length, size - at));
    fuzz::write_scratch_file(std::string("g/") + kFiles[file % kFileCount], data + at, length);
    at += length;
  }
  try {
    GridGraph graph = GridGraph::open(dir);
    verify_page_sums(graph.files().grid_row());
    verify_page_sums(graph.files().grid_col());
    graph.verify_blocks();
    recorded_chunk_size(graph.files());
    for (uint64_t chunk : graph.files().tchunk_sizes("gridgraph")) TChunkTable::load(gridgraph_layout(graph), chunk);
    if (XStreamLayout::exists(dir)) {
      XStreamLayout streaming = XStreamLayout::open(graph);
      for (uint32_t k = 0; k < streaming.partitions(); ++k) verify_page_sums(streaming.path(k));
      streaming.verify(graph);
      for (uint64_t chunk : graph.files().tchunk_sizes("xstream"))
        TChunkTable::load(xstream_layout(graph, streaming), chunk);
    }
    fuzz::accepted();
  } catch (const Error& e) {
    fuzz::rejected(e);
  }
  return 0;
}
