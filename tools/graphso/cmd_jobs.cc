// graphso jobs: every algorithm a job can run, with its parameters, from the job registry.
// graphso jobs --check JOBS.toml --vertices N: the job file checked as `run` checks it (against a
// graph of N vertices), printed as JSON with every default filled in, for tools that run the same
// batch elsewhere (tools/spark) without a second parser of their own.
#include <algorithm>
#include <cstdio>

#include "base/json_writer.h"
#include "jobs/job_file.h"
#include "jobs/job_sources.h"
#include "jobs/registry.h"
#include "tools/graphso/options.h"

namespace graphso {
namespace {

void print_algorithms() {
  std::printf("Algorithms for --job ALGO[:KEY=VALUE...] and job files (algo = \"ALGO\", KEY = VALUE):\n");
  for (const Algorithm& algo : algorithms()) {
    std::printf("\n  %-15s %s%s\n", algo.name.c_str(), algo.help.c_str(), algo.asynchronous ? " [asynchronous]" : "");
    for (const ParamInfo& p : algo.params)
      std::printf("    %-15s %-9s %s (%s)\n", p.name.c_str(), param_type_name(p.type), p.help.c_str(),
                  p.default_value.empty() ? "required" : ("default " + p.default_value).c_str());
  }
  std::printf("\nEvery job also takes name (default INDEX-ALGO) and, on a store, version (a log position the store "
              "keeps: `run STORE`);\njob files also take arrive_after (rounds) and async (true|false).\n"
              "[asynchronous]: runs in asynchronous passes unless `run --async off` or async = false.\n");
}

void print_checked(const std::string& path, uint64_t vertices) {
  JobFile parsed = parse_job_file(path);
  name_jobs(parsed.specs);
  JsonWriter json;
  json.begin_array();
  for (size_t i = 0; i < parsed.specs.size(); ++i) {
    const JobSpec& spec = parsed.specs[i];
    for (const auto& [key, value] : spec.params) {
      const ParamInfo* info = find_any_param(key);
      if (!info || (info->type != ParamType::Vertex && info->type != ParamType::Vertices)) continue;
      const std::vector<std::string> items = split_vertex_list(value);
      if (std::find(items.begin(), items.end(), kRandomSource) != items.end())
        fail("{}: {}=random needs the graph's out-degrees, which only graphso run has; give the vertex it picked "
             "(run prints it)", spec.where(key), key);
    }
    make_job(spec, vertices);  // every check `run` makes, with its messages
    const Algorithm& algo = *find_algorithm(spec.algo);
    json.begin_object().field("name", spec.name).field("algo", spec.algo);
    json.begin_object("params");
    for (const ParamInfo& p : algo.params) {
      auto given = spec.params.find(p.name);
      json.field(p.name, given == spec.params.end() ? p.default_value : given->second);
    }
    json.end_object().field("arrive_after", parsed.arrive_after[i]);
    if (spec.version) json.field("version", *spec.version);
    json.field("async", algo.runs_async(spec.async)).end_object();
  }
  json.end_array();
  std::printf("%s\n", json.text().c_str());
}

}  // namespace

int cmd_jobs(const Args& args) {
  po::options_description options("jobs options");
  std::string check;
  uint64_t vertices = 0;
  options.add_options()
      ("check", po::value(&check), "a job file to check and print as JSON (defaults filled in)")
      ("vertices", number(&vertices), "with --check: the graph's vertex count the sources are checked against");
  po::positional_options_description none;
  po::variables_map vm;
  if (!parse_options("jobs", "[--check JOBS.toml --vertices N]", args, options, none, vm)) return 0;
  if (check.empty()) {
    if (vm.count("vertices")) throw UsageError("jobs: --vertices goes with --check");
    print_algorithms();
    return 0;
  }
  if (!vm.count("vertices") || vertices == 0) throw UsageError("jobs: --check needs --vertices N (N >= 1)");
  print_checked(check, vertices);
  return 0;
}

}  // namespace graphso
