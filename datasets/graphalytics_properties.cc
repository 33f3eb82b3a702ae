#include "datasets/graphalytics_properties.h"

#include <string_view>

#include "base/error.h"
#include "base/file.h"
#include "datasets/text_input.h"

namespace graphso {
namespace {

std::string_view trimmed(std::string_view s) {
  const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string_view::npos ? std::string_view() : s.substr(a, b - a + 1);
}

// "a, b, c" -> {"a", "b", "c"}; empty -> {}.
std::vector<std::string> comma_list(std::string_view value) {
  std::vector<std::string> items;
  if (value.empty()) return items;
  for (size_t at = 0;;) {
    const size_t comma = value.find(',', at);
    items.emplace_back(trimmed(value.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at)));
    if (comma == std::string_view::npos) return items;
    at = comma + 1;
  }
}

}  // namespace

const std::string& GraphalyticsProperties::parameter(const std::string& key) const {
  const auto it = parameters.find(key);
  if (it == parameters.end()) fail("{}: graph.{}.{} is not given", path, name, key);
  return it->second;
}

GraphalyticsProperties read_graphalytics_properties(const std::string& path, const std::string& name) {
  GraphalyticsProperties p;
  p.path = path;
  p.name = name;
  if (!path_exists(path)) return p;
  p.found = true;
  LineReader reader(path);
  std::string_view line;
  const std::string prefix = "graph." + name + ".";
  while (reader.next(line)) {
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos || line.starts_with("#")) continue;
    const std::string_view key = trimmed(line.substr(0, eq)), value = trimmed(line.substr(eq + 1));
    if (!key.starts_with(prefix)) continue;
    const std::string_view field = key.substr(prefix.size());
    const Located at{path, reader.line_number()};
    if (field == "directed") {
      if (value != "true" && value != "false")
        fail("{}:{}: {} = '{}' (expected true or false)", path, at.line, key, printable(value));
      p.directed = value == "true";
    } else if (field == "edge-properties.names") {
      p.edge_properties = comma_list(value);
    } else if (field == "edge-properties.types") {
      p.edge_types = comma_list(value);
    } else if (field == "sssp.weight-property") {
      p.weight_property = value;
    } else if (field == "meta.vertices") {
      p.vertices = parse_id(value, at, "meta.vertices");
    } else if (field == "meta.edges") {
      p.edges = parse_id(value, at, "meta.edges");
    } else if (field == "algorithms") {
      p.algorithms = comma_list(value);
    } else if (field != "vertex-file" && field != "edge-file" && !field.starts_with("meta.") &&
               field.find('.') != std::string_view::npos) {
      p.parameters[std::string(field)] = std::string(value);
    }
  }
  if (!p.edge_types.empty() && p.edge_types.size() != p.edge_properties.size())
    fail("{}: edge-properties.types lists {} types for {} edge-properties.names", path, p.edge_types.size(),
         p.edge_properties.size());
  return p;
}

}  // namespace graphso
