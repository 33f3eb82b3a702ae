// graphso disk-bandwidth FILE: the device's sequential O_DIRECT read bandwidth, measured with
// the same io_uring reader the engine uses (1 MiB requests, queue depth 32), so benchmark
// figures can be put next to what the disk can do.
#include <chrono>
#include <cstdio>

#include "engine/common/file.h"
#include "engine/common/progress.h"
#include "middleware/io/chunk_reader.h"
#include "tools/graphso/options.h"

namespace graphso {

int cmd_disk_bandwidth(const Args& args) {
  po::options_description options("disk-bandwidth options");
  std::string path, limit;
  options.add_options()
      ("file", po::value(&path)->required(), "a large file on the device to measure")
      ("limit", po::value(&limit)->default_value("2G"), "read at most this much");
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  if (!parse_options("disk-bandwidth", "FILE [--limit SIZE]", args, options, positional, vm)) return 0;

  uint64_t size = align_down(std::min(File(path, File::Mode::Read).size(), parse_size(limit, "--limit")), 32ull << 20);
  if (size == 0) fail("{}: need a file of at least 32 MiB", path);
  ReaderOptions o;
  o.queue_depth = 32;
  ReaderFactory factory(o);
  auto reader = factory.open(path);
  constexpr uint64_t kBatch = 32ull << 20;
  AlignedBuffer buffers[2] = {AlignedBuffer(kBatch), AlignedBuffer(kBatch)};
  auto start = std::chrono::steady_clock::now();
  for (uint64_t offset = 0, k = 0; offset < size; offset += kBatch, ++k) {
    ReadRequest request{offset, kBatch, buffers[k % 2].data()};
    reader->read(std::span<const ReadRequest>(&request, 1));
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("file: %s\nbackend: %s\nbytes: %llu\nseconds: %.4f\nbytes_per_second: %.0f\n", path.c_str(),
              reader->backend(), static_cast<unsigned long long>(size), seconds,
              static_cast<double>(size) / seconds);
  return 0;
}

}  // namespace graphso
