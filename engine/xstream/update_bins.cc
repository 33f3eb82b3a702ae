#include "engine/xstream/update_bins.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "engine/common/error.h"
#include "engine/common/load_stream.h"

namespace graphso {

UpdateBins::UpdateBins(const GridMeta& meta, std::vector<uint32_t> record_bytes, uint64_t memory_bytes,
                       uint64_t spill_piece, std::string spill_path)
    : meta_(meta), partitions_(meta.partitions), record_bytes_(std::move(record_bytes)), budget_(memory_bytes),
      bins_(record_bytes_.size() * partitions_), spill_(std::move(spill_path), spill_piece) {}

void UpdateBins::add(uint32_t job, std::span<const std::byte> updates) {
  const uint32_t record = record_bytes_[job];
  if (updates.empty() || record == 0) return;
  const uint64_t count = updates.size() / record;
  // Counted per destination partition first, so each bin grows once.
  std::vector<uint32_t> partition(count);
  std::vector<uint64_t> per_partition(partitions_, 0);
  for (uint64_t r = 0; r < count; ++r) {
    VertexId dst;
    std::memcpy(&dst, updates.data() + r * record, sizeof(dst));
    partition[r] = meta_.range_of(dst);
    ++per_partition[partition[r]];
  }
  std::lock_guard lock(mutex_);
  std::vector<std::byte*> next(partitions_, nullptr);
  for (uint32_t q = 0; q < partitions_; ++q) {
    if (!per_partition[q]) continue;
    std::vector<std::byte>& b = bin(job, q);
    const uint64_t before = b.capacity();
    const size_t at = b.size();
    b.resize(at + per_partition[q] * record);
    memory_ += b.capacity() - before;
    next[q] = b.data() + at;
  }
  for (uint64_t r = 0; r < count; ++r) {
    std::memcpy(next[partition[r]], updates.data() + r * record, record);
    next[partition[r]] += record;
  }
  counters_.records += count;
  counters_.bytes += count * record;
  if (memory_ > budget_) spill_until(budget_ / 2);
}

void UpdateBins::spill_until(uint64_t target) {
  while (memory_ > target) {
    size_t largest = 0;
    for (size_t b = 1; b < bins_.size(); ++b)
      if (bins_[b].capacity() > bins_[largest].capacity()) largest = b;
    if (bins_[largest].capacity() == 0) return;
    spill(static_cast<uint32_t>(largest / partitions_), static_cast<uint32_t>(largest % partitions_));
  }
}

void UpdateBins::spill(uint32_t job, uint32_t partition) {
  std::vector<std::byte>& b = bin(job, partition);
  const uint64_t piece_bytes = spill_.piece_bytes() / record_bytes_[job] * record_bytes_[job];  // whole records
  for (uint64_t at = 0; at < b.size(); at += piece_bytes) {
    const uint64_t bytes = std::min<uint64_t>(piece_bytes, b.size() - at);
    const uint64_t offset = spill_.append(std::span<const std::byte>(b.data() + at, bytes));
    segments_.push_back({job, partition, offset, bytes});
  }
  counters_.bytes_written = spill_.bytes_written();
  counters_.spills = spill_.writes();
  memory_ -= b.capacity();
  std::vector<std::byte>().swap(b);
}

void UpdateBins::drain(std::span<const uint32_t> jobs, ReaderFactory& readers, const Apply& apply) {
  auto wanted = [&](uint32_t job) { return std::find(jobs.begin(), jobs.end(), job) != jobs.end(); };
  std::vector<Segment> mine, rest;
  for (const Segment& s : segments_) (wanted(s.job) ? mine : rest).push_back(s);
  std::stable_sort(mine.begin(), mine.end(), [](const Segment& a, const Segment& b) { return a.partition < b.partition; });
  // A reader opened now sees the whole spill file (a PMEM mapping is sized at open).
  std::optional<LoadStreamer> streamer;
  if (!mine.empty())
    streamer.emplace(readers, std::vector<std::string>{spill_.path()}, spill_.piece_bytes() + 2 * kDirectAlignment);
  size_t s = 0;
  for (uint32_t q = 0; q < partitions_; ++q) {
    // Partition q's spilled pieces, then what is still in memory: its vertex state stays hot.
    std::vector<FileRange> ranges;
    const size_t first = s;
    for (; s < mine.size() && mine[s].partition == q; ++s) ranges.push_back({0, mine[s].offset, mine[s].bytes});
    if (!ranges.empty())
      streamer->stream(ranges, [&](size_t a, size_t b, std::span<const std::byte* const> data) {
        for (size_t k = a; k < b; ++k) apply(mine[first + k].job, std::span<const std::byte>(data[k - a], mine[first + k].bytes));
      });
    for (uint32_t job : jobs) {
      std::vector<std::byte>& b = bin(job, q);
      if (b.empty()) continue;
      apply(job, b);
      memory_ -= b.capacity();
      std::vector<std::byte>().swap(b);
    }
  }
  if (streamer) {
    IoStats io = streamer->io_stats();
    spill_io_ += io;
    counters_.bytes_read += io.bytes_read;
  }
  segments_ = std::move(rest);
  if (segments_.empty()) spill_.clear();
}

}  // namespace graphso
