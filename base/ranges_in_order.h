// Work cut into ranges that OpenMP threads take as they come free, whose outcome must not depend
// on the threads: an error is the first failing range's in range order, as one thread going
// through the ranges in order would meet it (so damage that spans ranges is named the same
// whatever the threads), and ranges past a failed one are not run.
#pragma once

#include <omp.h>

#include <atomic>
#include <cstdint>
#include <exception>
#include <vector>

namespace graphso {

// body(r) for r in [0, ranges), each range whole on one of `threads` threads; rethrows the error
// of the lowest range that failed.
template <typename Body>
void for_ranges_in_order(uint64_t ranges, int threads, Body&& body) {
  std::vector<std::exception_ptr> errors(ranges);
  std::atomic<uint64_t> first_failed{ranges};
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (uint64_t r = 0; r < ranges; ++r) {
    if (r > first_failed.load()) continue;
    try {
      body(r);
    } catch (...) {
      errors[r] = std::current_exception();
      for (uint64_t seen = first_failed.load(); r < seen && !first_failed.compare_exchange_weak(seen, r);) {
      }
    }
  }
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
}

}  // namespace graphso
