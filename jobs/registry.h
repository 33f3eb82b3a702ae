// Every algorithm a job can run, in one table: its name, help line, parameters (type, default,
// help) and how a job is built from them. `--job ALGO:KEY=VALUE...` (job_spec.h), job files
// (job_file.h) and `graphso jobs` all read this table; tests/ keeps a reference checker for
// each entry (a test fails when one is missing). Adding an algorithm is its job class plus one
// entry in registry.cc.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/vertex_order.h"
#include "jobs/job.h"
#include "jobs/job_spec.h"

namespace graphso {

enum class ParamType {
  Integer,   // a non-negative integer
  Real,      // a finite number
  Text,      // a word from a fixed list
  Vertex,    // a vertex id (original ids), checked against the graph
  Vertices,  // one or more vertex ids: "1,5,9" (a job file may give a TOML list)
};
const char* param_type_name(ParamType type);

struct ParamInfo {
  std::string name;
  ParamType type = ParamType::Integer;
  std::string default_value;  // empty: required
  std::string help;
};

// A job's parameters while it is built: each read once, typed and range-checked, with errors
// naming where the value was given; a parameter not given takes its registered default.
class JobParams {
 public:
  JobParams(const JobSpec& spec, const std::vector<ParamInfo>& params, uint64_t vertices, const VertexOrder* order)
      : spec_(spec), params_(params), vertices_(vertices), order_(order) {}

  const std::string& name() const { return spec_.name; }
  uint64_t integer(const std::string& key, uint64_t min, uint64_t max) const;
  double positive(const std::string& key) const;
  double fraction(const std::string& key) const;  // strictly between 0 and 1
  const std::string& text(const std::string& key, const std::vector<std::string>& choices) const;
  VertexId vertex(const std::string& key) const;             // in the graph's ids
  std::vector<VertexId> vertices(const std::string& key) const;  // distinct, in the graph's ids

 private:
  const std::string& value(const std::string& key) const;
  VertexId checked_vertex(const std::string& key, const std::string& text) const;

  const JobSpec& spec_;
  const std::vector<ParamInfo>& params_;
  uint64_t vertices_;
  const VertexOrder* order_;
};

struct Algorithm {
  std::string name;
  std::string help;
  std::vector<ParamInfo> params;
  std::function<std::unique_ptr<Job>(const JobParams&)> make;
  // The algorithm's declaration that it reaches the same answer under any order within a pass
  // (monotone min updates, or delta accumulation pushed exactly once), so its jobs may run
  // asynchronously (Job::set_async; docs/jobs.md, "Asynchronous passes").
  bool asynchronous = false;

  const ParamInfo* param(const std::string& key) const;
  // Whether a job of it runs asynchronously, given a job file's `async` (unset: when it may).
  bool runs_async(std::optional<bool> asked) const { return asynchronous && asked.value_or(true); }
};

const std::vector<Algorithm>& algorithms();
const Algorithm* find_algorithm(const std::string& name);
// A parameter of that name in any algorithm (job files type-check keys before the algorithm is known to exist).
const ParamInfo* find_any_param(const std::string& key);

}  // namespace graphso
