// METIS adjacency files, as they are. Read, or refused with one line naming the file.
#include "datasets/edge_input.h"
#include "tests/fuzz/fuzz_target.h"

GRAPHSO_FUZZ_TARGET(metis) {
  graphso::fuzz::clear_scratch_directory();
  const std::string path = graphso::fuzz::write_scratch_file("in.graph", data, size);
  try {
    graphso::read_edge_input(path, {});
    graphso::fuzz::accepted();
  } catch (const graphso::Error& e) {
    graphso::fuzz::rejected(e);
  }
  return 0;
}
