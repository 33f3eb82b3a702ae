// What the fuzz targets of the graph formats do with the file they laid out: read it as `convert`
// does, and count it accepted, or rejected with one line (fuzz_target.h).
#pragma once

#include <string>

#include "datasets/edge_input.h"
#include "tests/fuzz/fuzz_target.h"

namespace graphso::fuzz {

inline int read_or_reject(const std::string& path) {
  try {
    read_edge_input(path, {});
    accepted();
  } catch (const Error& e) {
    rejected(e);
  }
  return 0;
}

}  // namespace graphso::fuzz
