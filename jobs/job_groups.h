// Which jobs of a batch run as one, and how (jobs/job_group.h): the batch runner hands the
// engine the plan's runnables instead of the batch's jobs.
//
//   identical jobs   jobs with equal signatures (Job::signature: the same algorithm, parameters and
//                    asynchronous setting) arriving in the same round are computed once; the others
//                    take its results and outcome
//   groups           jobs of one algorithm that a group computes together (group_kinds(): one entry
//                    per algorithm, its group class in a file of its own), arriving in the same
//                    round, with equal keys, two or more: as few groups as hold them, of even sizes
//
// A job arriving in a later round forms its own group with the others arriving then. Every
// member's results are identical to what it computes alone (docs/jobs.md, "Grouped jobs").
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "jobs/job.h"
#include "jobs/job_group.h"

namespace graphso {

struct GroupKind {
  std::string algo;  // the members' Job::algo()
  uint32_t most_members = 0;
  // Whether a job may join, on a graph of that many vertices (a BFS forced into asynchronous
  // passes may not: its group is level-synchronous).
  std::function<bool(const Job&, uint64_t vertices)> takes;
  // Jobs with equal keys may share a group (the same asynchronous setting, say).
  std::function<std::string(const Job&)> key;
  // The group over these members (at least two, at most most_members).
  std::function<std::unique_ptr<Job>(std::span<Job* const> members)> make;
};

const std::vector<GroupKind>& group_kinds();

// How a batch's jobs run: runnables are what the engine sees (lone jobs of the batch, and groups
// the plan owns), each with its arrival round.
struct BatchPlan {
  std::vector<std::unique_ptr<Job>> groups;
  std::vector<Job*> runnables;
  std::vector<uint32_t> arrive_after;  // per runnable
  std::vector<uint32_t> runnable_of;   // per batch job: the runnable that computes it
  std::vector<int64_t> same_as;        // per batch job: the identical job it takes its results from, or -1
  // The group a runnable is, or null for a job of the batch.
  const JobGroup* group(uint32_t runnable) const { return dynamic_cast<const JobGroup*>(runnables[runnable]); }
};

// The batch's jobs over a graph of `vertices` vertices. grouping off: every job runs alone
// (identical ones too), as the batch gave them.
BatchPlan plan_batch(std::span<const std::unique_ptr<Job>> jobs, std::span<const uint32_t> arrive_after,
                     uint64_t vertices, bool grouping);

}  // namespace graphso
