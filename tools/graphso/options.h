// Boost.Program_options glue shared by the subcommands: parse, print --help, turn option errors
// into graphso::Error so they come out as one line.
#pragma once

#include <boost/program_options.hpp>

#include <iostream>

#include "engine/common/error.h"
#include "tools/graphso/commands.h"

namespace graphso {

namespace po = boost::program_options;

// Returns false when --help was printed (the command should exit 0).
inline bool parse_options(const std::string& command, const std::string& usage, const Args& args,
                          po::options_description& options, po::positional_options_description& positional,
                          po::variables_map& vm) {
  options.add_options()("help,h", "show this help");
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
    if (vm.count("help")) {
      std::cout << "usage: graphso " << command << " " << usage << "\n\n" << options << "\n";
      return false;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    fail("{}: {} (see `graphso {} --help`)", command, e.what(), command);
  }
  return true;
}

}  // namespace graphso
