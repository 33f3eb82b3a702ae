// The chunk size a graph directory uses when a run names none: chosen once by `prep` (or
// `snapshot`) from what reads cost on the device under the directory, recorded in the directory
// (GraphFiles::chunk_size), and read back by every chunk-mode run (docs/middleware.md, "Chunk
// size").
//
// A whole chunk is one request. The rule keeps a request's fixed cost (DeviceProfile's
// per_request_seconds) at 1/kRequestShare of the chunk's transfer time:
//     chunk = kRequestShare x per_request_seconds / per_byte_seconds
// rounded to the nearest power of two and clamped to [kSmallestChosenChunk, kLargestChosenChunk].
// Smaller chunks skip more of what no job needs; larger ones pay fewer requests. kRequestShare is
// calibrated by the chunk-size sweep on these machines (docs/middleware.md), where a request costs
// what about 4 KiB of transfer does and W1 at 1/8 of the edge bytes ran as fast at 64-256 KiB
// (128 KiB in the middle) on the graphs large enough to measure on; a device with dearer requests
// (a disk) gets larger chunks, a cheaper one (PMEM) the floor.
//
// The device is measured on the graph's own largest edge file, in kChunkSizeSamples samples
// spread over it (the median decides: one sample on a shared VM disk varies by 2x). A file under
// kDeviceSampleBytes is too small to measure on, and a graph that small gains little from the
// choice: it gets kDefaultChunkBytes, and the record says why.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/graph_files.h"
#include "io/chunk_reader.h"
#include "io/device_profile.h"

namespace graphso {

inline constexpr double kRequestShare = 32;
// The floor is the CPU's side, which the rule does not model: below 64 KiB the per-chunk work
// (records, index decodes, runs) shows: W1 took up to 26% more user CPU at 32 KiB than at 64 KiB.
inline constexpr uint64_t kSmallestChosenChunk = 64 << 10;
inline constexpr uint64_t kLargestChosenChunk = 8 << 20;
inline constexpr uint64_t kDeviceSampleBytes = 64ull << 20;
inline constexpr int kChunkSizeSamples = 5;

struct ChunkSizeChoice {
  uint64_t bytes = 0;
  std::string basis;  // one line: how it was chosen
};

// The rule above, for one measured device.
uint64_t chunk_bytes_for_device(const DeviceProfile& device);

// Measures the device under `file` (kChunkSizeSamples samples, read with `reader`'s options but
// unverified) and applies the rule; a file under `least_file_bytes` is not measured.
ChunkSizeChoice measure_chunk_bytes(const std::string& file, ReaderOptions reader,
                                    uint64_t least_file_bytes = kDeviceSampleBytes);

// Written by prep into the directory it is preparing; replaces an earlier record.
void record_chunk_size(const GraphFiles& files, const ChunkSizeChoice& choice);
// The directory's record; none for a directory prepared before records existed. A record that
// cannot be parsed is an Error naming the file.
std::optional<ChunkSizeChoice> recorded_chunk_size(const GraphFiles& files);

// What a requested size means for a graph: 0 the directory's recorded default (kDefaultChunkBytes
// without a record), kFormulaChunkBytes Formula (1), any other value itself.
ChunkSizeChoice requested_chunk_size(uint64_t requested, const GraphFiles& files, uint64_t edge_bytes,
                                     uint64_t vertices, int cores);

}  // namespace graphso
