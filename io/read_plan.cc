#include "io/read_plan.h"

#include "base/file.h"

namespace graphso {

std::vector<ReadRequest> reads_of_file(const ReadPlan& plan, uint32_t file) {
  std::vector<ReadRequest> mine;
  for (size_t r = 0; r < plan.reads.size(); ++r)
    if (plan.read_file[r] == file) mine.push_back(plan.reads[r]);
  return mine;
}

uint64_t aligned_span(const FileRange& r) {
  return align_up(r.offset + r.length, kDirectAlignment) - align_down(r.offset, kDirectAlignment);
}

ReadPlan plan_reads(std::span<const FileRange> ranges, std::byte* buffer, uint64_t capacity) {
  ReadPlan plan;
  uint64_t used = 0;
  uint64_t previous_end = 0;
  for (const FileRange& r : ranges) {
    bool continues = !plan.reads.empty() && plan.read_file.back() == r.file && r.offset == previous_end;
    if (continues) {
      ReadRequest& last = plan.reads.back();
      uint64_t length = align_up(r.offset + r.length, kDirectAlignment) - last.offset;
      uint64_t end = static_cast<uint64_t>(last.dest - buffer) + length;
      if (end > capacity) break;
      plan.placement.push_back(static_cast<uint64_t>(last.dest - buffer) + (r.offset - last.offset));
      last.length = length;
      used = end;
    } else {
      uint64_t aligned = align_down(r.offset, kDirectAlignment);
      uint64_t length = align_up(r.offset + r.length, kDirectAlignment) - aligned;
      if (used + length > capacity) break;
      plan.placement.push_back(used + (r.offset - aligned));
      plan.reads.push_back({aligned, length, buffer + used});
      plan.read_file.push_back(r.file);
      used += length;
    }
    previous_end = r.offset + r.length;
    ++plan.placed;
  }
  return plan;
}

}  // namespace graphso
