#include "store/store_meta.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "base/checksum.h"
#include "base/error.h"
#include "store/store_mode.h"

namespace graphso::store {
namespace {

// CRC of a record's bytes before its trailing crc field.
template <typename Record>
uint32_t record_crc(const Record& r) {
  return crc_before(r, offsetof(Record, crc));
}

constexpr uint64_t kCheckpointSlotBytes = 512;

CheckpointSlot* checkpoint_slot(const PmemFile& file, const StoreLayout& layout, uint32_t slot) {
  return file.at<CheckpointSlot>(layout.checkpoint_slots + slot * kCheckpointSlotBytes);
}

InputRecord* input_slot(const PmemFile& file, const StoreLayout& layout, uint32_t slot) {
  return file.at<InputRecord>(layout.input_slots + slot * sizeof(InputRecord));
}

}  // namespace

void write_superblock(const PmemFile& file, Persister& persister, const StoreHeader& header) {
  Superblock s{};
  s.tag = kStoreFormat.tag();
  s.mode = static_cast<uint32_t>(header.mode);
  s.vertices = header.geometry.vertices;
  s.log_slots = header.geometry.log_slots;
  s.block_units = header.geometry.block_units;
  s.store_id = header.store_id;
  s.flags = (header.geometry.weighted ? kStoreWeighted : 0) | (header.geometry.real_weights ? kStoreRealWeights : 0);
  s.crc = record_crc(s);
  std::memcpy(file.at<Superblock>(0), &s, sizeof s);
  persister.persist(0, sizeof s);
}

StoreHeader read_superblock(const PmemFile& file) {
  if (file.size() < sizeof(Superblock)) fail("{}: not a graphso store (too small)", file.path());
  Superblock s;
  std::memcpy(&s, file.at<Superblock>(0), sizeof s);
  check_tag(kStoreFormat, s.tag, file.path());
  check_crc(file.path(), s.crc, record_crc(s), "store superblock");
  if (!find_store_mode(s.mode)) fail("{}: corrupt store: unknown mode {}", file.path(), s.mode);
  StoreHeader h;
  if ((s.flags & ~(kStoreWeighted | kStoreRealWeights)) || s.flags == kStoreRealWeights)
    fail("{}: corrupt store: unknown flags {:#x}", file.path(), s.flags);
  h.geometry = StoreGeometry{s.vertices, s.log_slots, s.block_units, (s.flags & kStoreWeighted) != 0};
  h.geometry.real_weights = (s.flags & kStoreRealWeights) != 0;
  h.mode = static_cast<StoreMode>(s.mode);
  h.geometry.mode = h.mode;
  h.store_id = s.store_id;
  if (h.geometry.vertices == 0 || h.geometry.vertices > kMaxStoreVertices || h.geometry.log_slots < kMinLogSlots ||
      h.geometry.block_units < 8 || h.geometry.block_units > (uint64_t{1} << 32) ||
      (store_mode(h.mode).paged && (h.geometry.block_units % kUnitsPerPage != 0 || region_pages(h.geometry) < 2)))
    fail("{}: corrupt store: impossible geometry", file.path());
  StoreLayout layout(h.geometry);
  if (file.size() != layout.file_bytes)
    fail("{}: truncated or damaged store: {} bytes, its geometry needs {}", file.path(), file.size(), layout.file_bytes);
  return h;
}

namespace {

template <typename Record>
bool all_zero(const Record& r) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(&r);
  return std::all_of(bytes, bytes + sizeof r, [](unsigned char b) { return b == 0; });
}

}  // namespace

Checkpoint read_checkpoint(const PmemFile& file, const StoreLayout& layout) {
  Checkpoint best;
  int damaged = -1;
  for (uint32_t slot = 0; slot < 2; ++slot) {
    CheckpointSlot c;
    std::memcpy(&c, checkpoint_slot(file, layout, slot), sizeof c);
    if (c.crc != record_crc(c) || c.seq == 0) {
      if (!all_zero(c)) damaged = static_cast<int>(slot);
      continue;
    }
    if (c.seq <= best.seq) continue;
    best = Checkpoint{slot, c.seq, c.flushed, c.high_water, c.clean != 0, c.table_crc};
  }
  best.damaged_slot = damaged;
  return best;
}

std::string damage_note(const Checkpoint& c) {
  return c.damaged_slot < 0 ? std::string() : fmt::format("checkpoint slot {} is damaged; ", c.damaged_slot);
}

void check_positions(const PmemFile& file, const StoreHeader& header, const Checkpoint& c, uint64_t head) {
  const StoreModeEntry& mode = store_mode(header.mode);
  const bool pages = mode.paged;
  const uint64_t limit = pages ? region_pages(header.geometry) : header.geometry.block_units;
  if (c.high_water < 1 || c.high_water > limit)
    fail("{}: corrupt store: {}checkpoint {}'s high-water mark {} is outside the {} {}", file.path(), damage_note(c),
         c.seq, c.high_water, limit, pages ? "pages" : "block units");
  // A mode without a log counts operations applied in its head, without a bound.
  if (mode.logs && (c.flushed > head || head - c.flushed > header.geometry.log_slots))
    fail("{}: corrupt store: {}the log head {} and checkpoint {}'s position {} are more than the log apart",
         file.path(), damage_note(c), head, c.seq, c.flushed);
}

