// LDBC Graphalytics datasets: NAME.v lists the vertices (one id per line, any 64-bit ids in any
// order), NAME.e the edges ("src dst" or "src dst weight"), and NAME.properties, when present,
// says whether the graph is directed and names its edge properties. graphso numbers the vertices
// 0..n-1 in ascending id order and keeps the ids (EdgeSet::dataset_ids), so jobs and results use
// the dataset's ids. An undirected dataset lists each edge once: it is read in both directions.
#include <algorithm>
#include <fstream>

#include "base/error.h"
#include "base/file.h"
#include "datasets/format_readers.h"
#include "datasets/text_input.h"

namespace graphso {
namespace {

struct Properties {
  bool found = false;
  bool directed = true;
  bool weighted = false;
};

// graph.NAME.directed and graph.NAME.edge-properties.names, the keys graphso needs.
Properties read_properties(const std::string& path, const std::string& name) {
  Properties p;
  if (!path_exists(path)) return p;
  p.found = true;
  LineReader reader(path);
  std::string_view line;
  const std::string prefix = "graph." + name + ".";
  while (reader.next(line)) {
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos || line.starts_with("#")) continue;
    auto trim = [](std::string_view s) {
      const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
      return a == std::string_view::npos ? std::string_view() : s.substr(a, b - a + 1);
    };
    const std::string_view key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
    if (key == prefix + "directed") {
      if (value != "true" && value != "false")
        fail("{}:{}: {} = '{}' (expected true or false)", path, reader.line_number(), key, printable(value));
      p.directed = value == "true";
    } else if (key == prefix + "edge-properties.names") {
      p.weighted = value.find("weight") != std::string_view::npos;
    }
  }
  return p;
}

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

EdgeSet read_graphalytics(const std::string& path, bool weighted) {
  const std::string base = without_extension(path);
  const std::string name = base.substr(base.find_last_of('/') + 1);
  const Properties properties = read_properties(base + ".properties", name);
  const std::string vertex_file = base + ".v", edge_file = base + ".e";
  if (!path_exists(vertex_file)) fail("{}: missing (a Graphalytics dataset is NAME.v with NAME.e)", vertex_file);
  std::vector<uint64_t> ids = read_vertex_file(vertex_file);

  EdgeSet set;
  set.vertices = ids.size();
  set.weighted = weighted || properties.weighted;
  auto dense = [&](std::string_view token, const Located& at, const char* what) {
    const uint64_t id = parse_id(token, at, what);
    const auto it = std::lower_bound(ids.begin(), ids.end(), id);
    if (it == ids.end() || *it != id) fail("{}:{}: {} {} is not in {}", at.path, at.line, what, id, vertex_file);
    return static_cast<VertexId>(it - ids.begin());
  };
  LineReader reader(edge_file);
  Progress progress = reading_progress(edge_file);
  std::string_view line;
  while (reader.next(line)) {
    if (is_comment_or_blank(line)) continue;
    const Located at{edge_file, reader.line_number()};
    Tokens tokens(line);
    std::string_view a, b, c, extra;
    if (!tokens.next(a) || !tokens.next(b))
      fail("{}:{}: expected 'src dst{}', got '{}'", edge_file, at.line, set.weighted ? " weight" : "", printable(line.substr(0, 80)));
    WeightedEdge e{dense(a, at, "source"), dense(b, at, "destination"), 1};
    const bool has_weight = tokens.next(c);
    if (set.weighted) {
      if (!has_weight) fail("{}:{}: missing weight (third column) in a weighted dataset", edge_file, at.line);
      e.weight = parse_weight(c, at);
    } else if (has_weight) {
      check_value(c, at);
    }
    if (tokens.next(extra)) fail("{}:{}: unexpected extra column '{}'", edge_file, at.line, printable(extra));
    set.edges.push_back(e);
    if ((set.edges.size() & 0xFFFF) == 0) progress.update(reader.compressed_offset());
  }
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
