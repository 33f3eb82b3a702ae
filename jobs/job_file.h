// Batch job files (TOML), one [[job]] table per job:
//
//   [[job]]
//   algo = "bfs"          # any algorithm of `graphso jobs` (jobs/registry.h)   (required)
//   name = "bfs-a"        # default "<index>-<algo>"
//   source = 0            # the algorithm's parameters, typed by its registry entry:
//   tolerance = 1e-7      #   integers, numbers, words ("label"), vertices (ppr: source = [1, 5])
//   arrive_after = 2      # join after this many rounds (staggered submission), default 0
//   async = false         # run in synchronous rounds; default: asynchronous passes when the
//                         #   algorithm allows them (`graphso jobs`), and `run --async off` makes every job synchronous
//
// A job file and `--job` build jobs through the same registry code. Everything is checked
// before anything runs; an error names the file, the job and the key.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "jobs/job_spec.h"

namespace graphso {

struct JobFile {
  std::vector<JobSpec> specs;
  std::vector<uint32_t> arrive_after;  // per spec
};

JobFile parse_job_file(const std::string& path);
// The same for text already in memory; `path` names it in errors (the fuzz harness calls this).
JobFile parse_job_text(std::string_view text, const std::string& path);

}  // namespace graphso
