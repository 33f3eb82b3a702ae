#include "io/page_sums.h"

#include <cstring>

#include "base/checked_file.h"
#include "base/checksum.h"
#include "base/error.h"

namespace graphso {
namespace {

constexpr FileFormat kFormat{"GSOPSUM", 1, "a page-checksum file", "page-checksum format", "re-run `graphso prep`"};
constexpr uint64_t kReadPiece = 1 << 20;

struct Header {
  FormatTag tag;
  uint32_t page_bytes;
  uint64_t file_bytes;
};

// Reads a file of whole pages sequentially, handing each piece and its offset to `use`.
template <typename Use>
void for_each_piece(const File& file, uint64_t size, Use&& use) {
  if (size % PageSums::kPageBytes)
    fail("{}: {} bytes, not whole pages of {} (corrupt)", file.path(), size, PageSums::kPageBytes);
  std::vector<std::byte> piece(kReadPiece);
  for (uint64_t at = 0; at < size; at += kReadPiece) {
    const uint64_t n = std::min(kReadPiece, size - at);
    file.pread_exact(std::span(piece.data(), n), at);
    use(at, std::span<const std::byte>(piece.data(), n));
  }
}

}  // namespace

PageSums PageSums::of_file(const std::string& path) {
  File file(path, File::Mode::Read);
  const uint64_t size = file.size();
  PageSums sums;
  sums.sums_.resize(size / kPageBytes);
  for_each_piece(file, size, [&](uint64_t at, std::span<const std::byte> piece) {
    crc32c_of_pages(piece, kPageBytes, std::span(sums.sums_).subspan(at / kPageBytes, piece.size() / kPageBytes));
  });
  return sums;
}

PageSums PageSums::load(const std::string& file, uint64_t file_bytes) {
  const std::string sums_path = page_sums_path(file);
  if (!path_exists(sums_path))
    fail("{}: missing: the page checksums every read is verified with (a graph prepared by an older graphso has "
         "none: re-run `graphso prep`)",
         sums_path);
  SealedFile sealed(kFormat, sums_path, sizeof(Header));
  const Header h = sealed.header<Header>();
  if (h.page_bytes != kPageBytes) fail("{}: pages of {} bytes, this build uses {} (corrupt)", sums_path, h.page_bytes, kPageBytes);
  const uint64_t pages = align_up(h.file_bytes, kPageBytes) / kPageBytes;
  sealed.check_size_and_crc(sizeof(Header) + pages * sizeof(uint32_t) + sizeof(uint32_t), "page checksums");
  if (h.file_bytes != file_bytes)
    fail("{}: describes {} bytes, the file has {} (stale or corrupt; re-run `graphso prep`)", sums_path, h.file_bytes,
         file_bytes);
  PageSums sums;
  sums.sums_.resize(pages);
  std::memcpy(sums.sums_.data(), sealed.body(), pages * sizeof(uint32_t));
  return sums;
}

void PageSums::save(const std::string& file) const {
  Header h{};
  h.tag = kFormat.tag();
  h.page_bytes = kPageBytes;
  h.file_bytes = sums_.size() * kPageBytes;
  std::string bytes(reinterpret_cast<const char*>(&h), sizeof h);
  bytes.append(reinterpret_cast<const char*>(sums_.data()), sums_.size() * sizeof(uint32_t));
  write_sealed_file(page_sums_path(file), bytes);
}

void PageSums::record(uint64_t offset, std::span<const std::byte> pages) {
  if (offset % kPageBytes || pages.size() % kPageBytes)
    fail("internal: page sums recorded for {} bytes at offset {}, not whole pages", pages.size(), offset);
  const uint64_t first = offset / kPageBytes, count = pages.size() / kPageBytes;
  if (sums_.size() < first + count) sums_.resize(first + count);
  crc32c_of_pages(pages, kPageBytes, std::span(sums_).subspan(first, count));
}

void PageSums::expect(uint64_t offset, uint32_t crc) {
  if (offset % kPageBytes) fail("internal: a page sum expected at offset {}, not a page boundary", offset);
  const uint64_t page = offset / kPageBytes;
  if (sums_.size() <= page) sums_.resize(page + 1);
  sums_[page] = crc;
}

void PageSums::verify(const std::string& path, uint64_t offset, std::span<const std::byte> pages) const {
  if (offset % kPageBytes || pages.size() % kPageBytes)
    fail("{}: a read of {} bytes at offset {} is not whole pages and cannot be verified", path, pages.size(), offset);
  const uint64_t first = offset / kPageBytes, count = pages.size() / kPageBytes;
  if (first + count > sums_.size())
    fail("{}: a read of {} bytes at offset {} goes past the {} pages that have checksums (corrupt)", path, pages.size(),
         offset, sums_.size());
  // In groups of 64 pages, on the stack: the four-at-once CRC, then the comparison.
  constexpr uint64_t kGroup = 64;
  uint32_t got[kGroup];
  for (uint64_t done = 0; done < count; done += kGroup) {
    const uint64_t n = std::min(kGroup, count - done);
    crc32c_of_pages(pages.subspan(done * kPageBytes, n * kPageBytes), kPageBytes, std::span(got, n));
    for (uint64_t k = 0; k < n; ++k)
      if (got[k] != sums_[first + done + k]) {
        const uint64_t page = first + done + k;
        fail("{}: checksum mismatch in the page at offset {} (page {}, in a read of {} bytes at offset {}): corrupt "
             "data, nothing was computed from it",
             path, page * kPageBytes, page, pages.size(), offset);
      }
  }
}

std::string page_sums_path(const std::string& file) { return file + ".sums"; }

void write_page_sums(const std::string& file) { PageSums::of_file(file).save(file); }

void verify_page_sums(const std::string& file) {
  File data(file, File::Mode::Read);
  const uint64_t size = data.size();
  const PageSums sums = PageSums::load(file, size);
  for_each_piece(data, size, [&](uint64_t at, std::span<const std::byte> piece) { sums.verify(file, at, piece); });
}

}  // namespace graphso
