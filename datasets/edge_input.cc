#include "datasets/edge_input.h"

#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory>

#include "datasets/edge_list.h"
#include "base/enum_names.h"
#include "base/error.h"
#include "base/file.h"
#include "base/progress.h"

namespace graphso {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Reads a text file (gzip or plain, zlib tells them apart) line by line.
class LineReader {
 public:
  explicit LineReader(const std::string& path) : path_(path), file_(gzopen(path.c_str(), "rb")) {
    if (!file_) fail("{}: cannot open: {}", path, errno_text(errno));
    gzbuffer(file_.get(), 1 << 20);
  }
  // Returns false at end of input. line excludes the newline.
  bool next(std::string_view& line) {
    while (true) {
      const char* begin = buffer_.data() + pos_;
      const char* end = buffer_.data() + filled_;
      const char* newline = static_cast<const char*>(std::memchr(begin, '\n', end - begin));
      if (newline) {
        line = std::string_view(begin, newline - begin);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        pos_ = newline - buffer_.data() + 1;
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
  uint64_t line_number() const { return line_number_; }
  // The line the decompressed input has reached (lines handed out plus those already buffered).
  uint64_t lines_reached() const {
    return line_number_ + 1 + static_cast<uint64_t>(std::count(buffer_.data() + pos_, buffer_.data() + filled_, '\n'));
  }
  uint64_t compressed_offset() const { return gzoffset(file_.get()); }

 private:
  void refill() {
    // Move the unfinished line to the front, grow if one line fills the buffer.
    size_t keep = filled_ - pos_;
    std::memmove(buffer_.data(), buffer_.data() + pos_, keep);
    pos_ = 0;
    filled_ = keep;
    if (buffer_.size() - filled_ < (1u << 20)) buffer_.resize(buffer_.size() * 2);
    int n = gzread(file_.get(), buffer_.data() + filled_,
                   static_cast<unsigned>(buffer_.size() - filled_));
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

  struct GzClose {
    void operator()(gzFile f) const { gzclose(f); }
  };
  std::string path_;
  std::unique_ptr<gzFile_s, GzClose> file_;
  std::vector<char> buffer_ = std::vector<char>(4u << 20);
  size_t pos_ = 0;
  size_t filled_ = 0;
  bool eof_ = false;
  uint64_t line_number_ = 0;
};

// Tokens split on spaces and tabs.
class Tokens {
 public:
  explicit Tokens(std::string_view line) : rest_(line) {}
  bool next(std::string_view& token) {
    size_t start = rest_.find_first_not_of(" \t");
    if (start == std::string_view::npos) return false;
    size_t stop = rest_.find_first_of(" \t", start);
    token = rest_.substr(start, stop == std::string_view::npos ? rest_.size() - start : stop - start);
    rest_ = stop == std::string_view::npos ? std::string_view() : rest_.substr(stop);
    return true;
  }

 private:
  std::string_view rest_;
};

struct Located {
  const std::string& path;
  uint64_t line;
};

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

Weight parse_weight(std::string_view token, const Located& at) {
  double value = 0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size())
    fail("{}:{}: weight '{}' is not a number", at.path, at.line, printable(token));
  if (value < 0 || value != std::floor(value) || value > 4294967295.0)
    fail("{}:{}: weight '{}' is not an integer in [0, 2^32-1] (graphso stores integer weights)",
         at.path, at.line, printable(token));
  return static_cast<Weight>(value);
}

// A value column that is not used as a weight must still be a finite number.
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

// Reading progress over the file's bytes on disk (compressed bytes for .gz, which is where
// LineReader::compressed_offset counts), so every input shows a percentage and an ETA.
Progress reading_progress(const std::string& path) {
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  return Progress("reading " + path, error ? 0 : static_cast<uint64_t>(size), "bytes");
}

EdgeSet read_text(const std::string& path, bool weighted) {
  LineReader reader(path);
  EdgeSet set;
  set.weighted = weighted;
  Progress progress = reading_progress(path);
  std::string_view line;
  uint64_t max_id_plus_one = 0;
  while (reader.next(line)) {
    if (line.starts_with(kVertexCountComment)) {
      Located at{path, reader.line_number()};
      std::string_view count = line.substr(kVertexCountComment.size());
      count = count.substr(0, count.find_last_not_of(" \t\r") + 1);
      const uint64_t declared = parse_id(count, at, "vertex count");
      if (declared > kMaxVertexId + uint64_t{1}) fail("{}:{}: {} vertices exceed the maximum of 2^32-1", path, at.line, declared);
      max_id_plus_one = std::max(max_id_plus_one, declared);
      continue;
    }
    if (is_comment_or_blank(line)) continue;
    Located at{path, reader.line_number()};
    Tokens tokens(line);
    std::string_view a, b, c, extra;
    if (!tokens.next(a) || !tokens.next(b))
      fail("{}:{}: expected 'src dst{}', got '{}'", path, at.line, weighted ? " weight" : "",
           printable(line.substr(0, 80)));
    WeightedEdge e{checked_id(parse_id(a, at, "source id"), at),
                   checked_id(parse_id(b, at, "destination id"), at), 1};
    bool has_third = tokens.next(c);
    if (weighted) {
      if (!has_third) fail("{}:{}: missing weight (third column) in a weighted edge list", path, at.line);
      e.weight = parse_weight(c, at);
    } else if (has_third) {
      parse_weight(c, at);  // an ignored weight column must still be a number
    }
    if (tokens.next(extra))
      fail("{}:{}: unexpected extra column '{}'", path, at.line, printable(extra));
    max_id_plus_one = std::max<uint64_t>(max_id_plus_one, uint64_t{std::max(e.src, e.dst)} + 1);
    set.edges.push_back(e);
    if ((set.edges.size() & 0xFFFF) == 0) progress.update(reader.compressed_offset());
  }
  set.vertices = max_id_plus_one;
  return set;
}

EdgeSet read_mtx(const std::string& path, bool want_weights) {
  LineReader reader(path);
  std::string_view line;
  if (!reader.next(line)) fail("{}:1: empty file, expected a %%MatrixMarket header", path);
  std::string header(line);
  for (char& ch : header) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  Tokens tokens(header);
  std::string_view banner, object, layout, field, symmetry;
  if (!tokens.next(banner) || banner != "%%matrixmarket" || !tokens.next(object) ||
      object != "matrix" || !tokens.next(layout) || !tokens.next(field) || !tokens.next(symmetry))
    fail("{}:1: expected '%%MatrixMarket matrix coordinate <field> <symmetry>'", path);
  if (layout != "coordinate") fail("{}:1: only coordinate Matrix Market files hold graphs", path);
  bool has_values = field != "pattern";
  if (has_values && field != "integer" && field != "real")
    fail("{}:1: unsupported Matrix Market field '{}'", path, printable(field));
  if (symmetry != "general" && symmetry != "symmetric")
    fail("{}:1: unsupported Matrix Market symmetry '{}'", path, printable(symmetry));
  if (want_weights && !has_values)
    fail("{}:1: --weighted given but the matrix is 'pattern' (no values)", path);
  bool symmetric = symmetry == "symmetric";
  Progress progress = reading_progress(path);

  uint64_t rows = 0, cols = 0, entries = 0;
  bool have_size = false;
  EdgeSet set;
  set.weighted = want_weights;
  uint64_t seen = 0;
  while (reader.next(line)) {
    if (is_comment_or_blank(line)) continue;
    Located at{path, reader.line_number()};
    Tokens t(line);
    std::string_view a, b, c, extra;
    if (!have_size) {
      if (!t.next(a) || !t.next(b) || !t.next(c) || t.next(extra))
        fail("{}:{}: expected the size line 'rows cols entries'", path, at.line);
      rows = parse_id(a, at, "row count");
      cols = parse_id(b, at, "column count");
      entries = parse_id(c, at, "entry count");
      if (std::max(rows, cols) > kMaxVertexId + 1)
        fail("{}:{}: {} vertices exceed the maximum of 2^32-1", path, at.line, std::max(rows, cols));
      have_size = true;
      // The declared count is the file's word: reserve no more than a plausible start, so a
      // header declaring 10^12 entries is refused by the entries it lacks, not by the allocator.
      set.edges.reserve(std::min<uint64_t>(symmetric ? 2 * entries : entries, uint64_t{1} << 24));
      continue;
    }
    if (!t.next(a) || !t.next(b))
      fail("{}:{}: expected 'row col{}'", path, at.line, has_values ? " value" : "");
    uint64_t i = parse_id(a, at, "row index"), j = parse_id(b, at, "column index");
    if (i < 1 || i > rows) fail("{}:{}: row index {} outside 1..{}", path, at.line, i, rows);
    if (j < 1 || j > cols) fail("{}:{}: column index {} outside 1..{}", path, at.line, j, cols);
    Weight w = 1;
    if (has_values) {
      if (!t.next(c)) fail("{}:{}: missing value", path, at.line);
      if (want_weights) w = parse_weight(c, at);
      else check_value(c, at);
    }
    if (t.next(extra)) fail("{}:{}: unexpected extra column '{}'", path, at.line, printable(extra));
    if (++seen > entries) fail("{}:{}: more entries than the {} declared", path, at.line, entries);
    WeightedEdge e{static_cast<VertexId>(i - 1), static_cast<VertexId>(j - 1), w};
    set.edges.push_back(e);
    if (symmetric && i != j) set.edges.push_back({e.dst, e.src, w});
    if ((seen & 0xFFFF) == 0) progress.update(reader.compressed_offset());
  }
  if (!have_size) fail("{}: no size line", path);
  if (seen != entries)
    fail("{}:{}: file ends after {} entries, the header declares {}", path, reader.line_number(),
         seen, entries);
  set.vertices = std::max(rows, cols);
  return set;
}

EdgeSet read_raw(const std::string& path, bool weighted) {
  File file(path, File::Mode::Read);
  uint32_t record = edge_bytes(weighted);
  uint64_t size = file.size();
  if (size % record != 0)
    fail("{}: size {} bytes is not a multiple of the {}-byte {} record (wrong --weighted?)", path,
         size, record, weighted ? "weighted" : "unweighted");
  EdgeSet set;
  set.weighted = weighted;
  uint64_t count = size / record;
  set.edges.resize(count);
  std::vector<std::byte> raw(std::min<uint64_t>(size, 64ull << 20));
  uint64_t max_id_plus_one = 0;
  Progress progress = reading_progress(path);
  for (uint64_t done = 0; done < count;) {
    uint64_t batch = std::min<uint64_t>(count - done, raw.size() / record);
    file.pread_exact(std::span<std::byte>(raw.data(), batch * record), done * record);
    for (uint64_t i = 0; i < batch; ++i) {
      WeightedEdge e{0, 0, 1};
      std::memcpy(&e, raw.data() + i * record, record);
      if (e.src > kMaxVertexId || e.dst > kMaxVertexId)
        fail("{}: edge {} uses the reserved vertex id 4294967295", path, done + i);
      max_id_plus_one = std::max<uint64_t>(max_id_plus_one, uint64_t{std::max(e.src, e.dst)} + 1);
      set.edges[done + i] = e;
    }
    done += batch;
    progress.update(done * record);
  }
  set.vertices = max_id_plus_one;
  return set;
}

EdgeSet read_graphso(const std::string& path) {
  EdgeListReader reader(path);
  EdgeSet set;
  set.vertices = reader.info().vertices;
  set.weighted = reader.info().weighted;
  set.edges.reserve(reader.info().edges);
  std::vector<WeightedEdge> batch;
  Progress progress("reading " + path, reader.info().edges, "edges");
  while (reader.next_batch(batch, 1 << 20)) {
    set.edges.insert(set.edges.end(), batch.begin(), batch.end());
    progress.update(set.edges.size());
  }
  return set;
}

}  // namespace

InputFormat format_from_name(const std::string& path) {
  std::string name = ends_with(path, ".gz") ? path.substr(0, path.size() - 3) : path;
  if (ends_with(name, ".mtx")) return InputFormat::Mtx;
  if (ends_with(name, ".raw")) return InputFormat::Raw;
  if (ends_with(name, ".bin")) return InputFormat::Graphso;
  return InputFormat::Text;  // .el .wel .txt .snap .tsv and anything else
}

namespace {
constexpr EnumName<InputFormat> kInputFormatNames[] = {{InputFormat::Auto, "auto"}, {InputFormat::Text, "text"},
                                                       {InputFormat::Mtx, "mtx"},   {InputFormat::Raw, "raw"},
                                                       {InputFormat::Graphso, "bin"}};
}  // namespace

InputFormat parse_input_format(const std::string& name) {
  return parse_enum<InputFormat>(kInputFormatNames, name, "input format");
}

EdgeSet read_edge_input(const std::string& path, const EdgeInputOptions& options) {
  InputFormat format = options.format;
  std::string name = ends_with(path, ".gz") ? path.substr(0, path.size() - 3) : path;
  if (format == InputFormat::Auto) format = format_from_name(path);
  bool weighted = options.weighted || ends_with(name, ".wel");
  switch (format) {
    case InputFormat::Text: return read_text(path, weighted);
    case InputFormat::Mtx: return read_mtx(path, weighted);
    case InputFormat::Raw: return read_raw(path, weighted);
    case InputFormat::Graphso: return read_graphso(path);
    case InputFormat::Auto: break;
  }
  fail("{}: cannot tell the input format", path);
}

void apply_transforms(EdgeSet& set, const EdgeTransforms& transforms) {
  auto& edges = set.edges;
  if (transforms.drop_self_loops)
    std::erase_if(edges, [](const WeightedEdge& e) { return e.src == e.dst; });
  if (transforms.symmetrize) {
    size_t original = edges.size();
    edges.reserve(2 * original);
    for (size_t i = 0; i < original; ++i)
      if (edges[i].src != edges[i].dst) edges.push_back({edges[i].dst, edges[i].src, edges[i].weight});
  }
  if (transforms.dedup) {
    std::sort(edges.begin(), edges.end(), [](const WeightedEdge& a, const WeightedEdge& b) {
      return std::tie(a.src, a.dst, a.weight) < std::tie(b.src, b.dst, b.weight);
    });
    auto last = std::unique(edges.begin(), edges.end(), [](const WeightedEdge& a, const WeightedEdge& b) {
      return a.src == b.src && a.dst == b.dst;
    });
    edges.erase(last, edges.end());
  }
}

}  // namespace graphso
