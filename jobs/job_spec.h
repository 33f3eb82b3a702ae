// What a user asks for: an algorithm, a name and parameters, from `--job ALGO[:KEY=VALUE]...`
// (or, later, a job file). make_job() validates everything against the graph before anything
// runs, so a bad job is a one-line error, never a half-finished batch.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "jobs/job.h"

namespace graphso {

struct JobSpec {
  std::string algo;
  std::string name;  // empty: "<index>-<algo>"
  std::map<std::string, std::string> params;
  std::string origin;  // where it came from, for error messages ("--job #2")
  std::map<std::string, std::string> param_origins;  // a job file's line of each key, if known
  // A job file's `async`: unset runs asynchronously when the algorithm allows it (and the run's
  // --async is on); true on an algorithm that does not is an error.
  std::optional<bool> async;
  // `version=N` (a job file's `version = N`): on a store, the log position whose graph the job runs
  // on (integrations/store_graph.h); unset: the run's version.
  std::optional<uint64_t> version;

  // Where `key` was given: its own line in a job file, else the job's origin.
  const std::string& where(const std::string& key) const {
    auto it = param_origins.find(key);
    return it == param_origins.end() ? origin : it->second;
  }
};

// "bfs:source=0", "pagerank-delta:tolerance=1e-7:max_iterations=500", "wcc:name=components".
JobSpec parse_job_argument(const std::string& text, size_t index);

// A vertex list parameter's items: "1,5,9" -> {"1", "5", "9"} (one item without a comma).
std::vector<std::string> split_vertex_list(const std::string& text);

// Gives unnamed jobs their default names and rejects duplicate or unsafe names.
void name_jobs(std::vector<JobSpec>& specs);
// The longest job name: NAME.bin.meta stays well inside a file name's 255 bytes.
inline constexpr size_t kMaxJobName = 200;

// Builds the job; throws Error naming the origin and key on an unknown algorithm, unknown or
// missing parameter, bad value, or a source outside [0, vertices). Sources are given in original
// ids; with a vertex order they are translated to the graph's ids (null: natural order).
// async: the run's --async. Off, every job runs synchronously (today's bytes, for comparison); On,
// in asynchronous passes where the algorithm allows them; Auto, the same, revised by the job's
// evidence (Job::set_async). A job file's `async = false` holds a job back, `true` forces passes.
std::unique_ptr<Job> make_job(const JobSpec& spec, uint64_t vertices, const VertexOrder* order = nullptr,
                              AsyncPolicy async = AsyncPolicy::Auto);

std::vector<std::string> known_algorithms();

}  // namespace graphso
