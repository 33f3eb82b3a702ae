// graphso subcommands; each parses its own options and returns the process exit code.
#pragma once

#include <string>
#include <vector>

namespace graphso {

using Args = std::vector<std::string>;  // the arguments after the subcommand name

int cmd_convert(const Args& args);
int cmd_generate(const Args& args);
int cmd_prep(const Args& args);
int cmd_inspect(const Args& args);
int cmd_run(const Args& args);
int cmd_jobs(const Args& args);
int cmd_disk_bandwidth(const Args& args);
int cmd_ingest(const Args& args);
int cmd_store_stat(const Args& args);
int cmd_snapshot(const Args& args);

}  // namespace graphso
