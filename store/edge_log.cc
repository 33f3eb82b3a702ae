#include "store/edge_log.h"

#include <algorithm>
#include <atomic>
#include <type_traits>

#include "base/checksum.h"
#include "base/error.h"
#include "base/file.h"
#include "store/store_mode.h"

namespace graphso::store {

namespace {

// The checksum word of the line starting at absolute position `line_start`, over its first
// `count` records and, in a weighted store (weights not null), their weights.
uint64_t line_sum(const LogRecord* line, const Weight* weights, uint64_t line_start, uint64_t count) {
  uint32_t crc = crc32c_of(as_bytes_of(line_start));
  crc = crc32c_of(std::as_bytes(std::span<const LogRecord>(line, count)), crc);
  if (weights) crc = crc32c_of(std::as_bytes(std::span<const Weight>(weights, count)), crc);
  return crc | (count << 32);
}

// Whether `word` covers the line starting at absolute position `line_start` (slot `first_slot`)
// through at least its first `needed` records: a count that says so, and its CRC over them.
bool covers(const LogRecord* records, const Weight* weights, uint64_t first_slot, uint64_t line_start, uint64_t needed,
            uint64_t word) {
  const uint64_t count = word >> 32;
  return count >= needed && count <= kLogLineRecords &&
         word == line_sum(records + first_slot, weights ? weights + first_slot : nullptr, line_start, count);
}

// Checksum word `word` of line `line`.
uint64_t load_word(const uint64_t* sums, const StoreLayout& layout, uint64_t line, uint64_t word) {
  return std::atomic_ref<const uint64_t>(sums[layout.log_sum_index(line, word)]).load(std::memory_order_acquire);
}

}  // namespace

void fail_corrupt_log_record(const PmemFile& file, uint64_t position) {
  fail("{}: corrupt store: log record at position {} was not written in its lap or names no vertex", file.path(),
       position);
}

void write_initial_log_head(const PmemFile& file, const StoreLayout& layout, Persister& persister) {
  *file.at<uint64_t>(layout.log_head) = encode_log_head(0);
  const StoreModeEntry& mode = store_mode(layout.geometry.mode);
  const uint32_t more = mode.initial_head_words ? mode.initial_head_words(file, layout) : 0;
  persister.persist(layout.log_head, (1 + more) * sizeof(uint64_t));
}

uint64_t read_log_head(const PmemFile& file, const StoreLayout& layout) {
  const uint64_t word = std::atomic_ref<uint64_t>(*file.at<uint64_t>(layout.log_head)).load(std::memory_order_acquire);
  const std::optional<uint64_t> head = decode_log_head(word);
  if (!head) fail("{}: corrupt store: the log head word {:#018x} does not match its check bits", file.path(), word);
  return *head;
}

EdgeLog::EdgeLog(const PmemFile& file, const StoreLayout& layout, Persister& persister)
    : file_(file),
      layout_(layout),
      persister_(persister),
      records_(file.at<LogRecord>(layout.log)),
      weights_(layout.geometry.weighted ? file.at<Weight>(layout.log_weights) : nullptr),
      sums_(file.at<uint64_t>(layout.log_sums)),
      head_word_(file.at<uint64_t>(layout.log_head)),
      slots_(layout.geometry.log_slots),
      head_(read_log_head(file, layout)) {
  // Which word covers the records of the line the head leaves part full: the next batch writes
  // the other. The one whose count is the head's, else (a torn batch whose records did reach the
  // media) any that covers them; none: nothing durable in it to keep.
  const uint64_t in_line = head_ % slots_ % kLogLineRecords;
  if (in_line == 0) return;
  const uint64_t first_slot = head_ % slots_ - in_line, line = first_slot / kLogLineRecords;
  for (uint64_t w = 0; w < kLogSumWords; ++w) {
    const uint64_t word = load_word(sums_, layout_, line, w);
    if (!covers(records_, weights_, first_slot, head_ - in_line, in_line, word)) continue;
    if (kept_word_ < 0 || word >> 32 == in_line) kept_word_ = static_cast<int>(w);
  }
}

void verify_log_lines(const PmemFile& file, const StoreLayout& layout, uint64_t from, uint64_t to) {
  const uint64_t slots = layout.geometry.log_slots;
  const auto* records = file.at<LogRecord>(layout.log);
  const auto* weights = layout.geometry.weighted ? file.at<Weight>(layout.log_weights) : nullptr;
  const auto* sums = file.at<uint64_t>(layout.log_sums);
  for (uint64_t p = from; p < to;) {
    const uint64_t slot = p % slots;
    const uint64_t first_slot = slot - slot % kLogLineRecords;
    const uint64_t line_start = p - slot % kLogLineRecords;
    const uint64_t line_end = std::min(line_start + (std::min(first_slot + kLogLineRecords, slots) - first_slot), to);
    // Either of the line's words: the one a torn batch left behind covers what the head does.
    const uint64_t line = first_slot / kLogLineRecords;
    bool covered = false;
    for (uint64_t w = 0; w < kLogSumWords && !covered; ++w)
      covered =
          covers(records, weights, first_slot, line_start, line_end - line_start, load_word(sums, layout, line, w));
    if (!covered)
      fail("{}: corrupt store: log records at positions {}..{} do not match their checksum", file.path(), line_start,
           line_end - 1);
    p = line_end;
  }
}

void EdgeLog::advance_to(uint64_t position) {
  if (position > kMaxLogPosition) fail("{}: the store's positions are used up ({} operations)", file_.path(), head_);
  std::atomic_ref<uint64_t>(*head_word_).store(encode_log_head(position), std::memory_order_release);
  persister_.persist(layout_.log_head, sizeof(uint64_t));
  head_ = position;
  kept_word_ = -1;  // no record of this log lies in the head's line
}

template <typename EdgeRecord>
void EdgeLog::append(std::span<const EdgeRecord> edges, bool deletes) {
  if (edges.empty()) return;
  if (edges.size() > slots_) fail("{}: a batch of {} edges is larger than the log ({} slots)", file_.path(), edges.size(), slots_);
  if (edges.size() > kMaxLogPosition - head_)
    fail("{}: the log's positions are used up ({} edges logged in all)", file_.path(), head_);
  const uint32_t delete_bit = deletes ? kFlagBit : 0;
  uint64_t position = head_;
  // Persist the written slots as one or two ranges (the batch may wrap around the log's end), and
  // as many of weights.
  ByteRange ranges[2], weight_ranges[2];
  size_t range_count = 0;
  for (const EdgeRecord& e : edges) {
    uint64_t slot = position % slots_;
    if (range_count == 0 || slot == 0) {
      weight_ranges[range_count] = {layout_.log_weights + slot * sizeof(Weight), 0};
      ranges[range_count++] = {layout_.log + slot * sizeof(LogRecord), 0};
    }
    ranges[range_count - 1].length += sizeof(LogRecord);
    weight_ranges[range_count - 1].length += sizeof(Weight);
    records_[slot] = LogRecord{e.src | delete_bit, e.dst | (phase_of(position, slots_) << 31)};
    if (weights_) {
      if constexpr (std::is_same_v<EdgeRecord, WeightedEdge>) weights_[slot] = e.weight;
      else weights_[slot] = 1;
    }
    ++position;
  }
  if (range_count == 2) {  // sorted by offset
    std::swap(ranges[0], ranges[1]);
    std::swap(weight_ranges[0], weight_ranges[1]);
  }
  // The checksum words of the lines the batch touched, after the records they cover: the line the
  // head left part full in the word that does not cover its durable records (a torn persist may
  // put this word on the media without the records), every later line, new in this lap, in its
  // first. Ranges: the first words (two where the batch wraps), then a second word.
  ByteRange sum_ranges[3];
  size_t sum_count = 0;
  int word = 0;
  for (uint64_t p = head_; p < position;) {
    const uint64_t slot = p % slots_;
    const uint64_t first_slot = slot - slot % kLogLineRecords;
    const uint64_t line_start = p - slot % kLogLineRecords;
    const uint64_t line_stop = std::min({line_start + kLogLineRecords, line_start + (slots_ - first_slot), position});
    const uint64_t line = first_slot / kLogLineRecords;
    word = p == line_start || kept_word_ < 0 ? 0 : 1 - kept_word_;
    const uint64_t offset = layout_.log_sum_offset(line, static_cast<uint64_t>(word));
    std::atomic_ref<uint64_t>(sums_[layout_.log_sum_index(line, static_cast<uint64_t>(word))])
        .store(line_sum(records_ + first_slot, weights_ ? weights_ + first_slot : nullptr, line_start,
                        line_stop - line_start),
               std::memory_order_release);
    if (sum_count == 0 || sum_ranges[sum_count - 1].offset + sum_ranges[sum_count - 1].length != offset)
      sum_ranges[sum_count++] = {offset, 0};
    sum_ranges[sum_count - 1].length += sizeof(uint64_t);
    p = line_stop;
  }
  for (size_t i = 1; i < sum_count; ++i)  // sorted by offset (at most three)
    for (size_t j = i; j > 0 && sum_ranges[j].offset < sum_ranges[j - 1].offset; --j)
      std::swap(sum_ranges[j], sum_ranges[j - 1]);
  // Regions in file order: records, weights, checksum words.
  ByteRange all[7];
  size_t count = 0;
  for (size_t k = 0; k < range_count; ++k) all[count++] = ranges[k];
  if (weights_)
    for (size_t k = 0; k < range_count; ++k) all[count++] = weight_ranges[k];
  for (size_t k = 0; k < sum_count; ++k) all[count++] = sum_ranges[k];
  persister_.torn_cut(CrashPoint::LogRecordsTorn, std::span<const ByteRange>(sum_ranges, sum_count));
  persister_.persist(std::span<const ByteRange>(all, count));
  persister_.crash_point(CrashPoint::LogRecords);
  // An aligned 8-byte store is never torn: recovery sees the old head or the new one.
  std::atomic_ref<uint64_t>(*head_word_).store(encode_log_head(position), std::memory_order_release);
  persister_.persist(layout_.log_head, sizeof(uint64_t));
  persister_.crash_point(CrashPoint::LogHead);
  head_ = position;
  kept_word_ = word;
}

template void EdgeLog::append<Edge>(std::span<const Edge>, bool);
template void EdgeLog::append<WeightedEdge>(std::span<const WeightedEdge>, bool);

LoggedEdge read_log_record(const PmemFile& file, const StoreLayout& layout, uint64_t position) {
  const LogRecord& r = *file.at<LogRecord>(layout.record_offset(position));
  if ((r.dst >> 31) != phase_of(position, layout.geometry.log_slots))
    fail("{}: corrupt store: log record at position {} was not written in its lap", file.path(), position);
  LoggedEdge e{r.src & ~kFlagBit, r.dst & ~kFlagBit, (r.src & kFlagBit) != 0,
               layout.geometry.weighted ? *file.at<Weight>(layout.weight_offset(position)) : Weight{1}};
  if (e.src >= layout.geometry.vertices || e.dst >= layout.geometry.vertices)
    fail("{}: corrupt store: log record at position {} names a vertex past the store's {}", file.path(), position,
         layout.geometry.vertices);
  return e;
}

}  // namespace graphso::store
