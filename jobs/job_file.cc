#include "jobs/job_file.h"

#include <toml++/toml.h>

#include "engine/common/error.h"
#include "engine/common/file.h"

namespace graphso {

JobFile parse_job_file(const std::string& path) {
  if (!path_exists(path)) fail("{}: no such job file", path);
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    fail("{}:{}:{}: {}", path, e.source().begin.line, e.source().begin.column, std::string(e.description()));
  }
  for (auto&& [key, value] : root)
    if (key.str() != "job")
      fail("{}:{}: unknown top-level key '{}' (jobs are [[job]] tables)", path, value.source().begin.line, key.str());
  const toml::array* list = root["job"].as_array();
  if (!list || list->empty()) fail("{}: no [[job]] tables", path);

  JobFile file;
  for (size_t index = 0; index < list->size(); ++index) {
    const toml::node& node = (*list)[index];
    const toml::table* table = node.as_table();
    if (!table) fail("{}:{}: job {} is not a table (write [[job]])", path, node.source().begin.line, index);
    JobSpec spec;
    spec.origin = fmt::format("{}:{}: job {}", path, node.source().begin.line, index);
    uint32_t arrive_after = 0;
    for (auto&& [key_node, value] : *table) {
      std::string key(key_node.str());
      std::string where = fmt::format("{}:{}: job {}: {}", path, value.source().begin.line, index, key);
      if (key == "algo" || key == "name") {
        if (!value.is_string()) fail("{} must be a string", where);
        (key == "algo" ? spec.algo : spec.name) = *value.value<std::string>();
      } else if (key == "source" || key == "iterations" || key == "max_iterations" || key == "arrive_after") {
        if (!value.is_integer()) fail("{} must be an integer", where);
        int64_t v = *value.value<int64_t>();
        if (v < 0) fail("{} = {} must not be negative", where, v);
        if (key == "arrive_after") {
          if (v > 1000000) fail("{} = {} is too large", where, v);
          arrive_after = static_cast<uint32_t>(v);
        } else {
          spec.params[key] = std::to_string(v);
        }
      } else if (key == "tolerance") {
        if (!value.is_number()) fail("{} must be a number", where);
        spec.params[key] = fmt::format("{}", *value.value<double>());
      } else {
        fail("{}: unknown key (known: algo, name, source, iterations, tolerance, max_iterations, arrive_after)", where);
      }
    }
    if (spec.algo.empty()) fail("{}: missing algo", spec.origin);
    file.specs.push_back(std::move(spec));
    file.arrive_after.push_back(arrive_after);
  }
  return file;
}

}  // namespace graphso
