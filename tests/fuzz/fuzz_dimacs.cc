// DIMACS .gr files: the first byte picks a plain file or a .gz (the rest handed over as it is, so
// mutations reach the decompressor). Read, or refused with one line naming the file.
#include "tests/fuzz/fuzz_edge_input.h"

GRAPHSO_FUZZ_TARGET(dimacs) {
  if (size < 1) return 0;
  graphso::fuzz::clear_scratch_directory();
  const std::string path = graphso::fuzz::write_scratch_file(data[0] & 1 ? "in.gr.gz" : "in.gr", data + 1, size - 1);
  return graphso::fuzz::read_or_reject(path);
}
