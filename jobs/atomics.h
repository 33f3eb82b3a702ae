// Lock-free updates of plain vertex arrays from many threads (std::atomic_ref, C++20).
#pragma once

#include <atomic>

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

}  // namespace graphso
