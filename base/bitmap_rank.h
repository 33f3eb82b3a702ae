// Set bits in any range of a Bitmap in O(1): a running count at every kWordsPerBlock words, built
// in one pass over the bitmap (then valid until the bitmap changes).
//
// GetActiveChunks asks, per round, how many of every frontier's vertices fall in every chunk's
// source range. Scanning each range costs the sum of the ranges, which on a P x P grid is P times
// the vertices per frontier (P = 32: 2 M words for R-MAT 22's 4 M vertices); with a rank it is one
// pass over the frontier's words and at most kWordsPerBlock popcounts per chunk.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "base/bitmap.h"

namespace graphso {

class BitmapRank {
 public:
  static constexpr uint64_t kWordsPerBlock = 8;
  // What a rank of a bitmap of `bits` bits holds besides the bitmap (an eighth of it).
  static uint64_t bytes_for(uint64_t bits) { return ((bits + 63) / 64 / kWordsPerBlock + 1) * sizeof(uint64_t); }

  explicit BitmapRank(const Bitmap& bitmap) : bitmap_(&bitmap) {
    const uint64_t words = (bitmap.size() + 63) / 64;
    blocks_.resize(words / kWordsPerBlock + 1);
    uint64_t n = 0;
    for (uint64_t w = 0; w < words; ++w) {
      if (w % kWordsPerBlock == 0) blocks_[w / kWordsPerBlock] = n;
      n += std::popcount(bitmap.words()[w]);
    }
    if (words % kWordsPerBlock == 0) blocks_.back() = n;
  }

  const Bitmap& bitmap() const { return *bitmap_; }
  // Set bits in [begin, end), begin <= end <= size.
  uint64_t count_in(uint64_t begin, uint64_t end) const { return before(end) - before(begin); }
  bool any_in(uint64_t begin, uint64_t end) const { return begin < end && count_in(begin, end) != 0; }

 private:
  // Set bits in [0, bit).
  uint64_t before(uint64_t bit) const {
    const uint64_t word = bit >> 6;
    const uint64_t* words = bitmap_->words();
    uint64_t n = blocks_[word / kWordsPerBlock];
    for (uint64_t w = word / kWordsPerBlock * kWordsPerBlock; w < word; ++w) n += std::popcount(words[w]);
    if (bit & 63) n += std::popcount(words[word] & ((uint64_t{1} << (bit & 63)) - 1));
    return n;
  }

  const Bitmap* bitmap_;
  std::vector<uint64_t> blocks_;  // set bits before each block of kWordsPerBlock words
};

}  // namespace graphso
