#include "engine/xstream/update_bins.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "base/error.h"
#include "io/load_stream.h"

namespace graphso {

UpdateBins::UpdateBins(const GridMeta& meta, int threads, std::vector<uint32_t> record_bytes, uint64_t memory_bytes,
                       uint64_t spill_piece, std::string spill_path, bool verify_reads, Apply overflow)
    : meta_(meta), partitions_(meta.partitions), record_bytes_(std::move(record_bytes)), budget_(memory_bytes),
      shards_(std::max(1, threads)), overflow_(std::move(overflow)), spill_(std::move(spill_path), spill_piece, verify_reads) {
  // Ids are at most kMaxVertexId < 2^32 - 1: a wider range (one partition) divides by 2^32 - 1,
  // which gives 0 for each.
  if (meta.range_size == 0 || (meta.range_size > UINT32_MAX && partitions_ != 1))
    fail("internal: update bins over ranges of {} ids in {} partitions", meta.range_size, partitions_);
  range_divider_ = libdivide::divider<uint32_t>(static_cast<uint32_t>(std::min<uint64_t>(meta.range_size, UINT32_MAX)));
  for (Shard& shard : shards_) {
    shard.bins.resize(record_bytes_.size() * partitions_);
    shard.per_partition.resize(partitions_);
    shard.bin_data.resize(partitions_);
  }
}

UpdateCounters UpdateBins::counters() const {
  UpdateCounters c;
  for (const Shard& shard : shards_) {
    c.records += shard.records;
    c.bytes += shard.bytes;
  }
  c.bytes_written = spill_.bytes_written();
  c.spills = spill_.writes();
  c.bytes_read = bytes_read_;
  c.applied_early = applied_early_.load();
  return c;
}

namespace {

// Copies each record to where its destination partition's next one goes: a copy of a constant
// size, so it is a move or two, not a call per record.
template <uint32_t kRecord>
void shuffle(std::span<const std::byte> updates, const uint32_t* partition_of, std::byte* const* bin_data,
             uint64_t* next) {
  const uint64_t count = updates.size() / kRecord;
  for (uint64_t r = 0; r < count; ++r) {
    const uint32_t q = partition_of[r];
    std::memcpy(bin_data[q] + next[q], updates.data() + r * kRecord, kRecord);
    next[q] += kRecord;
  }
}

}  // namespace

void UpdateBins::add(int thread, uint32_t job, std::span<const std::byte> updates) {
  const uint32_t record = record_bytes_[job];
  if (updates.empty() || record == 0) return;
  Shard& shard = shards_[thread];
  const uint64_t count = updates.size() / record;
  // Counted per destination partition first, so each bin grows once.
  shard.partition_of.resize(count);
  std::fill(shard.per_partition.begin(), shard.per_partition.end(), 0);
  for (uint64_t r = 0; r < count; ++r) {
    VertexId dst;
    std::memcpy(&dst, updates.data() + r * record, sizeof(dst));
    shard.partition_of[r] = dst / range_divider_;
    ++shard.per_partition[shard.partition_of[r]];
  }
  uint64_t grown = 0;
  for (uint32_t q = 0; q < partitions_; ++q) {
    Bin& b = shard.bins[job * partitions_ + q];
    if (shard.per_partition[q]) {
      const uint64_t before = b.capacity();
      b.resize(b.size() + shard.per_partition[q] * record, boost::container::default_init);
      grown += b.capacity() - before;
      // From here per_partition[q] is where the next record of partition q goes.
      shard.per_partition[q] = b.size() - shard.per_partition[q] * record;
    }
    shard.bin_data[q] = b.data();
  }
  switch (record) {
    case 4: shuffle<4>(updates, shard.partition_of.data(), shard.bin_data.data(), shard.per_partition.data()); break;
    case 8: shuffle<8>(updates, shard.partition_of.data(), shard.bin_data.data(), shard.per_partition.data()); break;
    case 12: shuffle<12>(updates, shard.partition_of.data(), shard.bin_data.data(), shard.per_partition.data()); break;
    default:
      for (uint64_t r = 0; r < count; ++r) {
        const uint32_t q = shard.partition_of[r];
        std::memcpy(shard.bin_data[q] + shard.per_partition[q], updates.data() + r * record, record);
        shard.per_partition[q] += record;
      }
  }
  shard.records += count;
  shard.bytes += count * record;
  if (grown != 0 && memory_.fetch_add(grown) + grown > budget_) shed_own(shard);
}

void UpdateBins::shed_own(Shard& shard) {
  auto largest_bin = [&shard]() {
    size_t largest = 0;
    for (size_t b = 1; b < shard.bins.size(); ++b)
      if (shard.bins[b].capacity() > shard.bins[largest].capacity()) largest = b;
    return largest;
  };
  if (overflow_) {
    // The vertex state is in memory: every bin can be applied now, and its memory kept for what
    // the thread scatters next (freed and grown again, it would be faulted in and copied anew).
    for (size_t b = 0; b < shard.bins.size(); ++b) {
      if (shard.bins[b].empty()) continue;
      overflow_(static_cast<uint32_t>(b / partitions_), std::span<const std::byte>(shard.bins[b].data(), shard.bins[b].size()));
      applied_early_.fetch_add(shard.bins[b].size());
      shard.bins[b].clear();
    }
    while (memory_.load() > budget_) {
      const size_t largest = largest_bin();
      if (shard.bins[largest].capacity() == 0) return;  // the other threads hold the rest
      release(shard, largest);
    }
    return;
  }
  while (memory_.load() > budget_ / 2) {
    const size_t largest = largest_bin();
    if (shard.bins[largest].capacity() == 0) return;  // the other threads shed theirs
    spill(shard, largest);
  }
}

void UpdateBins::release(Shard& shard, size_t index) {
  memory_.fetch_sub(shard.bins[index].capacity());
  Bin().swap(shard.bins[index]);
}

void UpdateBins::spill(Shard& shard, size_t index) {
  Bin& b = shard.bins[index];
  const uint32_t job = static_cast<uint32_t>(index / partitions_), partition = static_cast<uint32_t>(index % partitions_);
  const uint64_t piece_bytes = spill_.piece_bytes() / record_bytes_[job] * record_bytes_[job];  // whole records
  {
    std::lock_guard lock(spill_mutex_);
    for (uint64_t at = 0; at < b.size(); at += piece_bytes) {
      const uint64_t bytes = std::min<uint64_t>(piece_bytes, b.size() - at);
      const uint64_t offset = spill_.append(std::span<const std::byte>(b.data() + at, bytes));
      segments_.push_back({job, partition, offset, bytes});
    }
  }
  release(shard, index);
}

void UpdateBins::drain(std::span<const uint32_t> jobs, ReaderFactory& readers, const Apply& apply) {
  auto wanted = [&](uint32_t job) { return std::find(jobs.begin(), jobs.end(), job) != jobs.end(); };
  std::vector<Segment> mine, rest;
  for (const Segment& s : segments_) (wanted(s.job) ? mine : rest).push_back(s);
  std::stable_sort(mine.begin(), mine.end(), [](const Segment& a, const Segment& b) { return a.partition < b.partition; });
  // A reader opened now sees the whole spill file (a PMEM mapping is sized at open).
  std::optional<LoadStreamer> streamer;
  if (!mine.empty()) {
    readers.use_page_sums(spill_.path(), spill_.page_sums());
    streamer.emplace(readers, std::vector<std::string>{spill_.path()}, spill_.piece_bytes() + 2 * kDirectAlignment);
  }
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
    for (uint32_t job : jobs)
      for (Shard& shard : shards_) {
        Bin& b = shard.bins[job * partitions_ + q];
        if (b.empty()) continue;
        apply(job, std::span<const std::byte>(b.data(), b.size()));
        // Applied in memory, a bin keeps its memory for the next round; one that spills is freed.
        if (overflow_) b.clear();
        else release(shard, job * partitions_ + q);
      }
  }
  if (streamer) bytes_read_ += streamer->io_stats().bytes_read;
  segments_ = std::move(rest);
  if (segments_.empty()) spill_.clear();
}

}  // namespace graphso
