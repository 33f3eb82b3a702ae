// The checks every graphso file format makes when it is opened, in one place: its magic, its
// version, its size and its CRC-32, each failing with one line that names the file (docs/formats.md).
//
// Every format begins with a FormatTag. Small files (graph meta, X-Stream meta, TChunk tables) are
// sealed: header, body, then a CRC-32 of every byte before it (SealedFile). Larger ones (edge lists,
// the store) carry a CRC of their header in the header and check the rest by size (check_tag,
// check_size, check_crc, crc_before).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "base/checksum.h"
#include "base/file.h"

namespace graphso {

struct FormatTag {
  char magic[8];
  uint32_t version;
};
static_assert(sizeof(FormatTag) == 12);

struct FileFormat {
  char magic[9];       // 8 characters and the terminating zero
  uint32_t version;    // the one this build reads and writes
  const char* noun;    // "not <noun> (bad magic)", "too short to be <noun>"
  const char* name;    // "<name> version 3, this build reads version 2 (<remedy>)"
  const char* remedy;
  const char* magic_hint = nullptr;  // appended to a bad magic, when there is something to do

  FormatTag tag() const;
};

// Magic, then version.
void check_tag(const FileFormat& format, const FormatTag& tag, const std::string& path);
// "PATH: size N bytes, expected M[ for WHAT] (truncated or corrupt)"
void check_size(const std::string& path, uint64_t size, uint64_t expected, const std::string& what = {});
// "PATH: checksum mismatch (corrupt[ WHAT])"
void check_crc(const std::string& path, uint32_t stored, uint32_t computed, const std::string& what = {});

// CRC-32 of a record's bytes before its crc field (at offset `crc_offset`).
template <typename Record>
uint32_t crc_before(const Record& record, size_t crc_offset) {
  return crc32_of(std::span<const std::byte>(reinterpret_cast<const std::byte*>(&record), crc_offset));
}

// Writes `bytes` (a header beginning with the format's tag, then the body) and their CRC-32 to
// `path`, whole or not at all.
void write_sealed_file(const std::string& path, const std::string& bytes);

// A sealed file too large to hold in memory, written in pieces: its head (the header and what is
// known only once the body is written, such as the table's records) has a size fixed up front
// and is written last, the body is appended in pieces after it. Whole or not at all, like
// write_sealed_file; the CRC covers head and body in file order. The path must name a regular
// file (the head is written in place at the end), not a stream.
class SealedFileWriter {
 public:
  SealedFileWriter(const std::string& path, uint64_t head_bytes);
  void append(std::span<const std::byte> body);
  uint64_t body_bytes() const { return body_bytes_; }
  // head.size() must be the head_bytes given; writes it, then the CRC, then renames into place.
  void finish(std::span<const std::byte> head);

 private:
  AtomicOutputFile out_;
  uint64_t head_bytes_;
  uint64_t body_bytes_ = 0;
  uint32_t body_crc_ = 0;
};

// A sealed file read whole. The constructor checks that it holds a header and a CRC and the
// header's tag; check_size_and_crc() then checks the size the header implies, then the CRC.
class SealedFile {
 public:
  SealedFile(const FileFormat& format, const std::string& path, size_t header_bytes);

  template <typename Header>
  Header header() const {
    Header h{};
    std::memcpy(&h, bytes_.data(), sizeof h);
    return h;
  }
  // `expected`: the whole file, header, body and CRC. `what` names the file in a CRC mismatch.
  void check_size_and_crc(uint64_t expected, const std::string& what = {}) const;
  // After the header, before the CRC.
  const char* body() const { return bytes_.data() + header_bytes_; }
  uint32_t crc() const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string bytes_;
  size_t header_bytes_;
};

// A sealed file too large to hold in memory (a TChunk table's source index): the same checks as
// SealedFile, with the CRC computed over pieces read one at a time; parts are read on request.
class SealedFileReader {
 public:
  SealedFileReader(const FileFormat& format, const std::string& path, size_t header_bytes);
  template <typename Header>
  Header header() const {
    Header h{};
    std::memcpy(&h, header_.data(), sizeof h);
    return h;
  }
  // Returns the CRC, checked (what a file that names this one may have recorded).
  uint32_t check_size_and_crc(uint64_t expected, const std::string& what = {}) const;
  void read(std::span<std::byte> bytes, uint64_t offset) const { file_.pread_exact(bytes, offset); }

 private:
  File file_;
  uint64_t size_ = 0;
  std::vector<std::byte> header_;
};

}  // namespace graphso
