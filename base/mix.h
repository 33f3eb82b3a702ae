// SplitMix64's finaliser: a well-mixed 64-bit function of its input. The generators draw every
// random choice from it, keyed by (seed, item), so their output does not depend on thread count.
#pragma once

#include <cstdint>

namespace graphso {

inline uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace graphso
