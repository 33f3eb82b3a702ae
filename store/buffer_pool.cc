#include "store/buffer_pool.h"

#include <new>

namespace graphso::store {

BufferPool::BufferPool(uint32_t classes) : free_(classes, nullptr) {}

uint32_t* BufferPool::allocate(uint32_t size_class) {
  if (FreeBuffer* buffer = free_[size_class]) {
    free_[size_class] = buffer->next;
    return reinterpret_cast<uint32_t*>(buffer);
  }
  const uint64_t bytes = uint64_t{kMinBufferBytes} << size_class;
  if (cursor_ == nullptr || static_cast<uint64_t>(end_ - cursor_) < bytes) {
    // The tail of the old slab is dropped: at most one largest buffer per slab.
    slabs_.push_back(std::make_unique_for_overwrite<std::byte[]>(kSlabBytes));
    cursor_ = slabs_.back().get();
    end_ = cursor_ + kSlabBytes;
  }
  std::byte* buffer = cursor_;
  cursor_ += bytes;
  return reinterpret_cast<uint32_t*>(buffer);
}

void BufferPool::release(uint32_t* buffer, uint32_t size_class) {
  free_[size_class] = new (buffer) FreeBuffer{free_[size_class]};
}

}  // namespace graphso::store
