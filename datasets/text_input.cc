#include "datasets/text_input.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include "base/error.h"

namespace graphso {

LineReader::LineReader(const std::string& path) : path_(path), file_(gzopen(path.c_str(), "rb")) {
  if (!file_) fail("{}: cannot open: {}", path, errno_text(errno));
  std::error_code error;
  const uint64_t bytes = std::filesystem::file_size(path, error);
  size_ = static_cast<size_t>(error ? 4u << 20 : std::clamp<uint64_t>(16 * bytes, 64u << 10, 4u << 20));
  buffer_.reset(new char[size_]);
  gzbuffer(file_.get(), 1 << 20);
}

bool LineReader::next(std::string_view& line) {
  while (true) {
    const char* begin = buffer_.get() + pos_;
    const char* end = buffer_.get() + filled_;
    const char* newline = static_cast<const char*>(std::memchr(begin, '\n', end - begin));
    if (newline) {
      line = std::string_view(begin, newline - begin);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      pos_ = newline - buffer_.get() + 1;
      ++line_number_;
      return true;
    }
    if (eof_) {
      if (begin == end) return false;
      line = std::string_view(begin, end - begin);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      pos_ = filled_;
      ++line_number_;
      return true;
    }
    refill();
  }
}

uint64_t LineReader::lines_reached() const {
  return line_number_ + 1 + static_cast<uint64_t>(std::count(buffer_.get() + pos_, buffer_.get() + filled_, '\n'));
}

void LineReader::refill() {
  // Move the unfinished line to the front, grow if one line fills the buffer.
  size_t keep = filled_ - pos_;
  std::memmove(buffer_.get(), buffer_.get() + pos_, keep);
  pos_ = 0;
  filled_ = keep;
  if (size_ - filled_ < std::min<size_t>(size_ / 2, 1u << 20)) {  // one line fills much of it
    std::unique_ptr<char[]> larger(new char[2 * size_]);
    std::memcpy(larger.get(), buffer_.get(), filled_);
    buffer_ = std::move(larger);
    size_ *= 2;
  }
  int n = gzread(file_.get(), buffer_.get() + filled_, static_cast<unsigned>(size_ - filled_));
  if (n > 0) filled_ += static_cast<size_t>(n);
  int code = Z_OK;
  const char* message = gzerror(file_.get(), &code);
  // zlib hands out what it decompressed before a damaged or truncated stream and reports the
  // damage (Z_DATA_ERROR; Z_BUF_ERROR: the stream ends early) only through gzerror.
  if (n < 0 || (code != Z_OK && code != Z_STREAM_END)) {
    if (code == Z_BUF_ERROR)
      fail("{}: the compressed input ends early (truncated?) around line {}", path_, lines_reached());
    fail("{}: read error around line {}: {}", path_, lines_reached(), n < 0 && code == Z_ERRNO ? errno_text(errno) : message);
  }
  if (n == 0) eof_ = true;
}

bool Tokens::next(std::string_view& token) {
  size_t start = rest_.find_first_not_of(" \t");
  if (start == std::string_view::npos) return false;
  size_t stop = rest_.find_first_of(" \t", start);
  token = rest_.substr(start, stop == std::string_view::npos ? rest_.size() - start : stop - start);
  rest_ = stop == std::string_view::npos ? std::string_view() : rest_.substr(stop);
  return true;
}

uint64_t parse_id(std::string_view token, const Located& at, const char* what) {
  if (!token.empty() && token[0] == '-')
    fail("{}:{}: negative {} '{}'", at.path, at.line, what, printable(token));
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec == std::errc::result_out_of_range)
    fail("{}:{}: {} '{}' is out of range (largest allowed id is {})", at.path, at.line, what, printable(token),
         kMaxVertexId);
  if (ec != std::errc() || end != token.data() + token.size())
    fail("{}:{}: {} '{}' is not a non-negative integer", at.path, at.line, what, printable(token));
  return value;
}

VertexId checked_id(uint64_t id, const Located& at) {
  if (id > kMaxVertexId)
    fail("{}:{}: vertex id {} is out of range (largest allowed id is {})", at.path, at.line, id,
         kMaxVertexId);
  return static_cast<VertexId>(id);
}

Weight parse_weight(std::string_view token, const Located& at, std::string_view what) {
  double value = 0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size())
    fail("{}:{}: {} '{}' is not a number", at.path, at.line, what, printable(token));
  if (value < 0 || value != std::floor(value) || value > 4294967295.0)
    fail("{}:{}: {} '{}' is not an integer in [0, 2^32-1] (a graph of real weights: convert --real-weights)", at.path,
         at.line, what, printable(token));
  return static_cast<Weight>(value);
}

Weight parse_real_weight(std::string_view token, const Located& at, std::string_view what) {
  double value = 0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size())
    fail("{}:{}: {} '{}' is not a number", at.path, at.line, what, printable(token));
  if (!(value >= 0) || value > std::numeric_limits<float>::max())
    fail("{}:{}: {} '{}' is not a finite number in [0, 3.4e38] (real weights are stored as binary32)", at.path,
         at.line, what, printable(token));
  return real_weight_bits(static_cast<float>(value) + 0.0f);  // + 0: -0 becomes 0
}

void check_value(std::string_view token, const Located& at) {
  double value = 0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size() || !std::isfinite(value))
    fail("{}:{}: value '{}' is not a finite number", at.path, at.line, printable(token));
}

bool is_comment_or_blank(std::string_view line) {
  size_t start = line.find_first_not_of(" \t");
  return start == std::string_view::npos || line[start] == '#' || line[start] == '%';
}

Progress reading_progress(const std::string& path) {
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  return Progress("reading " + path, error ? 0 : static_cast<uint64_t>(size), "bytes");
}

}  // namespace graphso