void check_closed_cleanly(const PmemFile& file, const StoreHeader& header, const Checkpoint& c, uint64_t head,
                          const char* advice) {
  if (!store_mode(header.mode).clean_close_only || head == 0 || c.clean) return;
  // Every open writes its not-clean mark before anything is logged: a logged edge without one
  // means both slots were lost.
  if (c.seq == 0)
    fail("{}: corrupt store: both checkpoint slots are empty, yet the {} store's log holds {} edges", file.path(),
         store_mode_name(header.mode), head);
  fail("{}: {}the {} store {}", file.path(), damage_note(c), store_mode_name(header.mode), advice);
}

uint32_t table_copy_crc(const PmemFile& file, const StoreLayout& layout, uint32_t slot) {
  return crc32c_of(std::span<const std::byte>(file.at<const std::byte>(layout.tables[slot]), layout.table_bytes()));
}

std::span<const uint32_t> checked_table_copy(const PmemFile& file, const StoreLayout& layout, const Checkpoint& c) {
  if (c.seq == 0) return {};
  if (table_copy_crc(file, layout, c.slot) != c.table_crc)
    fail("{}: corrupt store: {}the vertex table copy {} of checkpoint {} does not match its checksum", file.path(),
         damage_note(c), c.slot, c.seq);
  return {file.at<const uint32_t>(layout.tables[c.slot]), 2 * layout.geometry.vertices};
}

void write_checkpoint(const PmemFile& file, const StoreLayout& layout, Persister& persister, const Checkpoint& c) {
  CheckpointSlot s{};
  s.seq = c.seq;
  s.flushed = c.flushed;
  s.high_water = c.high_water;
  s.clean = c.clean ? 1 : 0;
  s.table_crc = c.table_crc;
  s.crc = record_crc(s);
  std::memcpy(checkpoint_slot(file, layout, c.slot), &s, sizeof s);
  persister.persist(layout.checkpoint_slots + c.slot * kCheckpointSlotBytes, sizeof s);
}

InputRecords read_inputs(const PmemFile& file, const StoreLayout& layout) {
  InputRecords records;
  InputRecord r[2];
  bool valid[2];
  for (uint32_t slot = 0; slot < 2; ++slot) {
    std::memcpy(&r[slot], input_slot(file, layout, slot), sizeof r[slot]);
    valid[slot] = r[slot].seq != 0 && r[slot].crc == record_crc(r[slot]);
    records.damaged[slot] = !valid[slot] && !all_zero(r[slot]);
    if (!valid[slot] || (records.current && r[slot].seq <= records.current->seq)) continue;
    InputProgress p;
    p.slot = slot;
    p.seq = r[slot].seq;
    p.start = r[slot].start;
    p.size = r[slot].size;
    p.edges = r[slot].edges;
    p.head_crc = r[slot].head_crc;
    p.deletes = r[slot].deletes != 0;
    p.path.assign(r[slot].path, strnlen(r[slot].path, sizeof r[slot].path));
    records.current = p;
  }
  records.both_current = valid[0] && valid[1] && std::memcmp(&r[0], &r[1], sizeof r[0]) == 0;
  return records;
}

namespace {

void write_input_slot(const PmemFile& file, const StoreLayout& layout, Persister& persister, uint32_t slot,
                      const InputRecord& r) {
  std::memcpy(input_slot(file, layout, slot), &r, sizeof r);
  persister.persist(layout.input_slots + slot * sizeof(InputRecord), sizeof r);
}

}  // namespace

void write_input(const PmemFile& file, const StoreLayout& layout, Persister& persister, const InputProgress& input) {
  const std::optional<InputProgress> current = read_inputs(file, layout).current;
  const uint32_t slot = current ? 1 - current->slot : 0;
  InputRecord r{};
  r.seq = current ? current->seq + 1 : 1;
  r.start = input.start;
  r.size = input.size;
  r.edges = input.edges;
  r.head_crc = input.head_crc;
  r.deletes = input.deletes ? 1 : 0;
  if (input.path.size() >= sizeof r.path) fail("input path is too long to record ({} bytes)", input.path.size());
  std::memcpy(r.path, input.path.data(), input.path.size());
  r.crc = record_crc(r);
  write_input_slot(file, layout, persister, slot, r);
  persister.crash_point(CrashPoint::InputRecord);
  write_input_slot(file, layout, persister, 1 - slot, r);
}

int repair_inputs(const PmemFile& file, const StoreLayout& layout, Persister& persister) {
  const InputRecords records = read_inputs(file, layout);
  if (!records.current || records.both_current) return -1;
  const uint32_t from = records.current->slot;
  InputRecord r;
  std::memcpy(&r, input_slot(file, layout, from), sizeof r);
  write_input_slot(file, layout, persister, 1 - from, r);
  return static_cast<int>(1 - from);
}

}  // namespace graphso::store
