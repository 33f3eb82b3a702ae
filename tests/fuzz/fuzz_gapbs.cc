// GAPBS serialized graphs: the first byte picks .sg or .wsg; the rest is the file's bytes (header,
// offsets, neighbours). Read, or refused with one line naming the file.
#include "tests/fuzz/fuzz_edge_input.h"

GRAPHSO_FUZZ_TARGET(gapbs) {
  if (size < 1) return 0;
  graphso::fuzz::clear_scratch_directory();
  const std::string path = graphso::fuzz::write_scratch_file(data[0] & 1 ? "in.wsg" : "in.sg", data + 1, size - 1);
  return graphso::fuzz::read_or_reject(path);
}
