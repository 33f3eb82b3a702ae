// The store file's on-PMEM format (docs/store.md): regions, records and blocks. Offsets, never
// pointers: the file may be mapped anywhere, by the ingesting process or a snapshot reader.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "base/checked_file.h"
#include "base/types.h"

namespace graphso::store {

// 2: log line checksums; 3: a checked head word, a checksum of each table copy, naive blocks
// checksummed, the input record kept in both slots. (Modes added since, dgap and gear, are new
// superblock mode values: older stores read the same.) 4: two checksum words per log line.
inline constexpr FileFormat kStoreFormat{"PGSSTORE", 4, "a graphso store", "store",
                                         "re-create it with `graphso ingest`"};
inline constexpr uint64_t kRegionAlignment = 4096;
inline constexpr uint64_t kXPLineBytes = 256;  // PMEM's media write unit
// The block region is addressed in 64-byte units (a mode cuts it into its own blocks, pages or
// nodes). A full DRAM vertex buffer (store/vertex_buffers.h) holds what a 256-byte block with a
// 16-byte header does: one whole XPLine.
inline constexpr uint64_t kBlockUnitBytes = 64;
inline constexpr uint32_t kBlockEntries = 60;  // (256 - 16-byte header) / 4
inline constexpr uint32_t kFlagBit = 0x80000000u;  // delete / phase / tombstone bit of a u32
inline constexpr uint64_t kMaxStoreVertices = kFlagBit;  // ids must leave bit 31 free

// A mode's number in the superblock. The modes and what each is: store/store_modes.h and
// store/store_mode.h; this file, like every shared one, names none.
enum class StoreMode : uint32_t;

// A paged mode cuts the block region into 4 KiB pages (page p is block units [64p, 64p + 64);
// page 0 unused); its checkpoint's high-water mark counts pages.
inline constexpr uint64_t kStorePageBytes = 4096;

// Which of a vertex's two adjacency lists: its out-neighbours or its in-neighbours.
enum class AdjacencyList : uint8_t { Out = 0, In = 1 };

// Fixed at creation.
struct StoreGeometry {
  uint64_t vertices = 0;      // ids are below this
  uint64_t log_slots = 0;     // L: records in the circular edge log
  uint64_t block_units = 0;  // size of the block region in 64-byte units; unit 0 unused
  bool weighted = false;      // edges carry a u32 weight: a log weight per slot, two-word entries
  StoreMode mode{};  // the superblock's: what the table copies and blocks hold
  bool real_weights = false;  // the weights are reals, binary32 in the u32 (base/types.h)
};

// Words (u32) per adjacency entry, in vertex buffers and blocks: the neighbour (bit 31:
// tombstone), then in a weighted store its weight.
inline constexpr uint32_t entry_words(const StoreGeometry& g) { return g.weighted ? 2 : 1; }

struct Superblock {
  FormatTag tag;
  uint32_t mode;  // StoreMode
  uint64_t vertices;
  uint64_t log_slots;
  uint64_t block_units;
  uint64_t store_id;  // random at creation: ties snapshots to their store
  uint32_t flags;     // kStoreWeighted, kStoreRealWeights (0 in stores made before weights were kept)
  uint32_t crc;  // of the bytes before it
};
inline constexpr uint32_t kStoreWeighted = 1;
inline constexpr uint32_t kStoreRealWeights = 2;  // only with kStoreWeighted

// What `ingest` is working through. Two slots: a new record goes into the slot after the current
// one's and, once persisted, is copied into the other, so both normally hold it and one damaged
// slot loses nothing. The valid one with the larger seq is current.
struct InputRecord {
  uint64_t seq;
  uint64_t start;          // log position of the input's first edge
  uint64_t size;           // file size
  uint64_t edges;          // edges in the input
  uint32_t head_crc;       // CRC-32 of the file's first 4 KiB
  uint32_t deletes;        // 1: the input's edges are deletions
  char path[464];
  uint32_t reserved;
  uint32_t crc;
};
static_assert(sizeof(InputRecord) == 512);

// Two slots; the valid one with the larger seq is the checkpoint in force. Slot k's vertex
// table copy is the table region k.
struct CheckpointSlot {
  uint64_t seq;
  uint64_t flushed;     // F: every edge before it is in blocks reachable from this slot's table
  uint64_t high_water;  // H: block units [1, H) are the ones this checkpoint may reach
  uint64_t clean;       // 1 after a clean close, for a mode read only after one (StoreModeEntry::clean_close_only)
  uint32_t table_crc;   // CRC-32C of this slot's vertex table copy
  uint32_t crc;
};

// Circular-log record: src (bit 31: delete), dst (bit 31: the lap's phase). A weighted store keeps
// each record's weight at the same slot of a parallel u32 region (log_weights).
struct LogRecord {
  uint32_t src;
  uint32_t dst;
};
static_assert(sizeof(LogRecord) == 8);

// The log is checked in lines of 32 records (one XPLine). A line's checksum word holds the
// CRC-32C of the line's start position and its first `count` records (then, in a weighted
// store, their `count` weights), written with every batch that touches the line and persisted
// with it, before the head: a record in [F, head) is always covered. bits 0-31: CRC-32C; bits
// 32-37: count (0: never written). A line has two words, in two arrays, and a batch that extends
// a line the head left part full writes the one that does not cover the durable records: a
// power cut that tears the batch's persist (the word on the media, its records not) leaves that
// one whole (docs/store.md, "Checked records"). Every other line takes its first word, so a
// batch writes the same pages of the first array as one word a line did, and one word of the
// second.
inline constexpr uint64_t kLogLineRecords = kXPLineBytes / 8;
inline constexpr uint64_t kLogSumWords = 2;
// The log holds at most slots - kLogLineRecords unflushed records, so [F, head) never has records
// of two laps in one line (a line's checksum covers one lap's records).
inline constexpr uint64_t kMinLogSlots = 2 * kLogLineRecords;

// The persisted log head: the position in bits 0-47, a check of it in bits 48-63 (16 bits of its
// CRC-32C, which tell every single-bit flip), so a damaged head is an error, never a shorter log.
// One aligned 8-byte store still writes it whole.
inline constexpr uint64_t kMaxLogPosition = (uint64_t{1} << 48) - 1;
uint64_t encode_log_head(uint64_t position);
// The position, or nullopt when the check does not match.
std::optional<uint64_t> decode_log_head(uint64_t word);

inline constexpr uint32_t phase_of(uint64_t position, uint64_t log_slots) {
  return 1u - static_cast<uint32_t>((position / log_slots) & 1u);
}

inline constexpr uint64_t kUnitsPerPage = kStorePageBytes / kBlockUnitBytes;
// Pages of a paged mode's block region.
inline constexpr uint64_t region_pages(const StoreGeometry& g) { return g.block_units / kUnitsPerPage; }

// Where each region starts; all 4 KiB-aligned.
struct StoreLayout {
  explicit StoreLayout(const StoreGeometry& geometry);
  StoreGeometry geometry;
  uint64_t superblock = 0;
  uint64_t input_slots = 0;       // 2 x InputRecord
  uint64_t checkpoint_slots = 0;  // 2 x CheckpointSlot, 512 bytes apart
  uint64_t log_head = 0;          // one u64
  uint64_t log = 0;
  uint64_t log_weights = 0;       // weighted stores: one u32 per log slot (else an empty region)
  uint64_t log_sums = 0;          // kLogSumWords arrays of a u64 per log line (first words, then second)
  uint64_t tables[2] = {0, 0};    // per checkpoint slot: the mode's table copy (store/store_mode.h)
  uint64_t table_size = 0;
  uint64_t blocks = 0;
  uint64_t file_bytes = 0;

