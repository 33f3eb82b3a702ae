// The circular edge log on PMEM: 8-byte records at absolute positions (and, in a weighted store, a
// 4-byte weight per slot beside them), a persisted head, and the lap phase bit that tells a slot
// written in this lap from one left by the last (docs/store.md).
#pragma once

#include <cstdint>
#include <span>

#include "base/types.h"
#include "store/persister.h"
#include "store/pmem_file.h"
#include "store/store_format.h"

namespace graphso::store {

struct LoggedEdge {
  VertexId src;
  VertexId dst;
  bool deleted;
  Weight weight = 1;  // 1 in an unweighted store
};

// The record at `position`; a slot without its lap's phase, or naming a vertex past the store's,
// is a corrupt store.
LoggedEdge read_log_record(const PmemFile& file, const StoreLayout& layout, uint64_t position);

class EdgeLog {
 public:
  EdgeLog(const PmemFile& file, const StoreLayout& layout, Persister& persister);

  uint64_t slots() const { return slots_; }
  // The persisted head: every record before it is durable.
  uint64_t head() const { return head_; }
  // Group commit: writes the records (and weights) at head, persists them, then the new head. On
  // return the batch is durable (acknowledged). The caller keeps head + edges - flushed <= slots().
  // An unweighted store ignores the weights; Edge records have weight 1.
  template <typename EdgeRecord>  // Edge or WeightedEdge
  void append(std::span<const EdgeRecord> edges, bool deletes);
  // ftgraph, which logs nothing: the head counts operations applied; persists it at `position`.
  void advance_to(uint64_t position);
  // The record at position (before head, not yet overwritten).
  LoggedEdge read(uint64_t position) const { return read_log_record(file_, layout_, position); }

 private:
  const PmemFile& file_;
  const StoreLayout& layout_;
  Persister& persister_;
  LogRecord* records_;  // slots_ of them
  Weight* weights_;      // slots_ of them in a weighted store, else null
  uint64_t* sums_;       // kLogSumWords checksum words per line of kLogLineRecords
  // Which of its words covers the durable records of the line the head leaves part full (-1:
  // none, or the head is at a line's start).
  int kept_word_ = -1;
  uint64_t* head_word_;
  uint64_t slots_;
  uint64_t head_;
};

[[noreturn]] void fail_corrupt_log_record(const PmemFile& file, uint64_t position);

// A shard thread's pass over log records [first, position): append(AdjacencyList, vertex, entry,
// weight) for each record whose source (out) or destination (in) is in [lo, lo + span), the entry
// being the other end with bit 31 set for a deletion; prefetch(AdjacencyList, vertex) a few records
// ahead. The hot path of buffering: the records are decoded here rather than through
// read_log_record, which divides to find each position's slot and lap; slot and phase step along.
template <typename Prefetch, typename Append>
void route_log_records(const PmemFile& file, const StoreLayout& layout, uint64_t first, uint64_t position, VertexId lo,
                       uint32_t span, Prefetch&& prefetch, Append&& append) {
  const uint64_t slots = layout.geometry.log_slots;
  const uint64_t vertices = layout.geometry.vertices;
  const LogRecord* records = file.at<LogRecord>(layout.log);
  const Weight* weights = layout.geometry.weighted ? file.at<Weight>(layout.log_weights) : nullptr;
  constexpr uint64_t kAhead = 16;  // records between a slot's prefetch and its use
  uint64_t slot = first % slots;
  uint32_t phase = phase_of(first, slots);
  for (uint64_t p = first; p < position; ++p) {
    if (p + kAhead < position) {
      const uint64_t ahead = slot + kAhead;
      const LogRecord& next = records[ahead < slots ? ahead : ahead - slots];
      const VertexId s = next.src & ~kFlagBit, d = next.dst & ~kFlagBit;
      if (s - lo < span) prefetch(AdjacencyList::Out, s);
      if (d - lo < span) prefetch(AdjacencyList::In, d);
    }
    const LogRecord r = records[slot];
    const VertexId src = r.src & ~kFlagBit, dst = r.dst & ~kFlagBit;
    if ((r.dst >> 31) != phase || src >= vertices || dst >= vertices)
      fail_corrupt_log_record(file, p);
    const uint32_t tombstone = r.src & kFlagBit;
    const Weight weight = weights ? weights[slot] : 1;
    if (src - lo < span) append(AdjacencyList::Out, src, dst | tombstone, weight);
    if (dst - lo < span) append(AdjacencyList::In, dst, src | tombstone, weight);
    if (++slot == slots) {
      slot = 0;
      phase ^= 1;
    }
  }
}
// Writes and persists head 0 into a new store (a zero word would not match its check bits).
void write_initial_log_head(const PmemFile& file, const StoreLayout& layout, Persister& persister);

// Reads the persisted head word of a mapped store (recovery, snapshots); a word that fails its
// check is a corrupt store.
uint64_t read_log_head(const PmemFile& file, const StoreLayout& layout);

// Checks every log line holding a record in [from, to) against its checksum word; a damaged
// record is a corrupt store (one line naming the position), never an edge read wrong.
void verify_log_lines(const PmemFile& file, const StoreLayout& layout, uint64_t from, uint64_t to);

}  // namespace graphso::store
