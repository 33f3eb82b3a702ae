#include "store/vertex_buffers.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "base/error.h"

namespace graphso::store {

void check_max_buffer_option(uint64_t bytes) { VertexBuffers::check_max_buffer_bytes(static_cast<uint32_t>(bytes)); }

void VertexBuffers::check_max_buffer_bytes(uint32_t max_buffer_bytes) {
  if (!std::has_single_bit(max_buffer_bytes) || max_buffer_bytes < BufferPool::kMinBufferBytes ||
      max_buffer_bytes > kXPLineBytes)
    fail("the maximum vertex buffer must be a power of two from 16 to 256 bytes, not {}", max_buffer_bytes);
}

VertexBuffers::VertexBuffers(uint64_t vertices, uint32_t threads, uint32_t max_buffer_bytes, uint32_t entry_words) {
  check_max_buffer_bytes(max_buffer_bytes);
  if (threads == 0) fail("ingest needs at least one thread");
  classes_ = static_cast<uint32_t>(std::countr_zero(max_buffer_bytes / BufferPool::kMinBufferBytes)) + 1;
  // The top buffer holds what one block holds: a 256-byte block has a 16-byte header; the 16-byte
  // L0 buffer, its own count. Whole entries only.
  flush_entries_ = classes_ == 1 ? 3 : std::min(max_buffer_bytes / 4, kBlockEntries);
  flush_entries_ -= flush_entries_ % entry_words;
  for (auto& slots : slots_) slots.resize(vertices);
  for (uint32_t t = 0; t < threads; ++t) pools_.emplace_back(classes_);
}

uint32_t VertexBuffers::capacity(uint32_t size_class) const {
  if (size_class + 1 == classes_) return flush_entries_;
  return size_class == 0 ? 3 : (BufferPool::kMinBufferBytes << size_class) / 4;
}

void VertexBuffers::grow(uint32_t shard, Slot& s) {
  // To the next size class: move the entries, give a pooled buffer back.
  BufferPool& pool = pools_[shard];
  uint32_t* bigger = pool.allocate(s.size_class + 1);
  std::memcpy(bigger, s.data(), s.count * sizeof(uint32_t));
  if (s.pooled) pool.release(s.pool_address(), s.size_class);
  s.set_pool_address(bigger);
  ++s.size_class;
}

bool VertexBuffers::append(uint32_t shard, AdjacencyList d, VertexId v, std::span<const uint32_t> entry) {
  Slot& s = slot(d, v);
  while (s.count + entry.size() > capacity(s.size_class)) grow(shard, s);
  std::memcpy(s.data() + s.count, entry.data(), entry.size_bytes());
  s.count = static_cast<uint16_t>(s.count + entry.size());
  return s.size_class + 1u == classes_ && s.count == flush_entries_;
}

bool VertexBuffers::append(uint32_t shard, AdjacencyList d, VertexId v, uint32_t entry) {
  Slot& s = slot(d, v);
  if (s.count == capacity(s.size_class)) grow(shard, s);
  s.data()[s.count++] = entry;
  return s.size_class + 1u == classes_ && s.count == flush_entries_;
}

void VertexBuffers::clear(uint32_t shard, AdjacencyList d, VertexId v) {
  Slot& s = slot(d, v);
  if (s.pooled) pools_[shard].release(s.pool_address(), s.size_class);
  s = Slot{};
}

uint64_t VertexBuffers::reserved_bytes() const {
  uint64_t bytes = 0;
  for (const BufferPool& pool : pools_) bytes += pool.reserved_bytes();
  return bytes;
}

}  // namespace graphso::store
