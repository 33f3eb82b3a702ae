#include "base/checked_file.h"

#include "base/error.h"
#include "base/file.h"

#include <algorithm>

namespace graphso {

FormatTag FileFormat::tag() const {
  FormatTag t{};
  std::memcpy(t.magic, magic, sizeof t.magic);
  t.version = version;
  return t;
}

void check_tag(const FileFormat& format, const FormatTag& tag, const std::string& path) {
  if (std::memcmp(tag.magic, format.magic, sizeof tag.magic) != 0)
    fail("{}: not {} (bad magic{}{})", path, format.noun, format.magic_hint ? "; " : "",
         format.magic_hint ? format.magic_hint : "");
  if (tag.version != format.version)
    fail("{}: {} version {}, this build reads version {} ({})", path, format.name, tag.version, format.version,
         format.remedy);
}

void check_size(const std::string& path, uint64_t size, uint64_t expected, const std::string& what) {
  if (size != expected)
    fail("{}: size {} bytes, expected {}{}{} (truncated or corrupt)", path, size, expected, what.empty() ? "" : " for ",
         what);
}

void check_crc(const std::string& path, uint32_t stored, uint32_t computed, const std::string& what) {
  if (stored != computed) fail("{}: checksum mismatch (corrupt{}{})", path, what.empty() ? "" : " ", what);
}

void write_sealed_file(const std::string& path, const std::string& bytes) {
  const auto view = std::as_bytes(std::span<const char>(bytes.data(), bytes.size()));
  const uint32_t crc = crc32_of(view);
  AtomicOutputFile out(path);
  out.append(view);
  out.append(as_bytes_of(crc));
  out.commit();
}

SealedFileWriter::SealedFileWriter(const std::string& path, uint64_t head_bytes) : out_(path), head_bytes_(head_bytes) {
  out_.append(std::vector<std::byte>(head_bytes));  // a placeholder, so the body lands after it
}

void SealedFileWriter::append(std::span<const std::byte> body) {
  out_.append(body);
  body_crc_ = crc32_of(body, body_crc_);
  body_bytes_ += body.size();
}

void SealedFileWriter::finish(std::span<const std::byte> head) {
  if (head.size() != head_bytes_) fail("internal: a sealed file's head is {} bytes, not {}", head.size(), head_bytes_);
  out_.file().pwrite_all(head, 0);
  const uint32_t crc = crc32_combine(crc32_of(head), body_crc_, body_bytes_);
  out_.append(as_bytes_of(crc));
  out_.commit();
}

namespace {

void check_sealed_length(const FileFormat& format, const std::string& path, uint64_t size, size_t header_bytes) {
  if (size < header_bytes + sizeof(uint32_t))
    fail("{}: too short to be {} ({} bytes; truncated?)", path, format.noun, size);
}

}  // namespace

SealedFile::SealedFile(const FileFormat& format, const std::string& path, size_t header_bytes)
    : path_(path), bytes_(read_small_file(path)), header_bytes_(header_bytes) {
  check_sealed_length(format, path, bytes_.size(), header_bytes);
  check_tag(format, header<FormatTag>(), path);
}

void SealedFile::check_size_and_crc(uint64_t expected, const std::string& what) const {
  check_size(path_, bytes_.size(), expected);
  const uint64_t covered = bytes_.size() - sizeof(uint32_t);
  check_crc(path_, crc(), crc32_of(std::as_bytes(std::span<const char>(bytes_.data(), covered))), what);
}

uint32_t SealedFile::crc() const {
  uint32_t stored = 0;
  std::memcpy(&stored, bytes_.data() + bytes_.size() - sizeof stored, sizeof stored);
  return stored;
}

SealedFileReader::SealedFileReader(const FileFormat& format, const std::string& path, size_t header_bytes)
    : file_(path, File::Mode::Read), size_(file_.size()), header_(header_bytes) {
  check_sealed_length(format, path, size_, header_bytes);
  file_.pread_exact(header_, 0);
  check_tag(format, header<FormatTag>(), path);
}

uint32_t SealedFileReader::check_size_and_crc(uint64_t expected, const std::string& what) const {
  check_size(file_.path(), size_, expected);
  const uint64_t covered = size_ - sizeof(uint32_t);
  uint32_t crc = 0;
  std::vector<std::byte> piece;
  for (uint64_t at = 0; at < covered; at += piece.size()) {
    piece.resize(std::min<uint64_t>(covered - at, 1 << 20));
    file_.pread_exact(piece, at);
    crc = crc32_of(piece, crc);
  }
  uint32_t stored = 0;
  file_.pread_exact(std::as_writable_bytes(std::span<uint32_t, 1>(&stored, 1)), covered);
  check_crc(file_.path(), stored, crc, what);
  return stored;
}

}  // namespace graphso
