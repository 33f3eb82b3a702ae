// A scratch file an engine writes and reads back (the X-Stream engine's spilled updates): the
// I/O layer's one writer. Appends go with O_DIRECT in whole pages from one aligned staging
// buffer, and every byte written is counted; reading back is done through a ChunkReader like any
// graph file, verified against the page checksums kept here as the pages are written. The file
// is created on the first append and removed with the object.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "base/file.h"
#include "io/page_sums.h"

namespace graphso {

class SpillFile {
 public:
  // piece_bytes: the most one append() takes (a multiple of 4096; the staging buffer's size).
  // keep_page_sums: checksum every page written, for the reads back to be verified.
  SpillFile(std::string path, uint64_t piece_bytes, bool keep_page_sums);
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  const std::string& path() const { return path_; }
  uint64_t piece_bytes() const { return piece_; }
  // Writes bytes (at most piece_bytes) at the end, zero-padded to whole pages; returns the offset.
  uint64_t append(std::span<const std::byte> bytes);
  // Empties the file: its space is written again from offset 0.
  void clear();

  uint64_t bytes_written() const { return bytes_written_; }  // whole pages, as written
  uint64_t writes() const { return writes_; }
  // The sums of the pages written so far (null unless kept); give them to the ReaderFactory.
  std::shared_ptr<const PageSums> page_sums() const { return sums_; }

 private:
  std::string path_;
  uint64_t piece_ = 0;
  File file_;
  AlignedBuffer staging_;
  uint64_t end_ = 0;
  uint64_t bytes_written_ = 0;
  uint64_t writes_ = 0;
  std::shared_ptr<PageSums> sums_;
};

}  // namespace graphso
