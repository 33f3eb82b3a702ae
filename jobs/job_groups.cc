#include "jobs/job_groups.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "base/error.h"
#include "jobs/bfs.h"
#include "jobs/bfs_group.h"
#include "jobs/pagerank.h"
#include "jobs/pagerank_group.h"
#include "jobs/sssp.h"
#include "jobs/sssp_group.h"

namespace graphso {
namespace {

template <typename Member>
std::vector<Member*> members_as(std::span<Job* const> members) {
  std::vector<Member*> out;
  for (Job* job : members) out.push_back(&dynamic_cast<Member&>(*job));
  return out;
}

std::unique_ptr<Job> make_bfs_group(std::span<Job* const> members) {
  std::vector<BfsJob*> bfs = members_as<BfsJob>(members);
  switch (bfs_group_words(bfs.size())) {
    case 1: return std::make_unique<BfsGroup<1>>(std::move(bfs));
    case 2: return std::make_unique<BfsGroup<2>>(std::move(bfs));
    case 4: return std::make_unique<BfsGroup<4>>(std::move(bfs));
    default: return std::make_unique<BfsGroup<8>>(std::move(bfs));
  }
}

// A group whose members' values lie side by side (Group<lanes>), as wide as they need.
template <template <uint32_t> class Group, typename Member>
std::unique_ptr<Job> make_value_group(std::span<Job* const> members) {
  std::vector<Member*> typed = members_as<Member>(members);
  switch (value_lanes(typed.size())) {
    case 8: return std::make_unique<Group<8>>(std::move(typed));
    case 16: return std::make_unique<Group<16>>(std::move(typed));
    case 32: return std::make_unique<Group<32>>(std::move(typed));
    default: return std::make_unique<Group<64>>(std::move(typed));
  }
}

// delta-PageRank groups run in synchronous rounds: a job asked to run in passes (--async on,
// async = true) runs alone.
bool not_forced_async(const Job& job) { return !job.async() || job.async_revisable(); }

// Members share how they run: in rounds (--async off), in passes (--async on, async = true), or as
// the group finds best (--async auto); and in passes, how far a change travels.
std::string async_key(const Job& job, uint32_t reach) {
  if (!job.async()) return "rounds";
  return fmt::format("{} reach {}", job.async_revisable() ? "auto" : "passes", reach);
}

std::vector<GroupKind> make_kinds() {
  auto delta_kind = [](std::string algo) {
    return GroupKind{std::move(algo), 64, [](const Job& job, uint64_t) { return not_forced_async(job); },
                     [](const Job&) { return std::string(); }, make_value_group<PageRankDeltaGroup, PageRankDeltaJob>};
  };
  return {
      {"bfs", 8 * 64, [](const Job&, uint64_t) { return true; },
       [](const Job& job) { return async_key(job, dynamic_cast<const BfsJob&>(job).reach_hops()); }, make_bfs_group},
      {"sssp", 64, [](const Job&, uint64_t vertices) { return vertices <= SsspGroup<8>::kMostVertices; },
       [](const Job& job) { return async_key(job, dynamic_cast<const SsspJob&>(job).reach_hops()); }, make_value_group<SsspGroup, SsspJob>},
      delta_kind("ppr"),
      delta_kind("pagerank-delta"),
  };
}

}  // namespace

const std::vector<GroupKind>& group_kinds() {
  static const std::vector<GroupKind> kinds = make_kinds();
  return kinds;
}

BatchPlan plan_batch(std::span<const std::unique_ptr<Job>> jobs, std::span<const uint32_t> arrive_after,
                     uint64_t vertices, bool grouping) {
  const size_t count = jobs.size();
  auto arrival = [&](size_t j) { return arrive_after.empty() ? 0u : arrive_after[j]; };
  // Jobs are computed together only when they arrive in the same round on the same graph (Job::view).
  auto slot = [&](size_t j) { return uint64_t{jobs[j]->view()} << 32 | arrival(j); };
  BatchPlan plan;
  plan.same_as.assign(count, -1);
  plan.runnable_of.assign(count, 0);
  // Identical jobs: the first of each signature and arrival round computes them.
  if (grouping) {
    std::map<std::pair<uint64_t, std::string>, size_t> first;
    for (size_t j = 0; j < count; ++j) {
      const std::string signature = jobs[j]->signature();
      if (signature.empty()) continue;
      auto [at, added] = first.emplace(std::pair(slot(j), signature), j);
      if (!added) plan.same_as[j] = static_cast<int64_t>(at->second);
    }
  }
  // Groups: the jobs that may join one, by kind, arrival round and key, in batch order.
  std::map<std::tuple<size_t, uint64_t, std::string>, std::vector<size_t>> candidates;
  const std::vector<GroupKind>& kinds = group_kinds();
  if (grouping)
    for (size_t j = 0; j < count; ++j) {
      if (plan.same_as[j] >= 0) continue;
      for (size_t k = 0; k < kinds.size(); ++k)
        if (jobs[j]->algo() == kinds[k].algo && kinds[k].takes(*jobs[j], vertices))
          candidates[{k, slot(j), kinds[k].key(*jobs[j])}].push_back(j);
    }
  // Where each job's group is made: at its first member, so runnables keep the batch's order.
  std::vector<std::vector<size_t>> group_at(count);
  std::vector<size_t> kind_at(count);
  std::vector<bool> grouped(count, false);
  for (const auto& [key, members] : candidates) {
    if (members.size() < 2) continue;
    const GroupKind& kind = kinds[std::get<0>(key)];
    const size_t groups = (members.size() + kind.most_members - 1) / kind.most_members;
    for (size_t g = 0; g < groups; ++g) {
      // Even sizes: group g takes members [g x size / groups, (g + 1) x size / groups).
      std::vector<size_t> part(members.begin() + static_cast<int64_t>(g * members.size() / groups),
                               members.begin() + static_cast<int64_t>((g + 1) * members.size() / groups));
      if (part.size() < 2) continue;
      for (size_t j : part) grouped[j] = true;
      kind_at[part.front()] = std::get<0>(key);
      group_at[part.front()] = std::move(part);
    }
  }
  for (size_t j = 0; j < count; ++j) {
    if (plan.same_as[j] >= 0) continue;
    if (!group_at[j].empty()) {
      std::vector<Job*> members;
      for (size_t m : group_at[j]) members.push_back(jobs[m].get());
      plan.groups.push_back(kinds[kind_at[j]].make(members));
      plan.groups.back()->set_view(jobs[j]->view());
      for (size_t m : group_at[j]) plan.runnable_of[m] = static_cast<uint32_t>(plan.runnables.size());
      plan.runnables.push_back(plan.groups.back().get());
      plan.arrive_after.push_back(arrival(j));
    } else if (!grouped[j]) {
      plan.runnable_of[j] = static_cast<uint32_t>(plan.runnables.size());
      plan.runnables.push_back(jobs[j].get());
      plan.arrive_after.push_back(arrival(j));
    }
  }
  for (size_t j = 0; j < count; ++j)
    if (plan.same_as[j] >= 0) plan.runnable_of[j] = plan.runnable_of[static_cast<size_t>(plan.same_as[j])];
  return plan;
}

}  // namespace graphso
