// graphso subcommands; each parses its own options and returns the process exit code.
#pragma once

#include <string>
#include <vector>

#include "base/error.h"

namespace graphso {

// Exit status, the same for every command: 0 done; 1 a run-time error (a file, the data, the
// device); 2 a usage error (an option, its value, a missing or conflicting argument); 3 `run`:
// some job did not converge or failed.
inline constexpr int kExitError = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitUnconverged = 3;

// A command line the command cannot accept; main() exits with kExitUsage.
class UsageError : public Error {
 public:
  using Error::Error;
};

using Args = std::vector<std::string>;  // the arguments after the subcommand name

int cmd_convert(const Args& args);
int cmd_generate(const Args& args);
int cmd_prep(const Args& args);
int cmd_inspect(const Args& args);
int cmd_run(const Args& args);
int cmd_store_compact(const Args& args);
int cmd_jobs(const Args& args);
int cmd_disk_bandwidth(const Args& args);
int cmd_ingest(const Args& args);
int cmd_store_stat(const Args& args);
int cmd_store_check(const Args& args);
int cmd_snapshot(const Args& args);
int cmd_export(const Args& args);
int cmd_validate(const Args& args);
int cmd_graphalytics(const Args& args);

}  // namespace graphso
