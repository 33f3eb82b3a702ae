// Lock-free updates of plain vertex arrays from many threads (std::atomic_ref, C++20).
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

namespace graphso {

// Lowers slot to value if value is smaller; true if it did.
template <typename T>
bool atomic_min(T& slot, T value) {
  std::atomic_ref<T> ref(slot);
  T current = ref.load(std::memory_order_relaxed);
  while (value < current)
    if (ref.compare_exchange_weak(current, value, std::memory_order_relaxed)) return true;
  return false;
}

// atomic_min for a slot no other thread writes now (EdgeRun::owns_destinations).
template <typename T>
bool owned_min(T& slot, T value) {
  if (!(value < slot)) return false;
  slot = value;
  return true;
}

template <typename T>
void atomic_add(T& slot, T value) {
  std::atomic_ref<T>(slot).fetch_add(value, std::memory_order_relaxed);
}

// A byte per vertex, taken as a spin lock: a thread that adds to several values of a vertex it
// does not own (a group's lanes) takes the vertex once, instead of one compare-and-swap loop per
// value (eight of them took 45% of a delta-PageRank group's time).
class VertexLocks {
 public:
  void assign(uint64_t vertices) { held_.assign(vertices, 0); }
  uint64_t bytes() const { return held_.size(); }
  template <typename F>
  void with(uint64_t v, F&& f) {
    std::atomic_ref<uint8_t> held(held_[v]);
    while (held.exchange(1, std::memory_order_acquire))
      while (held.load(std::memory_order_relaxed)) {
      }
    f();
    held.store(0, std::memory_order_release);
  }

 private:
  std::vector<uint8_t> held_;
};

}  // namespace graphso
