// The store's small persistent records: the superblock (geometry, written once), the two input
// records (what `ingest` is working through) and the two checkpoint slots. Each is checksummed;
// of two slots the valid one with the larger sequence number counts, so a torn write of one
// leaves the other in force.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/error.h"
#include "store/persister.h"
#include "store/pmem_file.h"
#include "store/store_format.h"

namespace graphso::store {

struct StoreHeader {
  StoreGeometry geometry;
  StoreMode mode{};
  uint64_t store_id = 0;
};

void write_superblock(const PmemFile& file, Persister& persister, const StoreHeader& header);
// Checks magic, version, checksum and that the file is as large as the geometry says.
StoreHeader read_superblock(const PmemFile& file);

struct Checkpoint {
  uint32_t slot = 1;  // where it lives; its table copy is tables[slot]. No checkpoint yet: 1, seq 0
  uint64_t seq = 0;   // 0: none, and the table of chain heads is empty
  uint64_t flushed = 0;     // F
  uint64_t high_water = 1;  // H
  bool clean = false;       // closed cleanly (a mode read only after a clean close)
  uint32_t table_crc = 0;   // CRC-32C of the slot's table copy
  // A slot that is not all zeros and fails its checksum: torn by a crash while it was written, or
  // damaged since. The other slot is then in force; what depends on it is checked as usual (the
  // log it replays, the table copy's checksum), so the recovery is exact or an error, and an
  // error says this slot was damaged.
  int damaged_slot = -1;
};

// The checkpoint in force (seq 0 on a store that has none).
Checkpoint read_checkpoint(const PmemFile& file, const StoreLayout& layout);
// "checkpoint slot K is damaged; " when one is, for the errors recovery meets afterwards.
std::string damage_note(const Checkpoint& c);
// Runs f; an error it throws says, when a checkpoint slot is damaged, that the older checkpoint
// was used because of it.
template <typename F>
void with_damage_note(const Checkpoint& c, F&& f) {
  if (c.damaged_slot < 0) return f();
  try {
    f();
  } catch (const Error& e) {
    throw Error(fmt::format("{} (checkpoint slot {} is damaged, so the older checkpoint was used)", e.what(),
                            c.damaged_slot));
  }
}
// The checkpoint's high-water mark inside the block region and F <= head <= F + L; else an error
// naming the store's damaged words.
void check_positions(const PmemFile& file, const StoreHeader& header, const Checkpoint& c, uint64_t head);
// A store of a mode read only after a clean close (StoreModeEntry::clean_close_only: no crash
// recovery) that was not closed cleanly is an error, naming a checkpoint slot that is damaged or
// empty where one must be. Other modes pass.
void check_closed_cleanly(const PmemFile& file, const StoreHeader& header, const Checkpoint& c, uint64_t head,
                          const char* advice);
// CRC-32C of table copy `slot`.
uint32_t table_copy_crc(const PmemFile& file, const StoreLayout& layout, uint32_t slot);
// The checkpoint's table copy in the mapping, checked against its checksum: out-heads then
// in-heads, V each; empty for seq 0 (no checkpoint: every chain is empty). A reader beside a
// writer must check afterwards that the checkpoint is still in force, as for the log and blocks.
std::span<const uint32_t> checked_table_copy(const PmemFile& file, const StoreLayout& layout, const Checkpoint& c);
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

struct InputRecords {
  std::optional<InputProgress> current;  // the valid record with the larger seq
  bool damaged[2] = {false, false};      // not all zeros, and failing its checksum
  bool both_current = false;              // both slots hold `current` (the steady state)
};

InputRecords read_inputs(const PmemFile& file, const StoreLayout& layout);
// Makes `input` the current one: written into the slot after the current one's and persisted,
// then copied into the other slot and persisted. A crash between the two leaves the new record
// in one slot and the old in the other; the next open copies the newer over (repair_inputs).
void write_input(const PmemFile& file, const StoreLayout& layout, Persister& persister, const InputProgress& input);
// Writes the current record into the slot that does not hold it (damaged, or older after a crash
// between write_input's two writes). Returns the slot written, -1 when there was nothing to do.
int repair_inputs(const PmemFile& file, const StoreLayout& layout, Persister& persister);

}  // namespace graphso::store
