// The one error a store writer recovers from: no room left.
#pragma once

#include <utility>

#include "base/error.h"

namespace graphso::store {

// What a writer throws when the store has no room for what it is writing (no free block, page,
// subpage run or tree node): GraphStore grows the store (store/store_growth.cc) and goes on. What
// is durable when it is thrown is what a view of the store reads.
class StoreFull : public Error {
 public:
  using Error::Error;
};
template <typename... Args>
[[noreturn]] void fail_full(fmt::format_string<Args...> format, Args&&... args) {
  throw StoreFull(fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace graphso::store
