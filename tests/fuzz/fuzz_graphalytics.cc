// LDBC Graphalytics datasets: the input is the .v file, a NUL byte, the .e file, and optionally a
// second NUL and the .properties file (of a dataset named "in"). Read, or refused with one line
// naming the file.
#include <algorithm>

#include "tests/fuzz/fuzz_edge_input.h"

GRAPHSO_FUZZ_TARGET(graphalytics) {
  graphso::fuzz::clear_scratch_directory();
  const uint8_t* end = data + size;
  const uint8_t* split = std::find(data, end, uint8_t{0});
  const uint8_t* edges = split == end ? end : split + 1;
  const uint8_t* second = std::find(edges, end, uint8_t{0});
  graphso::fuzz::write_scratch_file("in.v", data, static_cast<size_t>(split - data));
  const std::string path = graphso::fuzz::write_scratch_file("in.e", edges, static_cast<size_t>(second - edges));
  if (second != end) graphso::fuzz::write_scratch_file("in.properties", second + 1, static_cast<size_t>(end - second - 1));
  return graphso::fuzz::read_or_reject(path);
}
