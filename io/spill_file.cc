#include "io/spill_file.h"

#include <unistd.h>

#include <cstring>

#include "base/error.h"

namespace graphso {

SpillFile::SpillFile(std::string path, uint64_t piece_bytes, bool keep_page_sums)
    : path_(std::move(path)), piece_(align_down(piece_bytes, kDirectAlignment)),
      sums_(keep_page_sums ? std::make_shared<PageSums>() : nullptr) {
  if (piece_ == 0) fail("spill pieces of {} bytes are too small (need at least {})", piece_bytes, kDirectAlignment);
}

SpillFile::~SpillFile() {
  if (file_.fd() >= 0) ::unlink(path_.c_str());
}

uint64_t SpillFile::append(std::span<const std::byte> bytes) {
  if (bytes.size() > piece_) fail("{}: an append of {} bytes is larger than a piece ({})", path_, bytes.size(), piece_);
  if (file_.fd() < 0) file_ = File(path_, File::Mode::WriteDirect);
  if (!staging_.data()) staging_ = AlignedBuffer(piece_);
  const uint64_t padded = align_up(bytes.size(), kDirectAlignment);
  std::memcpy(staging_.data(), bytes.data(), bytes.size());
  std::memset(staging_.data() + bytes.size(), 0, padded - bytes.size());
  const std::span<const std::byte> pages(staging_.data(), padded);
  if (sums_) sums_->record(end_, pages);
  file_.pwrite_all(pages, end_);
  const uint64_t offset = end_;
  end_ += padded;
  bytes_written_ += padded;
  ++writes_;
  return offset;
}

void SpillFile::clear() {
  if (end_ == 0) return;
  end_ = 0;
  file_.truncate(0);
  if (sums_) sums_->clear();
}

}  // namespace graphso
