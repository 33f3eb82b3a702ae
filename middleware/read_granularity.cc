#include "middleware/read_granularity.h"

#include "base/enum_names.h"
#include "base/error.h"
#include "base/file.h"
#include "io/read_plan.h"

namespace graphso {

namespace {
constexpr EnumName<Granularity> kGranularityNames[] = {
    {Granularity::Chunk, "chunk"}, {Granularity::Page, "page"}, {Granularity::Auto, "auto"}};
}  // namespace

Granularity parse_granularity(const std::string& name) {
  return parse_enum<Granularity>(kGranularityNames, name, "read granularity");
}
const char* granularity_name(Granularity granularity) { return enum_name<Granularity>(kGranularityNames, granularity); }

namespace {

// The runs of chunk c's edges that hold the active sources of the demand's jobs, merged while
// the pages between two runs are cheaper to read than a request (max_gap_pages).
std::vector<EdgeSpan> active_runs(const TChunkTable& table, std::span<const JobFrontier> jobs, const ChunkDemand& d,
                                  uint32_t edge_size, uint64_t max_gap_pages) {
  const ChunkInfo& c = table.chunk(d.chunk);
  std::vector<EdgeSpan> runs;
  uint64_t edge = 0;
  table.for_each_source(d.chunk, [&](VertexId source, uint64_t edges) {
    bool active = false;
    for (uint32_t j : d.jobs) active = active || jobs[j].frontier->test(source);
    if (active) {
      // Pages of the previous run's end and of this run's start, in file terms.
      uint64_t begin_page = (c.offset + edge * edge_size) / kDirectAlignment;
      if (!runs.empty()) {
        EdgeSpan& last = runs.back();
        uint64_t last_page = (c.offset + (last.first + last.count) * edge_size - 1) / kDirectAlignment;
        if (begin_page <= last_page + 1 + max_gap_pages) {
          last.count = edge + edges - last.first;
          edge += edges;
          return;
        }
      }
      runs.push_back({edge, edges});
    }
    edge += edges;
  });
  return runs;
}

}  // namespace

void choose_granularity(const TChunkTable& table, std::span<const JobFrontier> jobs, uint32_t edge_size,
                        Granularity granularity, const DeviceProfile* device, ActiveChunks& active, int threads) {
  if (granularity == Granularity::Chunk) return;
  if (granularity == Granularity::Auto && !device) fail("auto read granularity needs a measured device profile");
  // Reading a gap of g pages costs g x 4 KiB x per_byte; a separate request costs per_request.
  uint64_t max_gap_pages = 0;
  if (device && device->per_byte_seconds > 0)
    max_gap_pages = static_cast<uint64_t>(device->per_request_seconds /
                                          (static_cast<double>(kDirectAlignment) * device->per_byte_seconds));
  const int64_t count = static_cast<int64_t>(active.chunks.size());
#pragma omp parallel for num_threads(threads) schedule(dynamic, 16)
  for (int64_t i = 0; i < count; ++i) {
    ChunkDemand& d = active.chunks[i];
    d.page_runs.clear();
    d.page_bytes = 0;
    bool by_destination = false;
    for (uint32_t j : d.jobs) by_destination = by_destination || jobs[j].both_directions;
    if (by_destination) continue;
    const ChunkInfo& c = table.chunk(d.chunk);
    std::vector<EdgeSpan> runs = active_runs(table, jobs, d, edge_size, max_gap_pages);
    uint64_t bytes = 0;
    for (const EdgeSpan& r : runs) bytes += aligned_span({c.file, c.offset + r.first * edge_size, r.count * edge_size});
    const uint64_t whole = aligned_span({c.file, c.offset, c.bytes});
    if (runs.size() == 1 && bytes == whole) continue;  // every page is needed anyway
    if (granularity == Granularity::Auto && device->cost(runs.size(), bytes) >= device->cost(1, whole)) continue;
    d.page_runs = std::move(runs);
    d.page_bytes = bytes;
  }
}

}  // namespace graphso
