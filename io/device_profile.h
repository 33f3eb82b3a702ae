// What reads cost on the device under a file, measured in this process with the reader the run
// uses (so O_DIRECT, io_uring and its queue depth are all in the figure): sequential bandwidth
// with 1 MiB requests (smaller if the buffer is), and random 4 KiB reads per second with the
// queue kept full. From these, a
// read of `requests` requests totalling `bytes` bytes is modelled as
//     requests x per_request_seconds + bytes x per_byte_seconds
// with per_byte = 1 / bandwidth and per_request = 1 / IOPS - 4 KiB / bandwidth (never negative).
#pragma once

#include <cstdint>

#include "io/chunk_reader.h"

namespace graphso {

struct DeviceProfile {
  double sequential_bytes_per_second = 0;
  double random_reads_per_second = 0;  // 4 KiB each
  double per_byte_seconds = 0;
  double per_request_seconds = 0;
  double seconds_spent = 0;             // measuring

  double cost(uint64_t requests, uint64_t bytes) const {
    return static_cast<double>(requests) * per_request_seconds + static_cast<double>(bytes) * per_byte_seconds;
  }
};

// Reads up to sequential_bytes from sequential_offset (rounded down to a page; from the start when
// too few bytes follow it) and random_reads random pages of the file through `reader`, using
// `buffer` (4096-aligned, at least 4 KiB) as scratch. The file must hold at least one page.
DeviceProfile measure_device(ChunkReader& reader, uint64_t file_bytes, std::byte* buffer, uint64_t buffer_bytes,
                             uint64_t sequential_bytes = 64ull << 20, uint32_t random_reads = 4096,
                             uint64_t sequential_offset = 0);

}  // namespace graphso
