// Placing byte ranges of files into one aligned buffer for O_DIRECT: a range that continues the
// previous one in the same file goes right after it and extends its read; any other starts at
// the next page with a read of its own. Used by the engine's loads and GraphSO's logical
// partitions alike.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "io/chunk_reader.h"

namespace graphso {

struct FileRange {
  uint32_t file = 0;
  uint64_t offset = 0;
  uint64_t length = 0;
};

struct ReadPlan {
  size_t placed = 0;                 // ranges [0, placed) fit
  std::vector<uint64_t> placement;   // buffer offset of each placed range's first byte
  std::vector<ReadRequest> reads;    // page-aligned, dest inside the buffer
  std::vector<uint32_t> read_file;   // file of each read
};

// Places ranges from the first on until one does not fit in capacity bytes.
ReadPlan plan_reads(std::span<const FileRange> ranges, std::byte* buffer, uint64_t capacity);

// The plan's reads of one file, to submit to that file's reader.
std::vector<ReadRequest> reads_of_file(const ReadPlan& plan, uint32_t file);

// Bytes a range takes when placed alone (from its page start to the end of its last page).
uint64_t aligned_span(const FileRange& range);

}  // namespace graphso
