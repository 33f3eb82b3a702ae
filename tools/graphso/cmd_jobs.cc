// graphso jobs: every algorithm a job can run, with its parameters, from the job registry.
#include <cstdio>

#include "base/error.h"
#include "jobs/registry.h"
#include "tools/graphso/commands.h"

namespace graphso {

int cmd_jobs(const Args& args) {
  if (!args.empty() && args[0] != "--help" && args[0] != "-h") throw UsageError(fmt::format("jobs takes no arguments (got '{}')", args[0]));
  std::printf("Algorithms for --job ALGO[:KEY=VALUE...] and job files (algo = \"ALGO\", KEY = VALUE):\n");
  for (const Algorithm& algo : algorithms()) {
    std::printf("\n  %-15s %s\n", algo.name.c_str(), algo.help.c_str());
    for (const ParamInfo& p : algo.params)
      std::printf("    %-15s %-9s %s (%s)\n", p.name.c_str(), param_type_name(p.type), p.help.c_str(),
                  p.default_value.empty() ? "required" : ("default " + p.default_value).c_str());
  }
  std::printf("\nEvery job also takes name (default INDEX-ALGO); job files also take arrive_after (rounds).\n");
  return 0;
}

}  // namespace graphso
