// Jobs of a batch that run as one job: the engines, the sharing modes and the middleware see the
// group (a Job, with one frontier: the union of its members'), so a run's loads, its active-chunk
// lookups, its decoding and its pass over each run's edges serve every member at once. The
// members are the user's jobs: each gets its results and its outcome from the group (Job::ran_by,
// Job::settle), identical to what it computes alone. jobs/job_groups.h decides which jobs group.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "jobs/job.h"

namespace graphso {

class JobGroup {
 public:
  virtual ~JobGroup() = default;
  // The batch's jobs it runs, in lane order.
  virtual std::span<Job* const> members() const = 0;
  // How it runs them, for the report ("bit-parallel bfs").
  virtual const char* method() const = 0;
  // Lanes it has room for (members() fill the first of them).
  virtual uint32_t lanes() const = 0;
};

// Lanes for a group of `members` jobs with values side by side per vertex: the fewest of 8, 16, 32
// and 64 that hold them (8 doubles or distances are a cache line).
inline uint32_t value_lanes(size_t members) {
  uint32_t lanes = 8;
  while (lanes < 64 && lanes < members) lanes *= 2;
  return lanes;
}

}  // namespace graphso
