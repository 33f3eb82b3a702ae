// LDBC Graphalytics datasets: NAME.v lists the vertices (one id per line, any 64-bit ids in any
// order), NAME.e the edges ("src dst" and one column per edge property), and NAME.properties, when
// present, is the dataset's word: whether it is directed, its edge properties, which one SSSP
// weighs (sssp.weight-property, else the only one) and how many vertices and edges the files
// hold; a file that disagrees with it is refused. Without it, a third column is a
// weight under --weighted, dropped under --ignore-weights, and an error otherwise. graphso numbers
// the vertices 0..n-1 in ascending id order and keeps the ids (EdgeSet::dataset_ids), so jobs and
// results use the dataset's ids. An undirected dataset lists each edge once: it is read in both
// directions.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/file.h"
#include "datasets/format_readers.h"
#include "datasets/graphalytics_properties.h"
#include "datasets/text_input.h"

namespace graphso {
namespace {

// The column (among the edge properties) that holds the weights, or -1: the one sssp.weight-property
// names, else the only property there is.
int weight_column(const GraphalyticsProperties& p) {
  if (!p.weight_property.empty()) {
    const auto it = std::find(p.edge_properties.begin(), p.edge_properties.end(), p.weight_property);
    if (it == p.edge_properties.end())
      fail("{}: sssp.weight-property = {} is not among edge-properties.names ({})", p.path, p.weight_property,
           p.edge_properties.empty() ? "none" : fmt::format("{}", fmt::join(p.edge_properties, ", ")));
    return static_cast<int>(it - p.edge_properties.begin());
  }
  return p.edge_properties.size() == 1 ? 0 : -1;
}

// A dataset id's dense number (its rank among the sorted ids), kNoVertex when it is not one. By
// a table when the ids are compact (the largest below 8 times their count: at most 32 bytes a
// vertex), else by binary search: on graph500-22 (4.2 M ids, 67 M edges) the search's cache misses
// were 85% of the reader's time, 73 s of convert.
class DenseIds {
 public:
  explicit DenseIds(const std::vector<uint64_t>& sorted) : sorted_(sorted) {
    if (sorted.back() / 8 >= sorted.size()) return;
    table_.assign(sorted.back() + 1, kNoVertex);
    for (uint64_t k = 0; k < sorted.size(); ++k) table_[sorted[k]] = static_cast<VertexId>(k);
  }
  VertexId of(uint64_t id) const {
    if (!table_.empty()) return id < table_.size() ? table_[id] : kNoVertex;
    const auto it = std::lower_bound(sorted_.begin(), sorted_.end(), id);
    return it == sorted_.end() || *it != id ? kNoVertex : static_cast<VertexId>(it - sorted_.begin());
  }

