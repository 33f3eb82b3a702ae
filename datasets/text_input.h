// What every text input shares (edge_input.cc, the readers of foreign formats, and the result
// files `validate` compares): lines from a plain or gzip file, tokens, and the checked parsing of
// ids and weights whose errors name "file:line".
#pragma once

#include <zlib.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/progress.h"
#include "base/types.h"

namespace graphso {

// Reads a text file (gzip or plain, zlib tells them apart) line by line.
class LineReader {
 public:
  explicit LineReader(const std::string& path);
  // Returns false at end of input. line excludes the newline (and a carriage return before it).
  bool next(std::string_view& line);
  uint64_t line_number() const { return line_number_; }
  // The line the decompressed input has reached (lines handed out plus those already buffered).
  uint64_t lines_reached() const;
  uint64_t compressed_offset() const { return gzoffset(file_.get()); }

 private:
  void refill();
  struct GzClose {
    void operator()(gzFile f) const { gzclose(f); }
  };
  std::string path_;
  std::unique_ptr<gzFile_s, GzClose> file_;
  // Sized to the file (up to 4 MiB, at 16 times its bytes on disk, gzip's ratio on edge lists
  // being below that), so one read takes in a small file whole and a small file costs little (the
  // fuzz targets read thousands a second); not zero-filled.
  size_t size_;
  std::unique_ptr<char[]> buffer_;
  size_t pos_ = 0;
  size_t filled_ = 0;
  bool eof_ = false;
  uint64_t line_number_ = 0;
};

// Tokens split on spaces and tabs.
class Tokens {
 public:
  explicit Tokens(std::string_view line) : rest_(line) {}
  bool next(std::string_view& token);

 private:
  std::string_view rest_;
};

// Where a token was read, for error messages.
struct Located {
  const std::string& path;
  uint64_t line;
};

// A non-negative integer (what: "source id", "vertex count"...), any size up to 2^64-1.
uint64_t parse_id(std::string_view token, const Located& at, const char* what);
// An id that fits a vertex id (at most kMaxVertexId).
VertexId checked_id(uint64_t id, const Located& at);
// An integer weight in [0, 2^32-1] (5.0 is read as 5). Errors name the column `what` (a
// Graphalytics dataset's weight property).
Weight parse_weight(std::string_view token, const Located& at, std::string_view what = "weight");
// A real weight: a finite number >= 0 within binary32's range, stored as binary32 (base/types.h;
// -0 is stored as 0). Errors as parse_weight's.
Weight parse_real_weight(std::string_view token, const Located& at, std::string_view what = "weight");
// A weight column's value: parse_real_weight when the graph's weights are real, else parse_weight.
inline Weight parse_weight_of_kind(bool real, std::string_view token, const Located& at, std::string_view what = "weight") {
  return real ? parse_real_weight(token, at, what) : parse_weight(token, at, what);
}
// A value column that is not used as a weight must still be a finite number.
void check_value(std::string_view token, const Located& at);
// '#' and '%' start comments.
bool is_comment_or_blank(std::string_view line);

// Reading progress over the file's bytes on disk (compressed bytes for .gz, which is where
// LineReader::compressed_offset counts), so every input shows a percentage and an ETA.
Progress reading_progress(const std::string& path);

}  // namespace graphso
