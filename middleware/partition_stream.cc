#include "middleware/partition_stream.h"

namespace graphso {

PartitionStream::PartitionStream(const EngineLayout& layout, ReaderFactory& readers, uint64_t buffer_bytes,
                                 bool dense_order)
    : layout_(layout), streamer_(readers, layout.files, buffer_bytes),
      max_piece_bytes_(align_down(streamer_.max_range_bytes(), layout.packed() ? kPackedPageBytes : layout.edge_size())),
      dense_order_(dense_order) {}

std::vector<bool> PartitionStream::wanted(const Job& job) const {
  const Bitmap& f = job.frontier();
  const bool both = job.edge_use() == EdgeUse::BothWays;
  std::vector<bool> wanted(layout_.partitions.size());
  for (size_t k = 0; k < wanted.size(); ++k) {
    const StaticPartition& p = layout_.partitions[k];
    wanted[k] = p.edges > 0 && layout_.in_view(static_cast<uint32_t>(k), job.view()) &&
                (f.any_in(p.src_begin, p.src_end) || (both && f.any_in(p.dst_begin, p.dst_end)));
  }
  return wanted;
}

void PartitionStream::add_pieces(uint32_t partition, uint32_t file, uint64_t offset, std::span<const uint32_t> jobs,
                                 ActiveSets accounting) {
  // Pieces of whole records, or of whole pages (their edges are counted once they are read).
  const uint64_t total = layout_.partition_bytes(partition);
  const uint32_t record = layout_.edge_size();
  for (uint64_t first = 0; first < total; first += max_piece_bytes_) {
    const uint64_t bytes = std::min(max_piece_bytes_, total - first);
    EdgeRun run{nullptr, bytes / record, layout_.weighted, partition, file, first / record, jobs, {}, accounting};
    if (layout_.packed()) {
      run.packed = true;
      run.packed_bytes = bytes;
      run.count = run.first_edge = 0;
    }
    runs_.push_back(run);
    ranges_.push_back({file, offset + first, bytes});
  }
}

void PartitionStream::add(std::span<const std::span<const uint32_t>> jobs_of, ActiveSets accounting) {
  bool dense = dense_order_ && !layout_.dense_order.empty();
  for (size_t k = 0; k < jobs_of.size() && dense; ++k)
    if (layout_.partitions[k].edges > 0 && jobs_of[k].empty()) dense = false;
  if (dense) {
    for (const PartitionCopy& copy : layout_.dense_order)
      if (!jobs_of[copy.partition].empty())
        add_pieces(copy.partition, copy.file, copy.offset, jobs_of[copy.partition], accounting);
  } else {
    for (uint32_t k = 0; k < jobs_of.size(); ++k)
      if (!jobs_of[k].empty())
        add_pieces(k, layout_.partitions[k].file, layout_.partitions[k].offset, jobs_of[k], accounting);
  }
  ends_.push_back(runs_.size());
}

void PartitionStream::stream(Engine& engine, const std::function<void(std::span<const EdgeRun> runs)>& loaded,
                             const std::function<void(size_t group)>& group_done) {
  std::vector<EdgeRun> runs = std::move(runs_);
  std::vector<FileRange> ranges = std::move(ranges_);
  std::vector<size_t> ends = std::move(ends_);
  runs_.clear(), ranges_.clear(), ends_.clear();
  size_t group = 0;
  auto close_groups = [&](size_t processed) {
    while (group < ends.size() && ends[group] <= processed) group_done(group++);
  };
  close_groups(0);  // groups that want nothing
  streamer_.stream(
      ranges,
      [&](size_t first, size_t last, std::span<const std::byte* const> data) {
        for (size_t k = first; k < last; ++k) {
          EdgeRun& run = runs[k];
          run.data = data[k - first];
          if (!run.packed) continue;
          run.count = packed_edges_in({run.data, run.packed_bytes});
          // A partition's pieces are consecutive: this one starts where the last ended.
          if (k > 0 && runs[k - 1].partition == run.partition && ranges[k - 1].file == ranges[k].file &&
              ranges[k - 1].offset + ranges[k - 1].length == ranges[k].offset)
            run.first_edge = runs[k - 1].first_edge + runs[k - 1].count;
        }
        const std::span<const EdgeRun> load = std::span<const EdgeRun>(runs).subspan(first, last - first);
        engine.process(load);
        loaded(load);
        close_groups(last);
      },
      ends);
  close_groups(runs.size());
}

}  // namespace graphso
