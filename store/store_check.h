// `graphso store-check STORE`: reads everything any reader of the store reads, in both directions,
// at one consistent position, and reports damage as the reader that would meet it reports it. A
// damaged word that readers depend on is an Error (the line `snapshot` or `ingest` would give);
// damage that costs nothing yet (one of two copies of a record, a torn or damaged checkpoint
// slot not in force) is listed, since the next fault there would.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "store/snapshot.h"
#include "store/store_meta.h"

namespace graphso::store {

struct StoreCheck {
  StoreHeader header;
  SnapshotInfo read;        // both directions, at read.position
  uint64_t log_head = 0;    // when the input records were checked
  std::vector<std::string> damage;  // survivable damage found, one line each
};

// Throws on damage a reader would meet; the out-chains and the in-chains (each with the log)
// must hold the same edge multiset, or the store is corrupt.
StoreCheck check_store(const std::string& store_path);

}  // namespace graphso::store
