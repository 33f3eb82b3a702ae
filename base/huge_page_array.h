// An array of trivial values in anonymous memory the kernel is asked to back with huge pages
// (madvise(MADV_HUGEPAGE): this machine's transparent huge pages are "madvise"). For arrays read
// at random over tens of megabytes (the graph in memory, base/adjacency.h): a 2 MiB page holds
// what 512 small ones do, so a traversal misses the TLB far less, and filling the array faults
// 512 times less often. Left uninitialised (the kernel's zeroes); unmapped when destroyed.
#pragma once

#include <sys/mman.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "base/error.h"

namespace graphso {

template <typename T>
class HugePageArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  HugePageArray() = default;
  explicit HugePageArray(uint64_t count) : count_(count) {
    if (count == 0) return;
    bytes_ = count * sizeof(T);
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) fail("cannot map {} bytes of memory: {}", bytes_, std::strerror(errno));
    // Advice only: without huge pages the array is the same, in small pages.
    madvise(p, bytes_, MADV_HUGEPAGE);
    data_ = static_cast<T*>(p);
  }
  ~HugePageArray() {
    if (data_) munmap(data_, bytes_);
  }
  HugePageArray(HugePageArray&& other) noexcept { *this = std::move(other); }
  HugePageArray& operator=(HugePageArray&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    std::swap(bytes_, other.bytes_);
    return *this;
  }
  HugePageArray(const HugePageArray&) = delete;
  HugePageArray& operator=(const HugePageArray&) = delete;

  uint64_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](uint64_t i) { return data_[i]; }
  const T& operator[](uint64_t i) const { return data_[i]; }

 private:
  T* data_ = nullptr;
  uint64_t count_ = 0;
  uint64_t bytes_ = 0;
};

}  // namespace graphso
