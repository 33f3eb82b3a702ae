// Page checksums: the CRC-32C of every 4 KiB page of a file, so that each read is verified before
// any job sees it. Graph files (grid.row, grid.col, xstream.part.K) carry theirs in a sidecar,
// FILE.sums, written by prep beside the file; a spill file keeps its own in memory as it is
// written. Reads are page-aligned (O_DIRECT), so every read covers whole pages and a flipped bit
// anywhere in a page, padding included, is caught (docs/formats.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/file.h"

namespace graphso {

class PageSums {
 public:
  static constexpr uint64_t kPageBytes = kDirectAlignment;

  PageSums() = default;
  // The sums of a whole file (a multiple of the page size), read sequentially.
  static PageSums of_file(const std::string& path);
  // FILE's sums from its sidecar, checked against FILE's size.
  static PageSums load(const std::string& file, uint64_t file_bytes);
  // Writes them as FILE's sidecar.
  void save(const std::string& file) const;

  // A file written page by page (a spill file): the sums of whole pages written at `offset`.
  void record(uint64_t offset, std::span<const std::byte> pages);
  // A page whose CRC-32C is known already (a store's section page, from its table): its sum.
  void expect(uint64_t offset, uint32_t crc);
  void clear() { sums_.clear(); }

  // Checks whole pages read from `path` at `offset`; the first page whose CRC-32C differs from
  // its sum (or that has none) is an Error naming the file, the page's offset and the read.
  void verify(const std::string& path, uint64_t offset, std::span<const std::byte> pages) const;

  uint64_t pages() const { return sums_.size(); }
  uint64_t memory_bytes() const { return sums_.size() * sizeof(uint32_t); }
  // What the sums of a file of this size take in memory.
  static uint64_t memory_bytes_for(uint64_t file_bytes) {
    return align_up(file_bytes, kPageBytes) / kPageBytes * sizeof(uint32_t);
  }

 private:
  std::vector<uint32_t> sums_;
};

// FILE.sums: where FILE's page sums are kept.
std::string page_sums_path(const std::string& file);
// Computes FILE's page sums and writes them beside it (prep, once FILE is complete).
void write_page_sums(const std::string& file);
// Reads FILE whole and verifies every page against its sidecar (inspect --verify).
void verify_page_sums(const std::string& file);

}  // namespace graphso
