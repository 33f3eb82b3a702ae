#include "middleware/chunk_size.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "base/error.h"
#include "base/file.h"
#include "base/progress.h"
#include "middleware/tchunk.h"

namespace graphso {

namespace {

constexpr uint64_t kSampleSequentialBytes = 16ull << 20;  // per sample, in 1 MiB requests
constexpr uint32_t kSampleRandomReads = 1024;              // per sample

// The unrounded size the rule asks for.
double rule_bytes(const DeviceProfile& device) {
  if (device.per_byte_seconds <= 0) return static_cast<double>(kLargestChosenChunk);
  return kRequestShare * device.per_request_seconds / device.per_byte_seconds;
}

uint64_t rounded_and_clamped(double bytes) {
  if (!(bytes >= static_cast<double>(kSmallestChosenChunk))) return kSmallestChosenChunk;  // also NaN
  if (bytes >= static_cast<double>(kLargestChosenChunk)) return kLargestChosenChunk;
  // Between two powers of two (the bounds are powers of two), so the nearest stays inside them.
  return uint64_t{1} << std::lround(std::log2(bytes));
}

}  // namespace

uint64_t chunk_bytes_for_device(const DeviceProfile& device) { return rounded_and_clamped(rule_bytes(device)); }

ChunkSizeChoice measure_chunk_bytes(const std::string& file, ReaderOptions options, uint64_t least_file_bytes) {
  const uint64_t file_bytes = File(file, File::Mode::Read).size();
  if (file_bytes < least_file_bytes || file_bytes < kDirectAlignment)
    return {kDefaultChunkBytes, fmt::format("default: the largest edge file ({}) is under {}, too small to measure the device on",
                                            human_bytes(static_cast<double>(file_bytes)),
                                            human_bytes(static_cast<double>(least_file_bytes)))};
  // Any file measures the device; its page checksums are not wanted.
  options.verify_reads = false;
  ReaderFactory factory{options};
  std::unique_ptr<ChunkReader> reader = factory.open(file);
  AlignedBuffer buffer(kSampleSequentialBytes);
  std::vector<DeviceProfile> samples;
  // Sequential samples spread over the file, so none reads what the last one left in a cache.
  const uint64_t room = file_bytes > kSampleSequentialBytes ? file_bytes - kSampleSequentialBytes : 0;
  for (int s = 0; s < kChunkSizeSamples; ++s) {
    samples.push_back(measure_device(*reader, file_bytes, buffer.data(), buffer.size(), kSampleSequentialBytes,
                                     kSampleRandomReads, room / (kChunkSizeSamples - 1) * s));
  }
  std::sort(samples.begin(), samples.end(),
            [](const DeviceProfile& a, const DeviceProfile& b) { return rule_bytes(a) < rule_bytes(b); });
  const DeviceProfile& median = samples[samples.size() / 2];
  const uint64_t bytes = chunk_bytes_for_device(median);
  return {bytes, fmt::format("measured ({}, median of {}): {}/s sequential, {:.0f} k random 4 KiB reads/s; a request costs "
                             "what {} of transfer does, a chunk {} times that as a power of two in {}-{}",
                             reader->backend(), kChunkSizeSamples, human_bytes(median.sequential_bytes_per_second),
                             median.random_reads_per_second / 1000,
                             human_bytes(median.per_request_seconds / median.per_byte_seconds), kRequestShare,
                             human_bytes(static_cast<double>(kSmallestChosenChunk)),
                             human_bytes(static_cast<double>(kLargestChosenChunk)))};
}

void record_chunk_size(const GraphFiles& files, const ChunkSizeChoice& choice) {
  AtomicOutputFile out(files.chunk_size());
  out.append(fmt::format("{} {}\n", choice.bytes, choice.basis));
  out.commit();
}

std::optional<ChunkSizeChoice> recorded_chunk_size(const GraphFiles& files) {
  const std::string path = files.chunk_size();
  if (!path_exists(path)) return std::nullopt;
  const std::string text = read_small_file(path);
  // "<bytes> <basis>\n": digits, one space, one line.
  const size_t digits = text.find_first_not_of("0123456789");
  const bool well_formed = digits > 0 && digits <= 13 && text[digits] == ' ' &&
                           text.size() > digits + 1 && text.back() == '\n' && text.find('\n') == text.size() - 1;
  const uint64_t bytes = well_formed ? std::stoull(text.substr(0, digits)) : 0;
  if (bytes == 0) fail("{}: not a chunk-size record (\"<bytes> <how it was chosen>\"); re-run graphso prep", path);
  return ChunkSizeChoice{bytes, text.substr(digits + 1, text.size() - digits - 2)};
}

ChunkSizeChoice requested_chunk_size(uint64_t requested, const GraphFiles& files, uint64_t edge_bytes,
                                     uint64_t vertices, int cores) {
  if (requested == kFormulaChunkBytes)
    return {formula_chunk_bytes(edge_bytes, vertices, cores), "--chunk-size formula: Formula (1)"};
  if (requested != 0) return {requested, "--chunk-size"};
  if (std::optional<ChunkSizeChoice> recorded = recorded_chunk_size(files)) return *recorded;
  return {kDefaultChunkBytes, "default: the graph directory has no chunk-size record"};
}

}  // namespace graphso
