#include "io/device_profile.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "base/mix.h"
#include "base/file.h"

namespace graphso {

DeviceProfile measure_device(ChunkReader& reader, uint64_t file_bytes, std::byte* buffer, uint64_t buffer_bytes,
                             uint64_t sequential_bytes, uint32_t random_reads, uint64_t sequential_offset) {
  using Clock = std::chrono::steady_clock;
  // Sequential requests of 1 MiB, or as large as the buffer allows.
  const uint64_t request = std::min<uint64_t>(1ull << 20, align_down(buffer_bytes, kDirectAlignment));
  const uint64_t pages = file_bytes / kDirectAlignment;
  if (pages == 0) fail("cannot measure the device on a file of {} bytes", file_bytes);
  if (request == 0) fail("device measurement needs a buffer of at least 4 KiB, got {} bytes", buffer_bytes);
  const auto start = Clock::now();
  DeviceProfile profile;

  // Random pages first, so the sequential pass cannot have left them in a device cache.
  const uint64_t slots = buffer_bytes / kDirectAlignment;
  std::vector<ReadRequest> requests;
  uint64_t key = 0x9e3779b97f4a7c15ull;
  auto random_start = Clock::now();
  for (uint32_t done = 0; done < random_reads;) {
    requests.clear();
    for (uint64_t s = 0; s < slots && done < random_reads; ++s, ++done)
      requests.push_back({mix64(key++) % pages * kDirectAlignment, kDirectAlignment, buffer + s * kDirectAlignment});
    reader.read(requests);
  }
  double random_seconds = std::chrono::duration<double>(Clock::now() - random_start).count();

  const uint64_t sequential = std::max<uint64_t>(kDirectAlignment, align_down(std::min(sequential_bytes, file_bytes), kDirectAlignment));
  uint64_t first = align_down(sequential_offset, kDirectAlignment);
  if (first > file_bytes || file_bytes - first < sequential) first = 0;
  const uint64_t end = first + sequential;
  const uint64_t batch = align_down(buffer_bytes, request);
  auto sequential_start = Clock::now();
  for (uint64_t offset = first; offset < end;) {
    requests.clear();
    for (uint64_t at = 0; at < batch && offset < end; at += request) {
      uint64_t length = std::min(request, end - offset);
      requests.push_back({offset, length, buffer + at});
      offset += length;
    }
    reader.read(requests);
  }
  double sequential_seconds = std::chrono::duration<double>(Clock::now() - sequential_start).count();

  profile.sequential_bytes_per_second = static_cast<double>(sequential) / std::max(sequential_seconds, 1e-9);
  profile.random_reads_per_second = random_reads / std::max(random_seconds, 1e-9);
  profile.per_byte_seconds = 1 / profile.sequential_bytes_per_second;
  profile.per_request_seconds =
      std::max(0.0, 1 / profile.random_reads_per_second - static_cast<double>(kDirectAlignment) * profile.per_byte_seconds);
  profile.seconds_spent = std::chrono::duration<double>(Clock::now() - start).count();
  return profile;
}

}  // namespace graphso
