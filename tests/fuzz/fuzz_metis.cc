// METIS adjacency files, as they are. Read, or refused with one line naming the file.
#include "tests/fuzz/fuzz_edge_input.h"

GRAPHSO_FUZZ_TARGET(metis) {
  graphso::fuzz::clear_scratch_directory();
  const std::string path = graphso::fuzz::write_scratch_file("in.graph", data, size);
  return graphso::fuzz::read_or_reject(path);
}
