#include "tools/graphso/layout_options.h"

#include "base/progress.h"
#include "middleware/tchunk.h"

namespace graphso {

void LayoutOptions::add_to(po::options_description& options, PrepOptions& prep) {
  options.add_options()
      ("engine", po::value(&engine_)->default_value("gridgraph"),
       "layouts to write: gridgraph|xstream|both (the grid is always written: xstream derives from it)")
      ("partitions,p", number(&prep.grid.partitions)->default_value(0), "P for the P x P grid (0: automatic)")
      ("encoding", po::value(&encoding_)->default_value("packed"),
       "edge encoding: packed (Stream VByte pages, fewer bytes per edge) or raw (8/12-byte records)")
      ("chunk-size", po::value(&chunk_size_), "TChunk table chunk size, recorded as the graph's default for runs, or `formula` for the paper's Formula (1) (default: chosen from the device's measured cost of a request)");
}

uint64_t parse_chunk_size(const std::string& text) {
  if (text == "formula") return kFormulaChunkBytes;
  const uint64_t bytes = parse_size(text, "--chunk-size");
  if (bytes < sizeof(Edge)) fail("--chunk-size {} is smaller than one edge ({} bytes at the least)", bytes, sizeof(Edge));
  return bytes;
}

void LayoutOptions::apply(const std::string& command, PrepOptions& prep) const {
  prep.layouts = parse_layout_set(engine_);
  prep.grid.encoding = parse_encoding(encoding_);
  if (prep.grid.partitions > 4096) fail("{}: --partitions {} is above the maximum of 4096", command, prep.grid.partitions);
  if (chunk_size_.empty()) return;
  prep.chunk_bytes = parse_chunk_size(chunk_size_);
}

}  // namespace graphso
