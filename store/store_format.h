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
// superblock mode values: older stores read the same.)
inline constexpr FileFormat kStoreFormat{"PGSSTORE", 3, "a graphso store", "store",
                                         "re-create it with `graphso ingest`"};
inline constexpr uint64_t kRegionAlignment = 4096;
inline constexpr uint64_t kXPLineBytes = 256;  // PMEM's media write unit
// Adjacency blocks are 64, 128 or 256 bytes (size class 0, 1, 2), aligned to their size, addressed
// in 64-byte units. A full vertex buffer flushes as one 256-byte block: one whole XPLine.
inline constexpr uint64_t kBlockUnitBytes = 64;
inline constexpr uint32_t kBlockClasses = 3;
inline constexpr uint32_t kBlockEntries = 60;  // of the largest: (256 - 16-byte header) / 4
inline constexpr uint64_t block_units(uint32_t size_class) { return uint64_t{1} << size_class; }
inline constexpr uint32_t block_entries(uint32_t size_class) {
  return static_cast<uint32_t>((kBlockUnitBytes * block_units(size_class) - 16) / 4);
}
// The smallest size class holding n entries (n <= kBlockEntries).
inline constexpr uint32_t block_class_for(uint32_t n) { return n <= block_entries(0) ? 0 : n <= block_entries(1) ? 1 : 2; }
inline constexpr uint32_t kFlagBit = 0x80000000u;  // delete / phase / tombstone bit of a u32
inline constexpr uint64_t kMaxStoreVertices = kFlagBit;  // ids must leave bit 31 free

enum class StoreMode : uint32_t { XPGraph = 0, Naive = 1, Dgap = 2, Gear = 3, Ftgraph = 4 };
// dgap and gear cut the block region into 4 KiB pages; the checkpoint's high-water mark counts pages.
inline constexpr bool paged(StoreMode mode) { return mode == StoreMode::Dgap || mode == StoreMode::Gear; }
const char* store_mode_name(StoreMode mode);
StoreMode parse_store_mode(const std::string& name);

// Which of a vertex's two adjacency lists: its out-neighbours or its in-neighbours.
enum class AdjacencyList : uint8_t { Out = 0, In = 1 };

