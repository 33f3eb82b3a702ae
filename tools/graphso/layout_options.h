// The options `prep` and `snapshot` share, since both write a graph through the prep library:
// which engine layouts, P, the edge encoding and the TChunk chunk size.
#pragma once

#include <string>

#include "prep/graph_prep.h"
#include "tools/graphso/options.h"

namespace graphso {

// --chunk-size of prep, snapshot and run: a size ("64K"), or "formula" for Formula (1)
// (kFormulaChunkBytes). Zero is refused.
uint64_t parse_chunk_size(const std::string& text);

class LayoutOptions {
 public:
  // Adds --engine, --partitions, --encoding and --chunk-size, filling `prep`.
  void add_to(po::options_description& options, PrepOptions& prep);
  // After parsing: checks them and completes `prep`; errors start with `command`.
  void apply(const std::string& command, PrepOptions& prep) const;

 private:
  std::string engine_, chunk_size_, encoding_;
};

}  // namespace graphso
