#include "middleware/store/edge_log.h"

#include <atomic>

#include "engine/common/error.h"

namespace graphso::store {

uint64_t read_log_head(const PmemFile& file, const StoreLayout& layout) {
  return std::atomic_ref<uint64_t>(*file.at<uint64_t>(layout.log_head)).load(std::memory_order_acquire);
}

EdgeLog::EdgeLog(const PmemFile& file, const StoreLayout& layout, Persister& persister)
    : file_(file),
      layout_(layout),
      persister_(persister),
      records_(file.at<LogRecord>(layout.log)),
      head_word_(file.at<uint64_t>(layout.log_head)),
      slots_(layout.geometry.log_slots),
      head_(read_log_head(file, layout)) {}

void EdgeLog::append(std::span<const Edge> edges, bool deletes) {
  if (edges.empty()) return;
  if (edges.size() > slots_) fail("{}: a batch of {} edges is larger than the log ({} slots)", file_.path(), edges.size(), slots_);
  const uint32_t delete_bit = deletes ? kFlagBit : 0;
  uint64_t position = head_;
  // Persist the written slots as one or two ranges (the batch may wrap around the log's end).
  ByteRange ranges[2];
  size_t range_count = 0;
  for (const Edge& e : edges) {
    uint64_t slot = position % slots_;
    if (range_count == 0 || slot == 0) ranges[range_count++] = {layout_.log + slot * sizeof(LogRecord), 0};
    ranges[range_count - 1].length += sizeof(LogRecord);
    records_[slot] = LogRecord{e.src | delete_bit, e.dst | (phase_of(position, slots_) << 31)};
    ++position;
  }
  if (range_count == 2) std::swap(ranges[0], ranges[1]);  // sorted by offset
  persister_.persist(std::span<const ByteRange>(ranges, range_count));
  persister_.crash_point(CrashPoint::LogRecords);
  // An aligned 8-byte store is never torn: recovery sees the old head or the new one.
  std::atomic_ref<uint64_t>(*head_word_).store(position, std::memory_order_release);
  persister_.persist(layout_.log_head, sizeof(uint64_t));
  persister_.crash_point(CrashPoint::LogHead);
  head_ = position;
}

LoggedEdge read_log_record(const PmemFile& file, const StoreLayout& layout, uint64_t position) {
  const LogRecord& r = *file.at<LogRecord>(layout.record_offset(position));
  if ((r.dst >> 31) != phase_of(position, layout.geometry.log_slots))
    fail("{}: corrupt store: log record at position {} was not written in its lap", file.path(), position);
  LoggedEdge e{r.src & ~kFlagBit, r.dst & ~kFlagBit, (r.src & kFlagBit) != 0};
  if (e.src >= layout.geometry.vertices || e.dst >= layout.geometry.vertices)
    fail("{}: corrupt store: log record at position {} names a vertex past the store's {}", file.path(), position,
         layout.geometry.vertices);
  return e;
}

}  // namespace graphso::store
