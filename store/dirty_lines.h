// The 256-byte lines (XPLines) of the block region written since the last persist, one bit each,
// set by ingest threads at once (a relaxed fetch_or); then handed to the persister as ranges, with
// adjacent lines joined. The naive baseline persists them per batch, gear per checkpoint.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "store/persister.h"
#include "store/store_format.h"

namespace graphso::store {

class DirtyLines {
 public:
  explicit DirtyLines(const StoreLayout& layout)
      : blocks_(layout.blocks),
        lines_(layout.geometry.block_units * kBlockUnitBytes / kXPLineBytes),
        bits_((lines_ + 63) / 64) {}

  // `bytes` written at byte `offset` of the block region.
  void mark(uint64_t offset, uint64_t bytes) {
    for (uint64_t line = offset / kXPLineBytes; line * kXPLineBytes < offset + bytes && line < lines_; ++line)
      bits_[line / 64].fetch_or(uint64_t{1} << (line % 64), std::memory_order_relaxed);
  }
  // The lines marked since the last call, as file ranges in order; the marks are cleared.
  std::vector<ByteRange> take() {
    std::vector<ByteRange> ranges;
    for (uint64_t word = 0; word < bits_.size(); ++word) {
      uint64_t bits = bits_[word].exchange(0, std::memory_order_relaxed);
      while (bits) {
        const uint64_t line = word * 64 + static_cast<uint64_t>(__builtin_ctzll(bits));
        bits &= bits - 1;
        add_range(ranges, blocks_ + line * kXPLineBytes, kXPLineBytes);
      }
    }
    return ranges;
  }

 private:
  uint64_t blocks_;  // the block region's file offset
  uint64_t lines_;
  std::vector<std::atomic<uint64_t>> bits_;
};

}  // namespace graphso::store
