// The shared chunk cache (GraphSO section 3.3): one copy of a chunk for every job. A chunk loaded
// from the device is inserted while there is room; when full, the cached chunks of lowest
// priority are evicted to make room, but only for a chunk of higher priority than each of them
// (evicting a hotter chunk for a colder one would only cost I/O later). Priorities are refreshed
// every round from GetActiveChunks; a cached chunk no job wants has priority 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace graphso {

// What the cache keeps of a packed graph's chunk: its pages as read (packed), or the source groups
// they decode to (decoded, base/decoded_chunk.h: about twice the bytes, no decode per round).
// auto: decoded when every chunk decoded fits in the cache (a graph the budget holds), packed
// otherwise, where the cache holds more chunks. A graph stored raw is cached as its records.
enum class CacheForm { Auto, Packed, Decoded };
CacheForm parse_cache_form(const std::string& name);
const char* cache_form_name(CacheForm form);

struct CacheStats {
  uint64_t hits = 0;          // active chunks served from the cache
  uint64_t misses = 0;        // active chunks read from the device
  uint64_t bytes_hit = 0;
  uint64_t insertions = 0;
  uint64_t evictions = 0;
};

class ChunkCache {
 public:
  explicit ChunkCache(uint64_t capacity_bytes) : capacity_(capacity_bytes) {}

  uint64_t capacity() const { return capacity_; }
  uint64_t used() const { return used_; }
  bool contains(uint32_t chunk) const { return entries_.count(chunk) > 0; }
  // The chunk's bytes, counting a hit; nullptr (and a miss) when it is not cached.
  const std::byte* lookup(uint32_t chunk);
  // The chunk's bytes without counting a hit (building another form of the graph from the
  // cache); nullptr when it is not cached.
  const std::byte* peek(uint32_t chunk) const {
    auto it = entries_.find(chunk);
    return it == entries_.end() ? nullptr : it->second.data.get();
  }
  uint64_t entries() const { return entries_.size(); }
  // Active chunks that had to be read from the device (the scheduler skips lookups for them).
  void count_misses(uint64_t chunks) { stats_.misses += chunks; }
  // Offers a chunk of `bytes` bytes just read from the device: the entry's memory, which the
  // caller fills with the chunk before the next lookup, or nullptr when it is not taken. A later
  // admit() may evict it (contains() tells). The caller copies, so that a load's chunks can be
  // copied in on every thread (filling fresh memory costs its page faults as well as the copy).
  std::byte* admit(uint32_t chunk, uint64_t bytes, double priority);
  // Sets every cached chunk's priority: those in `priorities` get theirs, the rest 0.
  void refresh(const std::vector<std::pair<uint32_t, double>>& priorities);
  double priority(uint32_t chunk) const { return entries_.at(chunk).priority; }
  std::vector<uint32_t> cached_chunks() const;
  const CacheStats& stats() const { return stats_; }

 private:
  struct Entry {
    std::unique_ptr<std::byte[]> data;
    uint64_t bytes = 0;
    double priority = 0;
  };
  // Eviction order: lowest priority first, ties highest id first. Kept beside the entries so an
  // offer costs its victims, not a sort of the whole cache (thousands of 64 KiB chunks).
  struct Colder {
    bool operator()(const std::pair<double, uint32_t>& a, const std::pair<double, uint32_t>& b) const {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    }
  };
  // Moves a chunk to its new place in the eviction order.
  void set_priority(uint32_t chunk, Entry& e, double priority);

  uint64_t capacity_;
  uint64_t used_ = 0;
  std::map<uint32_t, Entry> entries_;
  std::set<std::pair<double, uint32_t>, Colder> by_priority_;
  // Chunks given a priority above 0 since the last refresh, or by it (some may be evicted since):
  // the only ones whose priority a refresh may have to take back.
  std::vector<uint32_t> warm_;
  CacheStats stats_;
};

}  // namespace graphso
