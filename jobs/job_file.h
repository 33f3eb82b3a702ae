// Batch job files (TOML), one [[job]] table per job:
//
//   [[job]]
//   algo = "bfs"          # bfs | sssp | wcc | pagerank | pagerank-delta      (required)
//   name = "bfs-a"        # default "<index>-<algo>"
//   source = 0            # bfs, sssp (required)
//   iterations = 20       # pagerank
//   tolerance = 1e-7      # pagerank-delta
//   max_iterations = 500  # pagerank-delta
//   method = "label"      # wcc: union-find (default) | label
//   arrive_after = 2      # join after this many rounds (staggered submission), default 0
//
// Everything is checked before anything runs; an error names the file, the job and the key.
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
