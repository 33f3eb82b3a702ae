#include "middleware/chunk_cache.h"

#include <algorithm>

#include "base/enum_names.h"

namespace graphso {
namespace {
constexpr EnumName<CacheForm> kCacheFormNames[] = {
    {CacheForm::Auto, "auto"}, {CacheForm::Packed, "packed"}, {CacheForm::Decoded, "decoded"}};
}  // namespace

CacheForm parse_cache_form(const std::string& name) { return parse_enum<CacheForm>(kCacheFormNames, name, "cache form"); }
const char* cache_form_name(CacheForm form) { return enum_name<CacheForm>(kCacheFormNames, form); }

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

std::byte* ChunkCache::admit(uint32_t chunk, uint64_t bytes, double priority) {
  if (entries_.count(chunk) || bytes > capacity_) return nullptr;
  if (used_ + bytes > capacity_) {
    // Victims: the coldest first, each colder than the newcomer.
    uint64_t freed = 0;
    auto last = by_priority_.begin();
    while (used_ - freed + bytes > capacity_) {
      if (last == by_priority_.end() || last->first >= priority) return nullptr;
      freed += entries_.at(last->second).bytes;
      ++last;
    }
    for (auto it = by_priority_.begin(); it != last;) {
      used_ -= entries_.at(it->second).bytes;
      entries_.erase(it->second);
      it = by_priority_.erase(it);
      ++stats_.evictions;
    }
  }
  Entry e;
  e.data = std::make_unique_for_overwrite<std::byte[]>(bytes);
  e.bytes = bytes;
  e.priority = priority;
  std::byte* memory = e.data.get();
  used_ += e.bytes;
  entries_.emplace(chunk, std::move(e));
  by_priority_.emplace(priority, chunk);
  if (priority != 0) warm_.push_back(chunk);
  ++stats_.insertions;
  return memory;
}

void ChunkCache::set_priority(uint32_t chunk, Entry& e, double priority) {
  if (e.priority == priority) return;
  by_priority_.erase({e.priority, chunk});
  e.priority = priority;
  by_priority_.emplace(priority, chunk);
}

// Only the chunks whose priority changes move: those warm since the last refresh and those given
// one now. Rebuilt whole, the order cost every round a sort of the cache (15 us a pass of road-FLA's
// BFS over its 164 resident chunks, a twentieth of the pass).
void ChunkCache::refresh(const std::vector<std::pair<uint32_t, double>>& priorities) {
  std::vector<uint32_t> was = std::move(warm_);
  warm_.clear();
  for (const auto& [id, p] : priorities) {
    auto it = entries_.find(id);
    if (it == entries_.end()) continue;
    set_priority(id, it->second, p);
    if (p != 0) warm_.push_back(id);
  }
  std::sort(warm_.begin(), warm_.end());
  for (uint32_t id : was) {
    if (std::binary_search(warm_.begin(), warm_.end(), id)) continue;
    auto it = entries_.find(id);
    if (it != entries_.end()) set_priority(id, it->second, 0);
  }
}

std::vector<uint32_t> ChunkCache::cached_chunks() const {
  std::vector<uint32_t> ids;
  for (const auto& [id, e] : entries_) ids.push_back(id);
  return ids;
}

}  // namespace graphso
