// A vertex's live neighbours from the entries the chain and list modes keep (store/xpgraph,
// store/gear): adjacency entries in log order, a tombstone cancelling the earliest occurrence.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/types.h"
#include "store/store_format.h"

namespace graphso::store {

// A vertex's neighbour multiset, built in log order: an entry adds one occurrence (with its
// weight), a tombstone (bit 31) removes the earliest live occurrence of its neighbour, whatever
// its weight, or nothing. Without weights only the counts are kept. A list without tombstones
// needs none of this: its entries are its live edges as they stand (store views skip it then).
class LiveNeighbours {
 public:
  explicit LiveNeighbours(uint32_t entry_words = 1) : entry_words_(entry_words) {}
  void clear() {
    count_.clear();
    weights_.clear();
  }
  void apply(uint32_t entry, Weight weight = 1) {
    const uint32_t n = entry & ~kFlagBit;
    const bool tombstone = (entry & kFlagBit) != 0;
    if (entry_words_ == 1) {
      if (!tombstone) ++count_[n];
      else if (auto it = count_.find(n); it != count_.end() && it->second > 0) --it->second;
    } else if (!tombstone) {
      weights_[n].push_back(weight);
    } else if (auto it = weights_.find(n); it != weights_.end() && !it->second.empty()) {
      it->second.erase(it->second.begin());
    }
  }
  // Entries as blocks and vertex buffers hold them: entry_words words each.
  void apply_words(std::span<const uint32_t> words) {
    for (size_t i = 0; i + entry_words_ <= words.size(); i += entry_words_)
      apply(words[i], entry_words_ == 2 ? words[i + 1] : Weight{1});
  }
  // Appends each live occurrence as blocks and lists hold it (entry_words words: the neighbour,
  // then its weight when kept).
  void append_words(std::vector<uint32_t>& out) const {
    for_each([&](uint32_t n, Weight w) {
      out.push_back(n);
      if (entry_words_ == 2) out.push_back(w);
    });
  }
  // Calls f(neighbour, weight) once per live occurrence, in no particular order (weight 1
  // without weights).
  template <typename F>
  void for_each(F&& f) const {
    for (const auto& [n, k] : count_)
      for (uint64_t j = 0; j < k; ++j) f(n, Weight{1});
    for (const auto& [n, weights] : weights_)
      for (Weight w : weights) f(n, w);
  }

 private:
  uint32_t entry_words_;
  std::unordered_map<uint32_t, uint64_t> count_;                 // without weights
  std::unordered_map<uint32_t, std::vector<Weight>> weights_;  // with weights, oldest first
};

// Entries (entry_words words each) as (neighbour, weight) pairs, sorted; weight 1 without weights.
inline std::vector<std::pair<VertexId, Weight>> sorted_edges(std::span<const uint32_t> words, uint32_t entry_words) {
  std::vector<std::pair<VertexId, Weight>> edges;
  for (size_t k = 0; k + entry_words <= words.size(); k += entry_words)
    edges.emplace_back(words[k], entry_words == 2 ? words[k + 1] : Weight{1});
  std::sort(edges.begin(), edges.end());
  return edges;
}

}  // namespace graphso::store
