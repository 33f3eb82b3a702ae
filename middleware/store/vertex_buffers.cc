#include "middleware/store/vertex_buffers.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "engine/common/error.h"

namespace graphso::store {

VertexBuffers::VertexBuffers(uint64_t vertices, uint32_t threads, uint32_t max_buffer_bytes)
    : vertices_(vertices), threads_(threads) {
  if (!std::has_single_bit(max_buffer_bytes) || max_buffer_bytes < BufferPool::kMinBufferBytes ||
      max_buffer_bytes > kXPLineBytes)
    fail("the maximum vertex buffer must be a power of two from 16 to 256 bytes, not {}", max_buffer_bytes);
  if (threads == 0) fail("ingest needs at least one thread");
  classes_ = static_cast<uint32_t>(std::countr_zero(max_buffer_bytes / BufferPool::kMinBufferBytes)) + 1;
  // The top buffer holds what one block holds: a 256-byte block has a 16-byte header.
  flush_entries_ = std::min(max_buffer_bytes / 4, kBlockEntries);
  for (auto& slots : slots_) slots.resize(vertices);
  for (uint32_t t = 0; t < threads; ++t) pools_.emplace_back(classes_);
}

uint32_t VertexBuffers::capacity(uint32_t size_class) const {
  return size_class + 1 == classes_ ? flush_entries_ : (BufferPool::kMinBufferBytes << size_class) / 4;
}

bool VertexBuffers::append(uint32_t shard, Direction d, VertexId v, uint32_t entry) {
  Slot& s = slot(d, v);
  if (s.entries == nullptr) {
    s.entries = pools_[shard].allocate(0);
    s.size_class = 0;
  } else if (s.count == capacity(s.size_class)) {
    // Grow to the next size class: move the entries, give the old buffer back.
    BufferPool& pool = pools_[shard];
    uint32_t* bigger = pool.allocate(s.size_class + 1);
    std::memcpy(bigger, s.entries, s.count * sizeof(uint32_t));
    pool.release(s.entries, s.size_class);
    s.entries = bigger;
    ++s.size_class;
  }
  s.entries[s.count++] = entry;
  return s.size_class + 1 == classes_ && s.count == flush_entries_;
}

void VertexBuffers::clear(uint32_t shard, Direction d, VertexId v) {
  Slot& s = slot(d, v);
  if (s.entries) pools_[shard].release(s.entries, s.size_class);
  s = Slot{};
}

uint64_t VertexBuffers::reserved_bytes() const {
  uint64_t bytes = 0;
  for (const BufferPool& pool : pools_) bytes += pool.reserved_bytes();
  return bytes;
}

}  // namespace graphso::store
