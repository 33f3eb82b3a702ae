#include "middleware/chunk_cache.h"

#include <algorithm>
#include <cstring>

namespace graphso {

const std::byte* ChunkCache::lookup(uint32_t chunk) {
  auto it = entries_.find(chunk);
  if (it == entries_.end()) {
    ++stats_.misses;
    return nullptr;
  }
  ++stats_.hits;
  stats_.bytes_hit += it->second.bytes;
  return it->second.data.get();
}

bool ChunkCache::offer(uint32_t chunk, std::span<const std::byte> bytes, double priority) {
  if (entries_.count(chunk) || bytes.size() > capacity_) return false;
  if (used_ + bytes.size() > capacity_) {
    // Victims: lowest priority first (ties: highest id first), each colder than the newcomer.
    std::vector<std::pair<double, uint32_t>> order;
    for (const auto& [id, e] : entries_) order.emplace_back(e.priority, id);
    std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    uint64_t freed = 0;
    size_t victims = 0;
    while (used_ - freed + bytes.size() > capacity_) {
      if (victims == order.size() || order[victims].first >= priority) return false;
      freed += entries_.at(order[victims].second).bytes;
      ++victims;
    }
    for (size_t v = 0; v < victims; ++v) {
      used_ -= entries_.at(order[v].second).bytes;
      entries_.erase(order[v].second);
      ++stats_.evictions;
    }
  }
  Entry e;
  e.data = std::make_unique<std::byte[]>(bytes.size());
  std::memcpy(e.data.get(), bytes.data(), bytes.size());
  e.bytes = bytes.size();
  e.priority = priority;
  used_ += e.bytes;
  entries_.emplace(chunk, std::move(e));
  ++stats_.insertions;
  return true;
}

void ChunkCache::refresh(const std::vector<std::pair<uint32_t, double>>& priorities) {
  for (auto& [id, e] : entries_) e.priority = 0;
  for (const auto& [id, p] : priorities) {
    auto it = entries_.find(id);
    if (it != entries_.end()) it->second.priority = p;
  }
}

std::vector<uint32_t> ChunkCache::cached_chunks() const {
  std::vector<uint32_t> ids;
  for (const auto& [id, e] : entries_) ids.push_back(id);
  return ids;
}

}  // namespace graphso
