// The store's small persistent records: the superblock (geometry, written once), the two input
// records (what `ingest` is working through) and the two checkpoint slots. Each is checksummed;
// of two slots the valid one with the larger sequence number counts, so a torn write of one
// leaves the other in force.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "store/persister.h"
#include "store/pmem_file.h"
#include "store/store_format.h"

namespace graphso::store {

struct StoreHeader {
  StoreGeometry geometry;
  StoreMode mode = StoreMode::XPGraph;
  uint64_t store_id = 0;
};

void write_superblock(const PmemFile& file, Persister& persister, const StoreHeader& header);
// Checks magic, version, checksum and that the file is as large as the geometry says.
StoreHeader read_superblock(const PmemFile& file);

struct Checkpoint {
  uint32_t slot = 1;  // where it lives; its table copy is tables[slot]. No checkpoint yet: 1, seq 0
  uint64_t seq = 0;
  uint64_t flushed = 0;     // F
  uint64_t high_water = 1;  // H
  bool clean = false;       // naive mode: closed cleanly
};

// The checkpoint in force (seq 0 on a store that has none).
Checkpoint read_checkpoint(const PmemFile& file, const StoreLayout& layout);
// Writes c into its slot and persists it: the commit point of a checkpoint.
void write_checkpoint(const PmemFile& file, const StoreLayout& layout, Persister& persister, const Checkpoint& c);

struct InputProgress {
  uint32_t slot = 1;
  uint64_t seq = 0;
  uint64_t start = 0;  // log position of its first edge
  uint64_t size = 0;
  uint64_t edges = 0;
  uint32_t head_crc = 0;
  bool deletes = false;
  std::string path;

  bool same_input(const InputProgress& other) const {
    return size == other.size && edges == other.edges && head_crc == other.head_crc && deletes == other.deletes &&
           path == other.path;
  }
};

std::optional<InputProgress> read_input(const PmemFile& file, const StoreLayout& layout);
// Makes `input` the current one (in the slot after the current one's); persisted on return.
void write_input(const PmemFile& file, const StoreLayout& layout, Persister& persister, const InputProgress& input);

}  // namespace graphso::store
