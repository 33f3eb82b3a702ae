// One ingest thread's DRAM pool for vertex buffers (XPGraph's buddy-like pool): size classes of
// 16 bytes doubling to the maximum buffer size, each with a free list, carved from 1 MiB slabs.
// No malloc per buffer and no lock: a pool belongs to one thread.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace graphso::store {

class BufferPool {
 public:
  static constexpr uint32_t kMinBufferBytes = 16;
  static constexpr uint64_t kSlabBytes = 1 << 20;

  explicit BufferPool(uint32_t classes);
  // A buffer of 16 << size_class bytes.
  uint32_t* allocate(uint32_t size_class);
  void release(uint32_t* buffer, uint32_t size_class);
  // Memory taken from the system (slabs); it is reused, never returned, until the pool dies.
  uint64_t reserved_bytes() const { return slabs_.size() * kSlabBytes; }

 private:
  struct FreeBuffer {
    FreeBuffer* next;
  };
  std::vector<std::unique_ptr<std::byte[]>> slabs_;
  std::byte* cursor_ = nullptr;
  std::byte* end_ = nullptr;
  std::vector<FreeBuffer*> free_;
};

}  // namespace graphso::store
