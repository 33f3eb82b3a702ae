// The p-quantile (0 <= p <= 1) of a sample by nearest rank, 0 for none: p 0.5 the median, 1 the
// largest. Reports of latencies and commit times use it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace graphso {

inline double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto at = static_cast<size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(at, values.size() - 1)];
}

}  // namespace graphso
