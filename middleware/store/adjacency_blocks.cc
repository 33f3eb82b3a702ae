#include "middleware/store/adjacency_blocks.h"

#include <cstring>

#include "engine/common/error.h"

namespace graphso::store {
namespace {

// Blocks a thread takes at a time: the shared high-water mark moves once per 64 flushes.
constexpr uint64_t kReservationBlocks = 64;

}  // namespace

AdjacencyBlocks::AdjacencyBlocks(const PmemFile& file, const StoreLayout& layout, uint32_t threads, uint64_t high_water)
    : file_(file),
      layout_(layout),
      blocks_(file.at<AdjacencyBlock>(layout.blocks)),
      next_(high_water),
      reservations_(threads) {
  for (auto& heads : heads_) heads.assign(layout.geometry.vertices, 0);
}

uint32_t AdjacencyBlocks::allocate(uint32_t thread) {
  Reservation& r = reservations_[thread];
  if (r.next == r.end) {
    r.next = next_.fetch_add(kReservationBlocks);
    r.end = r.next + kReservationBlocks;
    if (r.end > capacity())
      fail("{}: the store is full ({} adjacency blocks); create it with a larger --blocks", file_.path(),
           capacity());
  }
  return static_cast<uint32_t>(r.next++);
}

void AdjacencyBlocks::end_reservations() {
  for (Reservation& r : reservations_) r.next = r.end = 0;
}

void AdjacencyBlocks::prepend(uint32_t thread, Direction d, VertexId v, std::span<const uint32_t> entries,
                              uint8_t flags) {
  uint32_t index = allocate(thread);
  AdjacencyBlock& block = blocks_[index];
  uint32_t& head = heads_[static_cast<size_t>(d)][v];
  block.header = BlockHeader{v, head, static_cast<uint16_t>(entries.size()), static_cast<uint8_t>(d), flags, 0};
  std::memcpy(block.entries, entries.data(), entries.size_bytes());
  block.header.crc = block_crc(block);
  head = index;
}

void AdjacencyBlocks::append_in_place(uint32_t thread, Direction d, VertexId v, uint32_t entry,
                                      std::vector<std::atomic<uint64_t>>& dirty) {
  uint32_t& head = heads_[static_cast<size_t>(d)][v];
  if (head == 0 || blocks_[head].header.count == kBlockEntries) {
    uint32_t index = allocate(thread);
    blocks_[index].header = BlockHeader{v, head, 0, static_cast<uint8_t>(d), kBlockNaive, 0};
    head = index;
  }
  AdjacencyBlock& block = blocks_[head];
  block.entries[block.header.count] = entry;
  ++block.header.count;
  dirty[head / 64].fetch_or(uint64_t{1} << (head % 64), std::memory_order_relaxed);
}

const AdjacencyBlock& checked_block(const PmemFile& file, const StoreLayout& layout, uint32_t index,
                                    uint64_t high_water, Direction d, VertexId v) {
  if (index >= high_water || index >= layout.geometry.block_capacity)
    fail("{}: corrupt store: the {}-chain of vertex {} reaches block {}, past the {} allocated", file.path(),
         d == Direction::Out ? "out" : "in", v, index, high_water);
  const AdjacencyBlock& block = file.at<AdjacencyBlock>(layout.blocks)[index];
  const char* what = nullptr;
  if (block.header.owner != v) what = "belongs to another vertex";
  else if (block.header.direction != static_cast<uint8_t>(d)) what = "is in the other direction's chain";
  else if (block.header.count == 0 || block.header.count > kBlockEntries) what = "has a bad entry count";
  else if (block.header.previous >= index) what = "links forward";
  else if (!(block.header.flags & kBlockNaive) && block.header.crc != block_crc(block)) what = "fails its checksum";
  if (what)
    fail("{}: corrupt store: block {} in the {}-chain of vertex {} {}", file.path(), index,
         d == Direction::Out ? "out" : "in", v, what);
  return block;
}

}  // namespace graphso::store
