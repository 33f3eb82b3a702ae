#include "datasets/edge_input.h"

#include <algorithm>
#include <cstring>

#include "base/dataset_ids.h"
#include "base/enum_names.h"
#include "base/error.h"
#include "base/file.h"
#include "base/progress.h"
#include "datasets/edge_list.h"
#include "datasets/format_readers.h"
#include "datasets/text_input.h"

namespace graphso {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

EdgeSet read_text(const std::string& path, bool weighted, bool ignore_weights, bool real) {
  LineReader reader(path);
  EdgeSet set;
  set.weighted = weighted;
  set.real_weights = weighted && real;
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
      e.weight = parse_weight_of_kind(real, c, at);
    } else if (has_third) {
      // A weight column read as no weights is a different graph: only when asked to.
      if (!ignore_weights)
        fail("{}:{}: a third column '{}' (a weight?): convert with --weighted to keep it as the edge weight, or --ignore-weights to drop it",
             path, at.line, printable(c));
      check_value(c, at);  // a dropped weight column must still be numbers
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

EdgeSet read_mtx(const std::string& path, bool want_weights, bool ignore_weights, bool real) {
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
  if (has_values && !want_weights && !ignore_weights)
    fail("{}:1: the matrix has {} values: convert with --weighted to keep them as edge weights, or --ignore-weights to drop them",
         path, printable(field));
  bool symmetric = symmetry == "symmetric";
  Progress progress = reading_progress(path);

  uint64_t rows = 0, cols = 0, entries = 0;
  bool have_size = false;
  EdgeSet set;
  set.weighted = want_weights;
  set.real_weights = want_weights && real;
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
      if (rows != cols)
        fail("{}:{}: a {} x {} matrix: a graph's adjacency matrix is square", path, at.line, rows, cols);
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
      if (want_weights) w = parse_weight_of_kind(real, c, at);
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
  set.real_weights = reader.info().real_weights;
  set.edges.reserve(reader.info().edges);
  std::vector<WeightedEdge> batch;
  Progress progress("reading " + path, reader.info().edges, "edges");
  while (reader.next_batch(batch, 1 << 20)) {
    set.edges.insert(set.edges.end(), batch.begin(), batch.end());
    progress.update(set.edges.size());
  }
  // The dataset's own ids travel with the edge list (base/dataset_ids.h).
  if (std::optional<DatasetIds> ids = DatasetIds::beside(path, set.vertices)) set.dataset_ids = ids->ids();
  return set;
}

}  // namespace

InputFormat format_from_name(const std::string& path) {
  std::string name = ends_with(path, ".gz") ? path.substr(0, path.size() - 3) : path;
  if (ends_with(name, ".mtx")) return InputFormat::Mtx;
  if (ends_with(name, ".raw")) return InputFormat::Raw;
  if (ends_with(name, ".bin")) return InputFormat::Graphso;
  if (ends_with(name, ".gr") || ends_with(name, ".co")) return InputFormat::Dimacs;
  if (ends_with(name, ".sg") || ends_with(name, ".wsg")) return InputFormat::Gapbs;
  if (ends_with(name, ".graph") || ends_with(name, ".metis")) return InputFormat::Metis;
  if (ends_with(name, ".v") || ends_with(name, ".e") || ends_with(name, ".properties")) return InputFormat::Graphalytics;
  return InputFormat::Text;  // .el .wel .txt .snap .tsv and anything else
}

namespace {
constexpr EnumName<InputFormat> kInputFormatNames[] = {{InputFormat::Auto, "auto"}, {InputFormat::Text, "text"},
                                                       {InputFormat::Mtx, "mtx"},   {InputFormat::Raw, "raw"},
                                                       {InputFormat::Graphso, "bin"}, {InputFormat::Dimacs, "gr"},
                                                       {InputFormat::Gapbs, "sg"},  {InputFormat::Metis, "metis"},
                                                       {InputFormat::Graphalytics, "graphalytics"}};
}  // namespace

InputFormat parse_input_format(const std::string& name) {
  return parse_enum<InputFormat>(kInputFormatNames, name, "input format");
}

EdgeSet read_edge_input(const std::string& path, const EdgeInputOptions& options) {
  InputFormat format = options.format;
  std::string name = ends_with(path, ".gz") ? path.substr(0, path.size() - 3) : path;
  if (format == InputFormat::Auto) format = format_from_name(path);
  bool weighted = options.weighted || options.real_weights || ends_with(name, ".wel");
  if (weighted && options.ignore_weights) fail("{}: --weighted and --ignore-weights: choose one", path);
  if (options.real_weights && format != InputFormat::Text && format != InputFormat::Mtx && format != InputFormat::Graphalytics)
    fail("{}: --real-weights reads a text, .mtx or Graphalytics weight column; this format's weights are integers", path);
  switch (format) {
    case InputFormat::Text: return read_text(path, weighted, options.ignore_weights, options.real_weights);
    case InputFormat::Mtx: return read_mtx(path, weighted, options.ignore_weights, options.real_weights);
    case InputFormat::Raw: return read_raw(path, weighted);
    case InputFormat::Graphso: return read_graphso(path);
    case InputFormat::Dimacs: return read_dimacs(path);
    case InputFormat::Gapbs: return read_gapbs(path, options.weighted || ends_with(name, ".wsg"));
    case InputFormat::Metis: return read_metis(path);
    case InputFormat::Graphalytics:
      return read_graphalytics(path, options.weighted || options.real_weights, options.ignore_weights, options.real_weights);
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
