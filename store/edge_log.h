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
  // The record at position (before head, not yet overwritten).
  LoggedEdge read(uint64_t position) const { return read_log_record(file_, layout_, position); }

 private:
  const PmemFile& file_;
  const StoreLayout& layout_;
  Persister& persister_;
  LogRecord* records_;  // slots_ of them
  Weight* weights_;      // slots_ of them in a weighted store, else null
  uint64_t* sums_;       // a checksum word per line of kLogLineRecords
  uint64_t* head_word_;
  uint64_t slots_;
  uint64_t head_;
};

// Writes and persists head 0 into a new store (a zero word would not match its check bits).
void write_initial_log_head(const PmemFile& file, const StoreLayout& layout, Persister& persister);

// Reads the persisted head word of a mapped store (recovery, snapshots); a word that fails its
// check is a corrupt store.
uint64_t read_log_head(const PmemFile& file, const StoreLayout& layout);

// Checks every log line holding a record in [from, to) against its checksum word; a damaged
// record is a corrupt store (one line naming the position), never an edge read wrong.
void verify_log_lines(const PmemFile& file, const StoreLayout& layout, uint64_t from, uint64_t to);

}  // namespace graphso::store