  // Bytes of one table copy (the mode's: StoreModeEntry::table_bytes).
  uint64_t table_bytes() const { return table_size; }
  uint64_t page_offset(uint64_t page) const { return blocks + page * kStorePageBytes; }
  uint64_t block_offset(uint64_t unit) const { return blocks + unit * kBlockUnitBytes; }
  uint64_t record_offset(uint64_t position) const {
    return log + (position % geometry.log_slots) * sizeof(LogRecord);
  }
  uint64_t weight_offset(uint64_t position) const {
    return log_weights + (position % geometry.log_slots) * sizeof(Weight);
  }
  uint64_t log_lines() const { return (geometry.log_slots + kLogLineRecords - 1) / kLogLineRecords; }
  // Checksum word `word` of log line `line`: its index among the region's u64, and its offset.
  uint64_t log_sum_index(uint64_t line, uint64_t word) const { return word * log_lines() + line; }
  uint64_t log_sum_offset(uint64_t line, uint64_t word) const {
    return log_sums + log_sum_index(line, word) * sizeof(uint64_t);
  }
  // The u64 words after the log head in its region (k >= 1), for a mode that keeps more there.
  uint64_t head_word(uint32_t k) const { return log_head + k * sizeof(uint64_t); }
};

}  // namespace graphso::store
