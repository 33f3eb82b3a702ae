#include "store/xpgraph/adjacency_blocks.h"

#include <cstring>

#include "base/checksum.h"
#include "base/error.h"
#include "base/file.h"
#include "base/progress.h"
#include "store/store_full.h"

namespace graphso::store {

uint32_t block_crc(const AdjacencyBlock& block) {
  BlockHeader header = block.header;
  header.crc = 0;
  uint32_t crc = crc32c_of(as_bytes_of(header));
  return crc32c_of(std::as_bytes(std::span<const uint32_t>(block.entries, block.header.count)), crc);
}
namespace {

const char* direction_name(AdjacencyList d) { return d == AdjacencyList::Out ? "out" : "in"; }

}  // namespace

AdjacencyBlocks::AdjacencyBlocks(const PmemFile& file, const StoreLayout& layout, uint32_t threads, uint64_t high_water)
    : file_(file), layout_(layout), next_(high_water), reservations_(threads) {
  for (auto& heads : heads_) heads.assign(layout.geometry.vertices, 0);
}

uint32_t AdjacencyBlocks::allocate(uint32_t thread, uint32_t size_class) {
  Reservation& r = reservations_[thread];
  const uint64_t units = block_units(size_class);
  uint64_t unit = align_up(r.next, units);  // a block is aligned to its size
  if (unit + units > r.end) {
    r.next = next_.fetch_add(kReservationUnits);
    r.end = r.next + kReservationUnits;
    if (r.end > layout_.geometry.block_units)
      fail_full("{}: the store is full ({} of adjacency blocks); create it with a larger --block-space", file_.path(),
           human_bytes(static_cast<double>(layout_.geometry.block_units * kBlockUnitBytes)));
    unit = align_up(r.next, units);
  }
  r.next = unit + units;
  return static_cast<uint32_t>(unit);
}

void AdjacencyBlocks::end_reservations() {
  for (Reservation& r : reservations_) r.next = r.end = 0;
}

void AdjacencyBlocks::prepend(uint32_t thread, AdjacencyList d, VertexId v, std::span<const uint32_t> entries,
                              uint8_t flags) {
  const uint32_t size_class = block_class_for(static_cast<uint32_t>(entries.size()));
  const uint32_t unit = allocate(thread, size_class);
  AdjacencyBlock& b = block(unit);
  uint32_t& head = heads_[static_cast<size_t>(d)][v];
  b.header = BlockHeader{v, head, static_cast<uint8_t>(entries.size()), static_cast<uint8_t>(size_class),
                         static_cast<uint8_t>(d), flags, 0};
  std::memcpy(b.entries, entries.data(), entries.size_bytes());
  b.header.crc = block_crc(b);
  head = unit;
}

void AdjacencyBlocks::append_in_place(uint32_t thread, AdjacencyList d, VertexId v, std::span<const uint32_t> entry,
                                      DirtyLines& dirty) {
  uint32_t& head = heads_[static_cast<size_t>(d)][v];
  if (head == 0 || block(head).header.count + entry.size() > kBlockEntries) {
    const uint32_t unit = allocate(thread, kBlockClasses - 1);
    block(unit).header = BlockHeader{v, head, 0, kBlockClasses - 1, static_cast<uint8_t>(d), kBlockNaive, 0};
    head = unit;
  }
  AdjacencyBlock& b = block(head);
  std::memcpy(b.entries + b.header.count, entry.data(), entry.size_bytes());
  b.header.count = static_cast<uint8_t>(b.header.count + entry.size());
  b.header.crc = block_crc(b);  // in the same XPLine, persisted with the batch
  dirty.mark(uint64_t{head} * kBlockUnitBytes, kXPLineBytes);  // the whole 256-byte block, one line
}

const AdjacencyBlock& checked_block(const PmemFile& file, const StoreLayout& layout, uint32_t unit,
                                    uint64_t high_water, AdjacencyList d, VertexId v) {
  if (unit >= high_water || unit >= layout.geometry.block_units)
    fail("{}: corrupt store: the {}-chain of vertex {} reaches block unit {}, past the {} allocated", file.path(),
         direction_name(d), v, unit, high_water);
  const AdjacencyBlock& block = *file.at<AdjacencyBlock>(layout.block_offset(unit));
  const BlockHeader& h = block.header;
  const char* what = nullptr;
  if (h.size_class >= kBlockClasses || unit % block_units(h.size_class) != 0 ||
      unit + block_units(h.size_class) > high_water)
    what = "has a bad size or position";
  else if (h.owner != v) what = "belongs to another vertex";
  else if (h.direction != static_cast<uint8_t>(d)) what = "is in the other direction's chain";
  else if (h.count == 0 || h.count > block_entries(h.size_class) || h.count % entry_words(layout.geometry) != 0)
    what = "has a bad entry count";
  else if (h.previous >= unit) what = "links forward";
  else if (h.crc != block_crc(block)) what = "fails its checksum";
  if (what) fail("{}: corrupt store: block unit {} in the {}-chain of vertex {} {}", file.path(), unit, direction_name(d), v, what);
  return block;
}

}  // namespace graphso::store
