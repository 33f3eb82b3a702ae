// dgap mode's edge array (docs/store.md, "dgap"): every live edge, sorted by (source,
// destination), cut into sections. A section holds the edges from its key up to the next
// section's key in one 4 KiB packed page (base/packed_pages.h) of the block region; among equal
// edges the oldest comes first, so a deletion removes the earliest occurrence as in every mode.
// Pages are never rewritten while a checkpoint can reach them: a section that changes is written
// to a free page and the section table (a table copy, committed by a checkpoint) names the new one.
//
// What the writer (dgap_store.cc) and every reader (the store view) share: the table copy, a
// section's page read and checked, the log's operations applied to a section, a section encoded.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/types.h"
#include "store/persister.h"
#include "store/pmem_file.h"
#include "store/dgap/section_format.h"
#include "store/store_meta.h"

namespace graphso::store {

inline constexpr uint64_t edge_key(VertexId src, VertexId dst) { return uint64_t{src} << 32 | dst; }
inline constexpr uint64_t kNoNextKey = ~uint64_t{0};

// A merge that has to split a section cuts it into as many pages as filling them to this takes,
// with equal shares of its edges, so the next merges of a few edges fit (the reserved space of a
// packed memory array's segment). 15/16 rather than less: a store read in place reads the gaps
// too, and a section split by small merges is about half full whatever this is (docs/store.md).
inline constexpr uint64_t kSectionFillBytes = kStorePageBytes * 15 / 16;

// One logged edge or deletion, as a section takes it (log order).
struct SectionOp {
  VertexId src = 0;
  VertexId dst = 0;
  Weight weight = 1;
  bool deleted = false;
  uint64_t key() const { return edge_key(src, dst); }
};

// The section table of checkpoint c, checked: its checksum, its count against the table's
// capacity, keys in order from 0, pages below the checkpoint's high-water mark and none named
// twice. No checkpoint yet (seq 0): one empty section. Errors name the store's damaged words.
// `header`, if given, receives the table's header (its merge counts).
std::vector<SectionEntry> read_section_table(const PmemFile& file, const StoreLayout& layout, const Checkpoint& c,
                                             SectionTableHeader* header = nullptr);
// Writes `sections` as table copy `slot` (with the merge counts of `header`) and persists it;
// returns the CRC-32C its checkpoint records.
uint32_t write_section_table(const PmemFile& file, const StoreLayout& layout, Persister& persister, uint32_t slot,
                             std::span<const SectionEntry> sections, SectionTableHeader header);

// Appends section `index`'s edges to `out` in key order: its page checked against its checksum,
// decoded, and every edge inside [entry.key, next_key) and the store's vertices.
void read_section(const PmemFile& file, const StoreLayout& layout, uint64_t index, const SectionEntry& entry,
                  uint64_t next_key, std::vector<WeightedEdge>& out);

// Applies `ops` (log order) to a section's edges (key order, oldest first among equal edges): an
// edge is added after its equals, a deletion removes the earliest live occurrence whatever its
// weight, and deleting an absent edge does nothing. An unweighted store's edges have weight 1.
void apply_ops(std::vector<WeightedEdge>& edges, std::span<const SectionOp> ops);

// A section's edges encoded: one page when they fit in one, else as many pages as filling them to
// kSectionFillBytes takes, each with an equal share of the edges, cut where the edge changes
// (equal edges stay in one section unless they alone take more than a page). The first part keeps
// the section's key; each later part's key is its first edge's.
struct EncodedSection {
  uint64_t key = 0;
  uint32_t edges = 0;
  std::vector<std::byte> page;  // kStorePageBytes; empty for a section without edges
};
std::vector<EncodedSection> encode_section(std::span<const WeightedEdge> edges, bool weighted, uint64_t key);

}  // namespace graphso::store
