#include "jobs/job_spec.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

#include "engine/common/error.h"
#include "jobs/bfs.h"
#include "jobs/pagerank.h"
#include "jobs/sssp.h"
#include "jobs/wcc.h"

namespace graphso {
namespace {

struct AlgoInfo {
  const char* name;
  std::vector<std::string> keys;  // parameters it accepts besides "name"
};

const std::vector<AlgoInfo>& algorithms() {
  static const std::vector<AlgoInfo> table = {
      {"bfs", {"source"}},
      {"sssp", {"source"}},
      {"wcc", {"method"}},
      {"pagerank", {"iterations"}},
      {"pagerank-delta", {"tolerance", "max_iterations"}},
  };
  return table;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out.empty() ? "none" : out;
}

uint64_t integer_param(const JobSpec& spec, const std::string& key) {
  const std::string& text = spec.params.at(key);
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    fail("{}: {} = '{}' is not a non-negative integer", spec.where(key), key, text);
  return value;
}

double real_param(const JobSpec& spec, const std::string& key) {
  const std::string& text = spec.params.at(key);
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    fail("{}: {} = '{}' is not a number", spec.where(key), key, text);
  return value;
}

VertexId source_param(const JobSpec& spec, uint64_t vertices, const VertexOrder* order) {
  if (!spec.params.count("source")) fail("{}: {} needs a source (e.g. {}:source=0)", spec.origin, spec.algo, spec.algo);
  uint64_t source = integer_param(spec, "source");
  if (source >= vertices)
    fail("{}: source = {} is out of range (the graph has vertices 0..{})", spec.where("source"), source, vertices - 1);
  return order ? order->to_new(static_cast<VertexId>(source)) : static_cast<VertexId>(source);
}

}  // namespace

std::vector<std::string> known_algorithms() {
  std::vector<std::string> names;
  for (const auto& a : algorithms()) names.push_back(a.name);
  return names;
}

JobSpec parse_job_argument(const std::string& text, size_t index) {
  JobSpec spec;
  spec.origin = fmt::format("--job #{} '{}'", index, text);
  size_t start = 0;
  bool first = true;
  while (start <= text.size()) {
    size_t stop = text.find(':', start);
    std::string part = text.substr(start, stop == std::string::npos ? std::string::npos : stop - start);
    if (first) {
      spec.algo = part;
      first = false;
    } else {
      size_t eq = part.find('=');
      if (eq == std::string::npos || eq == 0)
        fail("{}: '{}' is not KEY=VALUE", spec.origin, part);
      std::string key = part.substr(0, eq);
      if (spec.params.count(key) || (key == "name" && !spec.name.empty()))
        fail("{}: {} given twice", spec.origin, key);
      if (key == "name" && eq + 1 == part.size()) fail("{}: name is empty", spec.origin);
      if (key == "name") spec.name = part.substr(eq + 1);
      else spec.params[key] = part.substr(eq + 1);
    }
    if (stop == std::string::npos) break;
    start = stop + 1;
  }
  return spec;
}

void name_jobs(std::vector<JobSpec>& specs) {
  std::set<std::string> seen;
  for (size_t i = 0; i < specs.size(); ++i) {
    JobSpec& spec = specs[i];
    if (spec.name.empty()) spec.name = fmt::format("{}-{}", i, spec.algo);
    for (char c : spec.name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
        fail("{}: job name '{}' may only use letters, digits, '-', '_' and '.'", spec.origin, spec.name);
    if (spec.name == "." || spec.name == "..") fail("{}: job name '{}' is not allowed", spec.origin, spec.name);
    if (!seen.insert(spec.name).second) fail("{}: duplicate job name '{}'", spec.origin, spec.name);
  }
}

std::unique_ptr<Job> make_job(const JobSpec& spec, uint64_t vertices, const VertexOrder* order) {
  const AlgoInfo* info = nullptr;
  for (const auto& a : algorithms())
    if (spec.algo == a.name) info = &a;
  if (!info) fail("{}: unknown algorithm '{}' (known: {})", spec.origin, spec.algo, join(known_algorithms()));
  for (const auto& [key, value] : spec.params)
    if (std::find(info->keys.begin(), info->keys.end(), key) == info->keys.end())
      fail("{}: {} has no parameter '{}' (it takes: {})", spec.where(key), spec.algo, key, join(info->keys));

  const std::string& algo = spec.algo;
  if (algo == "bfs") return std::make_unique<BfsJob>(spec.name, source_param(spec, vertices, order));
  if (algo == "sssp") return std::make_unique<SsspJob>(spec.name, source_param(spec, vertices, order));
  if (algo == "wcc") {
    std::string method = spec.params.count("method") ? spec.params.at("method") : "union-find";
    if (method == "union-find") return std::make_unique<WccUnionFindJob>(spec.name);
    if (method == "label") return std::make_unique<WccLabelJob>(spec.name);
    fail("{}: method = '{}' (expected union-find or label)", spec.where("method"), method);
  }
  if (algo == "pagerank") {
    uint64_t iterations = spec.params.count("iterations") ? integer_param(spec, "iterations") : 20;
    if (iterations == 0 || iterations > 1000000) fail("{}: iterations = {} is outside 1..1000000", spec.where("iterations"), iterations);
    return std::make_unique<PageRankJob>(spec.name, static_cast<uint32_t>(iterations));
  }
  double tolerance = spec.params.count("tolerance") ? real_param(spec, "tolerance") : 1e-6;
  if (tolerance <= 0) fail("{}: tolerance = {} must be positive", spec.where("tolerance"), tolerance);
  uint64_t max_iterations = spec.params.count("max_iterations") ? integer_param(spec, "max_iterations") : 1000;
  if (max_iterations == 0 || max_iterations > 1000000)
    fail("{}: max_iterations = {} is outside 1..1000000", spec.where("max_iterations"), max_iterations);
  return std::make_unique<PageRankDeltaJob>(spec.name, tolerance, static_cast<uint32_t>(max_iterations));
}

}  // namespace graphso
