// The one audited way anything reaches persistence in the store (docs/store.md, "What is
// persisted, in which order"). It flushes (pmem_persist on PMEM, pmem_msync on a file), counts
// what it persisted, and in the power-cut test mode also copies every persisted range into a
// shadow image and stops the process at a named crash point.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/file.h"
#include "store/pmem_file.h"

namespace graphso::store {

// Places in the protocol every mode shares where a power cut is simulated; a mode names its own
// (StoreModeEntry::crash_points) and passes them by name.
enum class CrashPoint {
  InputRecord,       // after a new input record is persisted
  LogRecords,        // after a batch's records, before the head
  LogRecordsTorn,    // in a batch's persist: its lines' checksum words reached the media, its records not
  LogHead,           // after the head, before the batch is acknowledged
  CheckpointBlocks,  // after the flushed blocks, before the table copy
  CheckpointTable,   // after the table copy, before the slot
  CheckpointSlot,    // after the slot (the commit point)
  GrowthCopy,        // growth: the larger store built and persisted beside the old one, not yet renamed
  GrowthRename,      // growth: renamed over the old one, nothing written to it yet
};
const char* crash_point_name(CrashPoint point);
// Every shared name, then `more` (the modes' own), for --help and error messages.
std::string crash_point_names(std::span<const char* const> more = {});

struct PowerCutConfig {
  std::string shadow_path;  // empty: off. Created when missing: zeros for a new store, else a copy.
  std::string crash_point;  // a crash_point_name; empty: never stop
  uint64_t crash_after = 1;  // stop at that point's n-th pass
};
// A known crash point (shared, or among `more`) with a shadow image, or none: checked before a
// store is touched.
void check_power_cut(const PowerCutConfig& config, std::span<const char* const> more = {});

inline constexpr int kCrashExitCode = 86;

// Stops the process as a power cut would when `point` is the configured one and this is at least
// its configured pass (growth's points, which lie between two files rather than in one).
void simulate_power_cut(const PowerCutConfig& config, std::string_view point, uint64_t pass);
inline void simulate_power_cut(const PowerCutConfig& config, CrashPoint point, uint64_t pass) {
  simulate_power_cut(config, crash_point_name(point), pass);
}
// After a growth renamed a new store file into place: the shadow image becomes a copy of it (what
// a power cut leaves from then on).
void replace_shadow(const PowerCutConfig& config, const std::string& store_path);

struct PersistStats {
  uint64_t calls = 0;
  uint64_t bytes = 0;        // exactly the bytes asked for
  uint64_t line_bytes = 0;   // rounded out to 256-byte XPLines: what PMEM media would write

  PersistStats& operator+=(const PersistStats& other) {
    calls += other.calls;
    bytes += other.bytes;
    line_bytes += other.line_bytes;
    return *this;
  }
};

struct ByteRange {
  uint64_t offset;
  uint64_t length;
};

// Appends [offset, offset + length) to ranges kept in order, joined with the last when adjacent.
inline void add_range(std::vector<ByteRange>& ranges, uint64_t offset, uint64_t length) {
  if (!ranges.empty() && ranges.back().offset + ranges.back().length == offset)
    ranges.back().length += length;
  else
    ranges.push_back({offset, length});
}

// Not thread-safe but for crash_point: the store persists from one thread at a time.
class Persister {
 public:
  // new_store: the file was just created (all zeros).
  Persister(const PmemFile& file, const PowerCutConfig& power_cut, bool new_store);

  void persist(uint64_t offset, uint64_t length);
  // Ranges sorted by offset, not overlapping: on a file, one pmem_msync over their span (it writes
  // only dirty pages) instead of one per range.
  void persist(std::span<const ByteRange> ranges);
  void crash_point(CrashPoint point) { crash_point(crash_point_name(point)); }
  void crash_point(std::string_view point);  // a mode's own (StoreModeEntry::crash_points)
  // A power cut that tears the persist about to be made at `point`: of its ranges only `reached`
  // get to the media (a persist writes its lines or pages in no set order).
  void torn_cut(CrashPoint point, std::span<const ByteRange> reached) { torn_cut(crash_point_name(point), reached); }
  void torn_cut(std::string_view point, std::span<const ByteRange> reached);  // a mode's own
  // Whether a power cut is set at `point`: what a torn cut reaches need not be worked out otherwise.
  bool cuts_at(std::string_view point) const { return power_cut_.crash_point == point; }

  const PersistStats& stats() const { return stats_; }

 private:
  void account(uint64_t offset, uint64_t length);
  const PmemFile& file_;
  PowerCutConfig power_cut_;
  File shadow_;
  std::atomic<uint64_t> crash_hits_ = 0;  // crash_point alone may be called from ingest threads
  PersistStats stats_;
};

}  // namespace graphso::store
