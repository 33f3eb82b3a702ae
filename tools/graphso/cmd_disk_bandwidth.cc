// graphso disk-bandwidth FILE: the device's sequential O_DIRECT read bandwidth and random 4 KiB
// reads per second, measured as `run --granularity auto` measures them at start-up
// (io/device_profile.h), with the same io_uring reader the engine uses, so benchmark
// figures can be put next to what the disk can do.
#include <cstdio>

#include "base/file.h"
#include "base/progress.h"
#include "io/chunk_reader.h"
#include "io/device_profile.h"
#include "tools/graphso/options.h"

namespace graphso {

int cmd_disk_bandwidth(const Args& args) {
  po::options_description options("disk-bandwidth options");
  std::string path, limit;
  options.add_options()
      ("file", po::value(&path)->required(), "a large file on the device to measure")
      ("limit", po::value(&limit)->default_value("2G"), "read at most this much sequentially");
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  if (!parse_options("disk-bandwidth", "FILE [--limit SIZE]", args, options, positional, vm)) return 0;

  const uint64_t limit_bytes = command_line([&] { return parse_size(limit, "--limit"); });
  const uint64_t file_bytes = File(path, File::Mode::Read).size();
  const uint64_t size = align_down(std::min(file_bytes, limit_bytes), 32ull << 20);
  if (size == 0) fail("{}: need a file of at least 32 MiB", path);
  // Any file measures the device: it has no page checksums, and none are wanted.
  ReaderOptions unverified;
  unverified.verify_reads = false;
  ReaderFactory factory{unverified};
  auto reader = factory.open(path);
  AlignedBuffer buffer(32ull << 20);
  DeviceProfile p = measure_device(*reader, file_bytes, buffer.data(), buffer.size(), size);
  std::printf("file: %s\nbackend: %s\nbytes: %llu\nseconds: %.4f\nbytes_per_second: %.0f\nrandom_reads_per_second: %.0f\n",
              path.c_str(), reader->backend(), static_cast<unsigned long long>(size),
              static_cast<double>(size) / p.sequential_bytes_per_second, p.sequential_bytes_per_second,
              p.random_reads_per_second);
  return 0;
}

}  // namespace graphso
