#include "store/store_format.h"

#include <cstring>

#include "base/checksum.h"
#include "base/error.h"
#include "base/file.h"
#include "store/store_mode.h"

namespace graphso::store {

namespace {
uint64_t head_check(uint64_t position) {
  const uint32_t crc = crc32c_of(as_bytes_of(position));
  return ((crc ^ (crc >> 16)) & 0xFFFFu);
}
}  // namespace

uint64_t encode_log_head(uint64_t position) { return position | head_check(position) << 48; }

std::optional<uint64_t> decode_log_head(uint64_t word) {
  const uint64_t position = word & kMaxLogPosition;
  if (word >> 48 != head_check(position)) return std::nullopt;
  return position;
}

StoreLayout::StoreLayout(const StoreGeometry& g) : geometry(g) {
  uint64_t at = 0;
  auto region = [&](uint64_t bytes) {
    uint64_t start = at;
    at = align_up(at + bytes, kRegionAlignment);
    return start;
  };
  superblock = region(sizeof(Superblock));
  input_slots = region(2 * sizeof(InputRecord));
  checkpoint_slots = region(2 * 512);
  log_head = region(sizeof(uint64_t));
  log = region(g.log_slots * sizeof(LogRecord));
  log_weights = region(g.weighted ? g.log_slots * sizeof(Weight) : 0);
  log_sums = region(log_lines() * kLogSumWords * sizeof(uint64_t));
  const StoreModeEntry& mode = store_mode(g.mode);
  table_size = mode.table_bytes(g);
  tables[0] = region(table_size);
  tables[1] = region(mode.table_copies == 2 ? table_size : 0);
  blocks = region(g.block_units * kBlockUnitBytes);
  file_bytes = at;
}

}  // namespace graphso::store
