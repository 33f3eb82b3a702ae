// Comparing two arc multisets: the check that a format's two views of one graph agree (METIS's
// lists at both ends, a GAPBS file's in-CSR against its out-CSR).
#include <algorithm>
#include <tuple>

#include "datasets/edge_input.h"

namespace graphso {

std::optional<ArcDifference> first_difference(std::vector<WeightedEdge> a, std::vector<WeightedEdge> b) {
  auto less = [](const WeightedEdge& x, const WeightedEdge& y) {
    return std::tie(x.src, x.dst, x.weight) < std::tie(y.src, y.dst, y.weight);
  };
  std::sort(a.begin(), a.end(), less);
  std::sort(b.begin(), b.end(), less);
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    if (i == a.size()) return ArcDifference{b[i], false};
    if (i == b.size()) return ArcDifference{a[i], true};
    if (less(a[i], b[i])) return ArcDifference{a[i], true};
    if (less(b[i], a[i])) return ArcDifference{b[i], false};
  }
  return std::nullopt;
}

}  // namespace graphso