 private:
  const std::vector<uint64_t>& sorted_;
  std::vector<VertexId> table_;
};

std::string without_extension(const std::string& path) {
  for (const char* ext : {".properties", ".v", ".e"})
    if (path.ends_with(ext)) return path.substr(0, path.size() - std::string_view(ext).size());
  return path;
}

std::vector<uint64_t> read_vertex_file(const std::string& path) {
  LineReader reader(path);
  std::vector<uint64_t> ids;
  std::string_view line;
  while (reader.next(line)) {
    if (is_comment_or_blank(line)) continue;
    const Located at{path, reader.line_number()};
    Tokens tokens(line);
    std::string_view id, extra;
    tokens.next(id);
    if (tokens.next(extra)) fail("{}:{}: expected one vertex id, got '{}'", path, at.line, printable(line.substr(0, 80)));
    ids.push_back(parse_id(id, at, "vertex id"));
  }
  std::sort(ids.begin(), ids.end());
  if (const auto twice = std::adjacent_find(ids.begin(), ids.end()); twice != ids.end())
    fail("{}: vertex {} is listed more than once", path, *twice);
  if (ids.empty()) fail("{}: no vertices", path);
  if (ids.size() > kMaxVertexId + uint64_t{1}) fail("{}: {} vertices exceed the maximum of 2^32-1", path, ids.size());
  return ids;
}

}  // namespace

EdgeSet read_graphalytics(const std::string& path, bool weighted, bool ignore_weights, bool real) {
  const std::string base = without_extension(path);
  const std::string name = base.substr(base.find_last_of('/') + 1);
  const GraphalyticsProperties properties = read_graphalytics_properties(base + ".properties", name);
  const std::string vertex_file = base + ".v", edge_file = base + ".e";
  if (!path_exists(vertex_file)) fail("{}: missing (a Graphalytics dataset is NAME.v with NAME.e)", vertex_file);
  std::vector<uint64_t> ids = read_vertex_file(vertex_file);
  if (properties.vertices && *properties.vertices != ids.size())
    fail("{}: meta.vertices = {}, but {} lists {} vertices", properties.path, *properties.vertices, vertex_file, ids.size());

  // The columns after "src dst": as the properties name them, or (no properties file) a weight
  // when --weighted says so.
  const int weight_at = properties.found ? weight_column(properties) : (weighted ? 0 : -1);
  if (properties.found && weighted && weight_at < 0)
    fail("{}: --weighted, but it names no weight (edge-properties.names = {}, no sssp.weight-property)", properties.path,
         properties.edge_properties.empty() ? "none" : fmt::format("{}", fmt::join(properties.edge_properties, ", ")));
  // The property columns a line must have, and may have: without a properties file, a weight
  // column under --weighted, or one that --ignore-weights drops if it is there.
  const size_t columns = properties.found ? properties.edge_properties.size() : weighted ? 1 : 0;
  const size_t most_columns = properties.found ? columns : weighted || ignore_weights ? 1 : 0;
  const std::string weight_name = weight_at < 0 ? "" : properties.found ? properties.edge_properties[weight_at] : "weight";
  // Real when its type says so (or --real-weights), else integers.
  const bool real_weight =
      weight_at >= 0 && (real || (!properties.edge_types.empty() && properties.edge_types[weight_at] == "real"));

  EdgeSet set;
  set.vertices = ids.size();
  set.weighted = weight_at >= 0 && !ignore_weights;
  set.real_weights = set.weighted && real_weight;
  const DenseIds numbering(ids);
  auto dense = [&](std::string_view token, const Located& at, const char* what) {
    const uint64_t id = parse_id(token, at, what);
    const VertexId v = numbering.of(id);
    if (v == kNoVertex) fail("{}:{}: {} {} is not in {}", at.path, at.line, what, id, vertex_file);
    return v;
  };
  LineReader reader(edge_file);
  Progress progress = reading_progress(edge_file);
  std::string_view line;
  while (reader.next(line)) {
    if (is_comment_or_blank(line)) continue;
    const Located at{edge_file, reader.line_number()};
    Tokens tokens(line);
    std::string_view a, b, value;
    if (!tokens.next(a) || !tokens.next(b))
      fail("{}:{}: expected 'src dst{}', got '{}'", edge_file, at.line, columns ? " + " + std::to_string(columns) + " properties" : "",
           printable(line.substr(0, 80)));
    WeightedEdge e{dense(a, at, "source"), dense(b, at, "destination"), 1};
    size_t column = 0;
    for (; tokens.next(value); ++column) {
      if (column == most_columns) {
        if (most_columns == 0 && !properties.found)
          fail("{}:{}: a third column '{}' (a weight?): convert with --weighted to keep it as the edge weight, or --ignore-weights to drop it",
               edge_file, at.line, printable(value));
        if (properties.found)
          fail("{}:{}: unexpected extra column '{}' ({} names {} edge properties)", edge_file, at.line, printable(value),
               properties.path, columns);
        fail("{}:{}: unexpected extra column '{}'", edge_file, at.line, printable(value));
      }
      if (static_cast<int>(column) != weight_at) {
        check_value(value, at);
        continue;
      }
      if (set.weighted) e.weight = parse_weight_of_kind(set.real_weights, value, at, weight_name);
      else check_value(value, at);
    }
    if (column < columns && !properties.found) fail("{}:{}: missing weight (third column) in a weighted dataset", edge_file, at.line);
    if (column < columns)
      fail("{}:{}: the line has {} of the {} edge properties ({})", edge_file, at.line, column, columns,
           fmt::join(properties.edge_properties, ", "));
    set.edges.push_back(e);
    if ((set.edges.size() & 0xFFFF) == 0) progress.update(reader.compressed_offset());
  }
  if (properties.edges && *properties.edges != set.edges.size())
    fail("{}: meta.edges = {}, but {} lists {} edges", properties.path, *properties.edges, edge_file, set.edges.size());
  if (!properties.directed) {
    const size_t listed = set.edges.size();
    for (size_t i = 0; i < listed; ++i)
      if (set.edges[i].src != set.edges[i].dst) set.edges.push_back({set.edges[i].dst, set.edges[i].src, set.edges[i].weight});
  }
  // 0..n-1 needs no map.
  if (ids.back() != ids.size() - 1) set.dataset_ids = std::move(ids);
  return set;
}

}  // namespace graphso
