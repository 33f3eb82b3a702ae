#include "tools/graphso/layout_options.h"

#include "base/progress.h"

namespace graphso {

void LayoutOptions::add_to(po::options_description& options, PrepOptions& prep) {
  options.add_options()
      ("engine", po::value(&engine_)->default_value("gridgraph"),
       "layouts to write: gridgraph|xstream|both (the grid is always written: xstream derives from it)")
      ("partitions,p", number(&prep.grid.partitions)->default_value(0), "P for the P x P grid (0: automatic)")
      ("chunk-size", po::value(&chunk_size_), "TChunk table chunk size (default: Formula (1))");
}

void LayoutOptions::apply(const std::string& command, PrepOptions& prep) const {
  prep.layouts = parse_layout_set(engine_);
  if (prep.grid.partitions > 4096) fail("{}: --partitions {} is above the maximum of 4096", command, prep.grid.partitions);
  if (chunk_size_.empty()) return;
  prep.chunk_bytes = parse_size(chunk_size_, "--chunk-size");
  if (prep.chunk_bytes == 0) fail("{}: --chunk-size must be above 0", command);
}

}  // namespace graphso
