#include "store/persister.h"

#include <libpmem.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "base/error.h"
#include "store/store_format.h"

namespace graphso::store {
namespace {

constexpr CrashPoint kAllPoints[] = {CrashPoint::InputRecord,      CrashPoint::LogRecords,
                                     CrashPoint::LogRecordsTorn,   CrashPoint::LogHead,
                                     CrashPoint::CheckpointBlocks,
                                     CrashPoint::CheckpointTable,  CrashPoint::CheckpointSlot,
                                     CrashPoint::GrowthCopy,       CrashPoint::GrowthRename};

}  // namespace

const char* crash_point_name(CrashPoint point) {
  switch (point) {
    case CrashPoint::InputRecord: return "input-record";
    case CrashPoint::LogRecords: return "log-records";
    case CrashPoint::LogRecordsTorn: return "log-records-torn";
    case CrashPoint::LogHead: return "log-head";
    case CrashPoint::CheckpointBlocks: return "checkpoint-blocks";
    case CrashPoint::CheckpointTable: return "checkpoint-table";
    case CrashPoint::CheckpointSlot: return "checkpoint-slot";
    case CrashPoint::GrowthCopy: return "growth-copy";
    case CrashPoint::GrowthRename: return "growth-rename";
  }
  return "?";
}

void check_power_cut(const PowerCutConfig& config, std::span<const char* const> more) {
  if (config.crash_point.empty()) return;
  bool known = false;
  for (CrashPoint p : kAllPoints) known = known || config.crash_point == crash_point_name(p);
  for (const char* p : more) known = known || config.crash_point == p;
  if (!known) fail("unknown crash point '{}' (expected one of {})", config.crash_point, crash_point_names(more));
  if (config.shadow_path.empty()) fail("a crash point needs a shadow image (--shadow)");
}

std::string crash_point_names(std::span<const char* const> more) {
  std::string names;
  for (CrashPoint p : kAllPoints) names += std::string(names.empty() ? "" : ", ") + crash_point_name(p);
  for (const char* p : more) names += std::string(", ") + p;
  return names;
}

Persister::Persister(const PmemFile& file, const PowerCutConfig& power_cut, bool new_store)
    : file_(file), power_cut_(power_cut) {
  // The point's name is checked by the store (check_store_options), which knows the modes' own.
  if (!power_cut_.crash_point.empty() && power_cut_.shadow_path.empty())
    fail("a crash point needs a shadow image (--shadow)");
  if (power_cut_.shadow_path.empty()) return;
  // What the store holds when it is opened counts as persisted: the shadow starts as its copy
  // (a new store is all zeros, and so is a new sparse file).
  if (!path_exists(power_cut_.shadow_path)) {
    if (new_store) {
      File(power_cut_.shadow_path, File::Mode::Write).truncate(file.size());
    } else {
      std::error_code error;
      std::filesystem::copy_file(file.path(), power_cut_.shadow_path, error);
      if (error) fail("{}: cannot create the shadow image: {}", power_cut_.shadow_path, error.message());
    }
  }
  shadow_ = File(power_cut_.shadow_path, File::Mode::ReadWrite);
  if (shadow_.size() != file.size())
    fail("{}: shadow image is {} bytes, the store {}", power_cut_.shadow_path, shadow_.size(), file.size());
}

void Persister::account(uint64_t offset, uint64_t length) {
  if (offset > file_.size() || length > file_.size() - offset)
    fail("{}: persist of {} bytes at {} is outside the store", file_.path(), length, offset);
  stats_.bytes += length;
  stats_.line_bytes += align_up(offset + length, kXPLineBytes) - align_down(offset, kXPLineBytes);
  if (shadow_.fd() >= 0) shadow_.pwrite_all(std::span<const std::byte>(file_.base() + offset, length), offset);
}

void Persister::persist(uint64_t offset, uint64_t length) {
  if (length == 0) return;
  ByteRange range{offset, length};
  persist(std::span<const ByteRange>(&range, 1));
}

void Persister::persist(std::span<const ByteRange> ranges) {
  if (ranges.empty()) return;
  for (size_t i = 1; i < ranges.size(); ++i)
    if (ranges[i].offset < ranges[i - 1].offset + ranges[i - 1].length)
      fail("{}: persist ranges must be sorted and apart", file_.path());
  ++stats_.calls;
  for (const ByteRange& r : ranges) {
    account(r.offset, r.length);
    if (file_.is_pmem()) pmem_persist(file_.base() + r.offset, r.length);
  }
  if (file_.is_pmem()) return;
  uint64_t begin = ranges.front().offset;
  uint64_t end = ranges.back().offset + ranges.back().length;
  if (pmem_msync(file_.base() + begin, end - begin) != 0)
    fail("{}: persisting {} bytes at {} failed: {}", file_.path(), end - begin, begin, pmem_errormsg());
}

void Persister::crash_point(std::string_view point) {
  if (!cuts_at(point)) return;
  simulate_power_cut(power_cut_, point, ++crash_hits_);
}

void Persister::torn_cut(std::string_view name, std::span<const ByteRange> reached) {
  if (!cuts_at(name)) return;
  const uint64_t hits = ++crash_hits_;
  if (hits < power_cut_.crash_after) return;
  for (const ByteRange& r : reached) account(r.offset, r.length);
  simulate_power_cut(power_cut_, name, hits);
}

void replace_shadow(const PowerCutConfig& config, const std::string& store_path) {
  if (config.shadow_path.empty()) return;
  const std::string temp = config.shadow_path + ".new";
  std::error_code error;
  std::filesystem::copy_file(store_path, temp, std::filesystem::copy_options::overwrite_existing, error);
  if (!error) std::filesystem::rename(temp, config.shadow_path, error);
  if (error) fail("{}: cannot replace the shadow image: {}", config.shadow_path, error.message());
}

void simulate_power_cut(const PowerCutConfig& config, std::string_view point, uint64_t hits) {
  if (config.crash_point != point || hits < config.crash_after) return;
  std::fprintf(stderr, "graphso: power cut at crash point %.*s (pass %llu)\n", static_cast<int>(point.size()),
               point.data(), static_cast<unsigned long long>(hits));
  std::fflush(stderr);
  std::_Exit(kCrashExitCode);  // no destructors: nothing more reaches the shadow image
}

}  // namespace graphso::store
