#include "store/store_meta.h"

#include <cstddef>
#include <cstring>

#include "base/error.h"

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
  s.flags = header.geometry.weighted ? kStoreWeighted : 0;
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
  if (s.mode > static_cast<uint32_t>(StoreMode::Naive)) fail("{}: corrupt store: unknown mode {}", file.path(), s.mode);
  StoreHeader h;
  if (s.flags & ~kStoreWeighted) fail("{}: corrupt store: unknown flags {:#x}", file.path(), s.flags);
  h.geometry = StoreGeometry{s.vertices, s.log_slots, s.block_units, (s.flags & kStoreWeighted) != 0};
  h.mode = static_cast<StoreMode>(s.mode);
  h.store_id = s.store_id;
  if (h.geometry.vertices == 0 || h.geometry.vertices > kMaxStoreVertices || h.geometry.log_slots < kMinLogSlots ||
      h.geometry.block_units < 8 || h.geometry.block_units > (uint64_t{1} << 32))
    fail("{}: corrupt store: impossible geometry", file.path());
  StoreLayout layout(h.geometry);
  if (file.size() != layout.file_bytes)
    fail("{}: truncated or damaged store: {} bytes, its geometry needs {}", file.path(), file.size(), layout.file_bytes);
  return h;
}

Checkpoint read_checkpoint(const PmemFile& file, const StoreLayout& layout) {
  Checkpoint best;
  for (uint32_t slot = 0; slot < 2; ++slot) {
    CheckpointSlot c;
    std::memcpy(&c, checkpoint_slot(file, layout, slot), sizeof c);
    if (c.seq == 0 || c.crc != record_crc(c) || c.seq <= best.seq) continue;  // never written, torn, or older
    best = Checkpoint{slot, c.seq, c.flushed, c.high_water, c.clean != 0};
  }
  return best;
}

void write_checkpoint(const PmemFile& file, const StoreLayout& layout, Persister& persister, const Checkpoint& c) {
  CheckpointSlot s{};
  s.seq = c.seq;
  s.flushed = c.flushed;
  s.high_water = c.high_water;
  s.clean = c.clean ? 1 : 0;
  s.crc = record_crc(s);
  std::memcpy(checkpoint_slot(file, layout, c.slot), &s, sizeof s);
  persister.persist(layout.checkpoint_slots + c.slot * kCheckpointSlotBytes, sizeof s);
}

std::optional<InputProgress> read_input(const PmemFile& file, const StoreLayout& layout) {
  std::optional<InputProgress> best;
  for (uint32_t slot = 0; slot < 2; ++slot) {
    InputRecord r;
    std::memcpy(&r, input_slot(file, layout, slot), sizeof r);
    if (r.seq == 0 || r.crc != record_crc(r) || (best && r.seq <= best->seq)) continue;
    InputProgress p;
    p.slot = slot;
    p.seq = r.seq;
    p.start = r.start;
    p.size = r.size;
    p.edges = r.edges;
    p.head_crc = r.head_crc;
    p.deletes = r.deletes != 0;
    p.path.assign(r.path, strnlen(r.path, sizeof r.path));
    best = p;
  }
  return best;
}

void write_input(const PmemFile& file, const StoreLayout& layout, Persister& persister, const InputProgress& input) {
  std::optional<InputProgress> current = read_input(file, layout);
  uint32_t slot = current ? 1 - current->slot : 0;
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
  std::memcpy(input_slot(file, layout, slot), &r, sizeof r);
  persister.persist(layout.input_slots + slot * sizeof(InputRecord), sizeof r);
  persister.crash_point(CrashPoint::InputRecord);
}

}  // namespace graphso::store
