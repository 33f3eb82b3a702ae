// The crash-testing options of the commands that write a store (`ingest`, `store-compact`):
// --shadow FILE and --crash-at NAME[:PASS] (store/persister.h, docs/store.md "Crash tests").
#pragma once

#include <string>

#include "store/persister.h"
#include "tools/graphso/options.h"

namespace graphso {

struct PowerCutOptions {
  std::string shadow, crash_at;
  po::options_description described();
  // Into `config`; a bad pass count is an error naming --crash-at (the name is checked with the
  // store's options).
  void apply(store::PowerCutConfig& config) const;
};

}  // namespace graphso
