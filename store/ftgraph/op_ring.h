// What a live ftgraph writer is doing, for readers in other processes (docs/store.md, "ftgraph:
// reading beside the writer"). The trees change in place, so a reader that scans them while a
// batch is applied sees some of its operations and not others. Before an operation changes a
// tree the writer publishes it here, at its position, with what the edge was before it (present
// or not, and its weight): a reader that fixed version S scans the trees, then sets every edge
// that an operation at S or after touched back to what it was before the first of them.
//
// The ring is shared memory (/dev/shm), not PMEM: it is a message to readers, never persisted,
// and no recovery reads it. It is named after the store file's device and inode; its header names
// the store (its id and path) and `exact_from`, the first position whose "before" this writer
// knows: a writer that opens a store with an interrupted batch replays it over a partly changed
// graph, so that batch's records say nothing about S. A writer removes its ring when it closes
// (a reader opens the ring after its walk, so it finds the current writer's; if the writer
// finished and closed meanwhile, the head has moved and the reader reads again), and when it
// opens, the rings of stores that are gone (writers killed, stores deleted).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "base/types.h"

namespace graphso::store {

inline constexpr uint64_t kOpRingCapacity = uint64_t{1} << 22;  // 64 MiB of records

struct OpRecord {
  std::atomic<uint32_t> stamp;  // (position + 1) mod 2^32, stored last: the record is whole
  uint32_t src;                 // bit 31: a deletion
  uint32_t dst;                 // bit 31: the edge was present before the operation
  Weight weight;                // its weight then (when present)
};
static_assert(sizeof(OpRecord) == 16);

// A published operation, as a reader finds it.
struct PublishedOp {
  VertexId src, dst;
  bool deleted;
  bool present_before;
  Weight weight_before;
};

class OpRing {
 public:
  // The writer's: created, or taken over from an earlier writer of the same store.
  static OpRing create(const std::string& store_path, uint64_t store_id, uint64_t exact_from);
  // A reader's: nullopt when no writer of this store has published one.
  static std::optional<OpRing> open(const std::string& store_path, uint64_t store_id);
  OpRing() = default;
  ~OpRing();
  OpRing(OpRing&& other) noexcept;
  OpRing& operator=(OpRing&& other) noexcept;
  OpRing(const OpRing&) = delete;
  OpRing& operator=(const OpRing&) = delete;

  // Writer: the operation at `position`, before it changes any tree.
  void publish(uint64_t position, VertexId src, VertexId dst, bool deleted, bool present_before, Weight weight_before) {
    OpRecord& r = records_[position % kOpRingCapacity];
    r.src = src | (deleted ? 0x80000000u : 0);
    r.dst = dst | (present_before ? 0x80000000u : 0);
    r.weight = weight_before;
    r.stamp.store(static_cast<uint32_t>(position + 1), std::memory_order_release);
  }
  // Writer, closing: the ring goes (readers that mapped it keep theirs).
  void remove();

  // Reader: the operation at `position` when it is published; nullopt when it is not yet (it has
  // not changed any tree). `overrun`: the writer has since published past it, a lap later.
  std::optional<PublishedOp> read(uint64_t position, bool& overrun) const;

  // Reader: what each edge an operation in [from, to) touched was before the first of them, keyed
  // by (src << 32 | dst) for the out-trees, (dst << 32 | src) for the in-trees; nullopt, with
  // `why`, when the writer overran the ring (read again). The reads are not one instant: an edge's
  // second operation in a batch, published after its first, carries the first's outcome as its
  // "before", and could be read after the first was found unpublished. So each edge keeps its
  // earliest operation read, and the positions found unpublished are read again, until a whole
  // pass finds none of them published: one published meanwhile takes its place before any later
  // operation of its edge (setting an edge back to its state before its first operation is right
  // whether or not the walk saw that one); those still unpublished in that last pass changed
  // nothing, and the writer published no operation read after them. Readers wait out at most the
  // rest of the writer's publishing of [from, to), without walking the trees again.
  struct EdgeBefore {
    bool present;
    Weight weight;
    uint64_t position;  // of the operation it was read from: the edge's earliest one read
  };
  std::optional<std::unordered_map<uint64_t, EdgeBefore>> states_before(uint64_t from, uint64_t to, bool out_trees,
                                                                         std::string& why) const;
  uint64_t exact_from() const;

 private:
  struct Header;
  OpRing(std::string name, void* map, uint64_t bytes);
  std::string name_;
  void* map_ = nullptr;
  uint64_t bytes_ = 0;
  Header* header_ = nullptr;
  OpRecord* records_ = nullptr;
};

}  // namespace graphso::store