// Fixed at creation.
struct StoreGeometry {
  uint64_t vertices = 0;      // ids are below this
  uint64_t log_slots = 0;     // L: records in the circular edge log
  uint64_t block_units = 0;  // size of the block region in 64-byte units; unit 0 unused
  bool weighted = false;      // edges carry a u32 weight: a log weight per slot, two-word entries
  StoreMode mode = StoreMode::XPGraph;  // the superblock's: what the table copies and blocks hold
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
  uint64_t clean;       // naive mode: 1 after a clean close (the baseline has no recovery)
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
// store, their `count` weights), written with every batch
// that touches the line and persisted with it, before the head: a record in [F, head) is always
// covered. bits 0-31: CRC-32C; bits 32-37: count (0: never written).
inline constexpr uint64_t kLogLineRecords = kXPLineBytes / 8;
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

struct BlockHeader {
  uint32_t owner;
  uint32_t previous;  // unit index of the older block of the same chain, 0 at the end
  uint8_t count;
  uint8_t size_class;
  uint8_t direction;  // AdjacencyList
  uint8_t flags;      // kBlockCompacted, kBlockNaive
  uint32_t crc;       // of header (crc field zero) and the count entries (naive mode: rewritten with each entry)
};
inline constexpr uint8_t kBlockCompacted = 1;  // first block of a compacted run
inline constexpr uint8_t kBlockNaive = 2;      // written in place by the naive baseline

// The largest block; smaller ones are its first 64 or 128 bytes. `count` counts words: in a
// weighted store each entry is two, the neighbour and its weight.
struct AdjacencyBlock {
  BlockHeader header;
  uint32_t entries[kBlockEntries];  // neighbour ids, bit 31: tombstone (each followed by a weight when weighted)
};
static_assert(sizeof(AdjacencyBlock) == kXPLineBytes);

uint32_t block_crc(const AdjacencyBlock& block);

// dgap mode (store/dgap): the block region is cut into 4 KiB pages (page p is block units
// [64p, 64p + 64); page 0 unused), each one section of the sorted edge array, stored as one packed
// page (base/packed_pages.h). A table copy is the section table: a header, then one entry per
// section in key order.
inline constexpr uint64_t kSectionPageBytes = 4096;
inline constexpr uint64_t kUnitsPerPage = kSectionPageBytes / kBlockUnitBytes;
struct SectionTableHeader {
  uint64_t sections;
  uint32_t merges;  // since the store was created (saturating): sections rewritten with their logs
  uint32_t splits;  // of which sections split off
};
struct SectionEntry {
  uint64_t key;   // (source << 32 | destination): the section holds edges from its key up to the next section's
  uint32_t page;  // 0: the section is empty
  uint32_t crc;   // CRC-32C of the page's 4096 bytes
};
static_assert(sizeof(SectionEntry) == 16 && sizeof(SectionTableHeader) == 16);
inline constexpr uint64_t section_pages(const StoreGeometry& g) { return g.block_units / kUnitsPerPage; }

// gear mode (store/gear): the block region is cut into 4 KiB pages (page 0 unused). A page in use
// holds subpages of one level: level L is 64 << L bytes, so levels 0-6 cut a page into 64 to 1
// equal subpages, and a level L > 6 list takes a run of 2^(L-6) pages. Each vertex's out-list and
// in-list is one subpage (or run): its entries from the start, the rest reserved for what comes.
// A table copy is a header, a GearList per vertex and direction (out-lists then in-lists), then a
// GearPage per page of the region.
inline constexpr uint32_t kGearPageLevel = 6;    // a whole page; above it, runs of pages
inline constexpr uint32_t kGearMaxLevel = 26;    // a run of 2^20 pages (4 GiB)
inline constexpr uint8_t kGearPageFree = 0xFF;   // GearPage::level of a page not in use
inline constexpr uint8_t kGearPageInRun = 0xFE;  // of a run's pages after its first
inline constexpr uint64_t gear_level_bytes(uint32_t level) { return uint64_t{64} << level; }
inline constexpr uint32_t gear_subpages(uint32_t level) { return level >= kGearPageLevel ? 1 : 64u >> level; }
inline constexpr uint64_t gear_run_pages(uint32_t level) { return level <= kGearPageLevel ? 1 : uint64_t{1} << (level - kGearPageLevel); }
struct GearTableHeader {
  uint64_t relocations;      // since the store was created: lists moved to a larger subpage
  uint64_t relocated_bytes;  // the entries those moves copied again
  uint64_t wear_moves;       // lists moved off a worn page by the wear leveller
  uint64_t wear_moved_bytes;
};
struct GearList {
  uint32_t unit;   // 64-byte unit of its subpage's start; 0: the list is empty
  uint32_t words;  // entry words it holds (the rest of the subpage is reserved)
  uint32_t crc;    // CRC-32C of those words
};
struct GearPage {
  uint64_t written;  // wear levelling inside the page: subpage s was written this round
  uint32_t writes;   // subpage writes into the page since the store was created
  uint8_t level;     // of its subpages; kGearPageFree, or kGearPageInRun
  uint8_t reserved[3];
};
static_assert(sizeof(GearTableHeader) == 32 && sizeof(GearList) == 12 && sizeof(GearPage) == 16);
// The page table's offset in a table copy (the lists start right after the header).
inline constexpr uint64_t gear_page_offset(uint64_t vertices) {
  return (sizeof(GearTableHeader) + 2 * vertices * sizeof(GearList) + 15) / 16 * 16;
}

// ftgraph mode (store/ftgraph): no log and no checkpoints. Each vertex's out-edges and in-edges
// are a degree-aware suffix-bit tree of nodes in the block region, found through the vertex array
// (table copy 0: a VertexWord per vertex and direction, out then in). A node is a header line,
// a line of fingerprints, in a weighted store a line of entry checks, then 64 entry slots (a u32
// neighbour, or a u64 neighbour | weight << 32). A root holds 16, 32, then 64 edges in place; a
// full node branches: its children (2 up to level 2, then 4) are allocated together, and an edge
// goes down by its neighbour's low bits. The log head word counts operations applied.
inline constexpr uint32_t kTreeSlots = 64;
inline constexpr uint32_t kTreeBinaryLevels = 3;  // levels 0-2 branch two ways, deeper ones four
struct TreeNodeHeader {
  uint64_t next;     // children: unit | check << 32 (tree_link), 0 when none
  uint64_t locate;   // slots taken or being written; equal to `set` when no batch is under way
  uint64_t set;      // slots holding an edge: bit i set (one 8-byte store) commits slot i
  uint64_t version;  // odd while a batch changes the node; a reader retries when it moved
  uint64_t size;     // slots in use: 16, 32 or 64 (a root grows in place), 64 below the root
  uint32_t owner;    // vertex
  uint8_t direction; // AdjacencyList
  uint8_t level;
  uint16_t reserved;
  uint32_t path;     // the low bits its neighbours share (the first tree_shift(level) bits)
  uint32_t check;    // CRC-32C of owner, direction, level, path
  uint64_t pad;
};
static_assert(sizeof(TreeNodeHeader) == 64);
inline constexpr uint32_t tree_fanout(uint32_t level) { return level < kTreeBinaryLevels ? 2 : 4; }
// Neighbour bits a node at `level` shares with its siblings' parent path: its children split on
// the next tree_fanout(level) / 2 bits above these.
inline constexpr uint32_t tree_shift(uint32_t level) {
  return level <= kTreeBinaryLevels ? level : kTreeBinaryLevels + 2 * (level - kTreeBinaryLevels);
}
inline constexpr uint32_t kTreeMaxLevel = 17;  // tree_shift reaches 31 bits: every id's path is distinct
// 64-byte units of a node: header, fingerprints, (entry checks,) entries.
inline constexpr uint64_t tree_node_units(bool weighted) { return weighted ? 3 + 8 : 2 + 4; }

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
  uint64_t log_sums = 0;          // one u64 per log line
  uint64_t tables[2] = {0, 0};    // per slot: out heads (u32 x V), then in heads (u32 x V)
  uint64_t blocks = 0;
  uint64_t file_bytes = 0;

