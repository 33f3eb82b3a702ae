// A fixed-size bit set over vertex ids. set_atomic() is safe from many threads at once; the rest
// is for one thread or for read-only sharing.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <vector>

namespace graphso {

class Bitmap {
 public:
  Bitmap() = default;
  explicit Bitmap(uint64_t bits) : bits_(bits), words_((bits + 63) / 64, 0) {}
  // The memory a bitmap of `bits` bits holds (its words): for budgets sized before it exists.
  static uint64_t bytes_for(uint64_t bits) { return (bits + 63) / 64 * sizeof(uint64_t); }

  uint64_t size() const { return bits_; }
  uint64_t bytes() const { return words_.size() * sizeof(uint64_t); }
  // Bit i is bit i % 64 of word i / 64 (for loops that test bits without a branch).
  const uint64_t* words() const { return words_.data(); }
  // The same to write whole words (a loop whose threads each own the words they write).
  uint64_t* words() { return words_.data(); }

  bool test(uint64_t i) const { return test(words_.data(), i); }
  // Bit i of a bitmap's words(): a loop over several bitmaps keeps their words at hand.
  static bool test(const uint64_t* words, uint64_t i) { return (words[i >> 6] >> (i & 63)) & 1u; }
  // Bit i while other threads may set_atomic() its word.
  bool test_atomic(uint64_t i) const {
    return (std::atomic_ref<const uint64_t>(words_[i >> 6]).load(std::memory_order_relaxed) >> (i & 63)) & 1u;
  }
  void set(uint64_t i) { words_[i >> 6] |= uint64_t{1} << (i & 63); }
  void set_atomic(uint64_t i) { set_bits_atomic(i >> 6, uint64_t{1} << (i & 63)); }
  void reset(uint64_t i) { words_[i >> 6] &= ~(uint64_t{1} << (i & 63)); }
  // Sets `bits` in word w (bits 64w to 64w + 63) atomically; no write when all are set already.
  void set_bits_atomic(uint64_t w, uint64_t bits) {
    std::atomic_ref<uint64_t> word(words_[w]);
    if (bits & ~word.load(std::memory_order_relaxed)) word.fetch_or(bits, std::memory_order_relaxed);
  }
  void reset_atomic(uint64_t i) {
    std::atomic_ref<uint64_t> word(words_[i >> 6]);
    uint64_t bit = uint64_t{1} << (i & 63);
    if (word.load(std::memory_order_relaxed) & bit) word.fetch_and(~bit, std::memory_order_acq_rel);
  }
  void clear() { std::fill(words_.begin(), words_.end(), 0); }
  void set_all() {
    std::fill(words_.begin(), words_.end(), ~uint64_t{0});
    if (bits_ % 64) words_.back() = (uint64_t{1} << (bits_ % 64)) - 1;
  }
  void swap(Bitmap& other) { words_.swap(other.words_); std::swap(bits_, other.bits_); }
  void or_with(const Bitmap& other) {
    for (size_t w = 0; w < words_.size(); ++w) words_[w] |= other.words_[w];
  }
  // Clears every bit set in other.
  void and_not(const Bitmap& other) {
    for (size_t w = 0; w < words_.size(); ++w) words_[w] &= ~other.words_[w];
  }

  // Sets exactly the bits i for which keep(i), on `threads` OpenMP threads, each writing whole
  // words of its own (a frontier rebuilt from vertex state).
  template <typename Keep>
  void assign_where(int threads, Keep&& keep) {
    const int64_t words = static_cast<int64_t>(words_.size());
    const uint64_t n = bits_;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t w = 0; w < words; ++w) {
      uint64_t word = 0;
      const uint64_t first = static_cast<uint64_t>(w) * 64;
      for (uint64_t i = first; i < std::min(n, first + 64); ++i) word |= uint64_t{keep(i)} << (i - first);
      words_[w] = word;
    }
  }

  // Calls f(i) for every set bit, in order.
  template <typename F>
  void for_each(F&& f) const {
    for (size_t w = 0; w < words_.size(); ++w)
      for (uint64_t word = words_[w]; word; word &= word - 1) f(w * 64 + static_cast<uint64_t>(std::countr_zero(word)));
  }
  // Calls f(i) for every set bit in [begin, end), in order. Each word is read once, so a bit set
  // behind the walk (by f or by another thread) is not visited.
  template <typename F>
  void for_each_in(uint64_t begin, uint64_t end, F&& f) const {
    for (uint64_t w = begin >> 6; w < (end + 63) >> 6; ++w) {
      uint64_t word = words_[w];
      if (w == begin >> 6) word &= ~uint64_t{0} << (begin & 63);
      if (w == (end - 1) >> 6 && (end & 63)) word &= (uint64_t{1} << (end & 63)) - 1;
      for (; word; word &= word - 1) f(w * 64 + static_cast<uint64_t>(std::countr_zero(word)));
    }
  }
  uint64_t count() const {
    uint64_t n = 0;
    for (uint64_t w : words_) n += std::popcount(w);
    return n;
  }
  // Whether any bit in [begin, end) is set.
  bool any_in(uint64_t begin, uint64_t end) const {
    while (begin < end && (begin & 63)) {
      if (test(begin)) return true;
      ++begin;
    }
    for (; begin + 64 <= end; begin += 64)
      if (words_[begin >> 6]) return true;
    for (; begin < end; ++begin)
      if (test(begin)) return true;
    return false;
  }
  uint64_t count_in(uint64_t begin, uint64_t end) const {
    uint64_t n = 0;
    for (uint64_t i = begin; i < end && (i & 63); ++i, ++begin) n += test(i);
    for (; begin + 64 <= end; begin += 64) n += std::popcount(words_[begin >> 6]);
    for (; begin < end; ++begin) n += test(begin);
    return n;
  }

 private:
  uint64_t bits_ = 0;
  std::vector<uint64_t> words_;
};

}  // namespace graphso
