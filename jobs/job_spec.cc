#include "jobs/job_spec.h"

#include <algorithm>
#include <charconv>
#include <set>

#include "base/error.h"
#include "jobs/registry.h"

namespace graphso {
std::vector<std::string> known_algorithms() {
  std::vector<std::string> names;
  for (const Algorithm& a : algorithms()) names.push_back(a.name);
  return names;
}

std::vector<std::string> split_vertex_list(const std::string& text) {
  std::vector<std::string> items;
  for (size_t start = 0;;) {
    const size_t comma = text.find(',', start);
    items.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return items;
    start = comma + 1;
  }
}

namespace {

uint64_t parse_version(const std::string& text, const std::string& origin) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size())
    fail("{}: version '{}' is not a log position (an integer, 0 or more)", origin, text);
  return v;
}

}  // namespace

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
      if (key == "version" && spec.version) fail("{}: version given twice", spec.origin);
      if (key == "name") spec.name = part.substr(eq + 1);
      else if (key == "version") spec.version = parse_version(part.substr(eq + 1), spec.origin);
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
    // A name is a result file's name (NAME.txt, NAME.bin.meta): it must fit in one, known before
    // the run, not after it.
    if (spec.name.size() > kMaxJobName)
      fail("{}: job name '{}...' has {} characters, more than {}", spec.origin, spec.name.substr(0, 32),
           spec.name.size(), kMaxJobName);
    for (char c : spec.name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
        fail("{}: job name '{}' may only use letters, digits, '-', '_' and '.'", spec.origin, spec.name);
    if (spec.name == "." || spec.name == "..") fail("{}: job name '{}' is not allowed", spec.origin, spec.name);
    if (!seen.insert(spec.name).second) fail("{}: duplicate job name '{}'", spec.origin, spec.name);
  }
}

std::unique_ptr<Job> make_job(const JobSpec& spec, uint64_t vertices, const VertexOrder* order, AsyncPolicy async) {
  auto join = [](const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
    return out.empty() ? std::string("none") : out;
  };
  const Algorithm* algo = find_algorithm(spec.algo);
  if (!algo) fail("{}: unknown algorithm '{}' (known: {})", spec.origin, spec.algo, join(known_algorithms()));
  std::vector<std::string> keys;
  for (const ParamInfo& p : algo->params) keys.push_back(p.name);
  for (const auto& [key, value] : spec.params)
    if (!algo->param(key)) fail("{}: {} has no parameter '{}' (it takes: {})", spec.where(key), spec.algo, key, join(keys));
  if (spec.async == true && !algo->asynchronous)
    fail("{}: {} runs synchronously by definition (async = true is not allowed)", spec.where("async"), spec.algo);
  std::unique_ptr<Job> job = algo->make(JobParams(spec, algo->params, vertices, order));
  // A job file's `async = true` forces passes whatever the run's policy asks; unset follows it.
  const bool forced = spec.async == true;
  job->set_async(async != AsyncPolicy::Off && algo->runs_async(spec.async), async == AsyncPolicy::Auto && !forced);
  return job;
}

}  // namespace graphso