  // xpgraph, naive: out heads then in heads, a u32 per vertex each; dgap: a section table that
  // holds a section per page; gear: the lists and the page table; ftgraph: the vertex array (in
  // table copy 0 only).
  uint64_t table_bytes() const {
    switch (geometry.mode) {
      case StoreMode::Dgap: return (section_pages(geometry) + 1) * sizeof(SectionEntry);
      case StoreMode::Gear: return gear_page_offset(geometry.vertices) + section_pages(geometry) * sizeof(GearPage);
      case StoreMode::Ftgraph: return 2 * geometry.vertices * sizeof(uint64_t);
      default: return geometry.vertices * 8;
    }
  }
  uint64_t page_offset(uint64_t page) const { return blocks + page * kSectionPageBytes; }
  uint64_t block_offset(uint64_t unit) const { return blocks + unit * kBlockUnitBytes; }
  uint64_t record_offset(uint64_t position) const {
    return log + (position % geometry.log_slots) * sizeof(LogRecord);
  }
  uint64_t weight_offset(uint64_t position) const {
    return log_weights + (position % geometry.log_slots) * sizeof(Weight);
  }
  uint64_t log_lines() const { return (geometry.log_slots + kLogLineRecords - 1) / kLogLineRecords; }
  uint64_t log_sum_offset(uint64_t line) const { return log_sums + line * sizeof(uint64_t); }
  // ftgraph: the batch being applied, beside the head (a log head word: every operation before
  // it may be in the trees); equal to the head when no batch is under way.
  uint64_t applying() const { return log_head + sizeof(uint64_t); }
  // ftgraph: block units [1, allocated) hold the nodes of every batch before the head (the same
  // encoding), persisted before the head.
  uint64_t allocated() const { return log_head + 2 * sizeof(uint64_t); }
  // ftgraph: how many vertices have an out-tree, and an in-tree (the same encoding, persisted
  // with the allocation mark): a reader of a store at rest counts the roots against them, so a
  // zeroed piece of the vertex array is an error, not a smaller graph.
  uint64_t tree_count(AdjacencyList d) const { return log_head + (d == AdjacencyList::Out ? 3 : 4) * sizeof(uint64_t); }
};

}  // namespace graphso::store
