#include "tools/graphso/power_cut_options.h"

#include "base/progress.h"

namespace graphso {

po::options_description PowerCutOptions::described() {
  po::options_description testing("crash testing");
  testing.add_options()
      ("shadow", po::value(&shadow), "power-cut mode: copy every persisted range here")
      ("crash-at", po::value(&crash_at), "power-cut mode: stop at crash point NAME[:PASS]");
  return testing;
}

void PowerCutOptions::apply(store::PowerCutConfig& config) const {
  config.shadow_path = shadow;
  if (crash_at.empty()) return;
  const size_t colon = crash_at.find(':');
  config.crash_point = crash_at.substr(0, colon);
  if (colon != std::string::npos) config.crash_after = parse_size(crash_at.substr(colon + 1), "--crash-at pass");
}

}  // namespace graphso
