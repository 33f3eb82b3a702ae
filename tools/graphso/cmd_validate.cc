// graphso validate RESULTS EXPECTED --algo A: LDBC Graphalytics' validation of one result file
// against another (integrations/graphalytics_validation.h).
#include <cstdio>

#include "integrations/graphalytics_validation.h"
#include "tools/graphso/options.h"

namespace graphso {

int cmd_validate(const Args& args) {
  po::options_description options("validate options");
  std::string results, expected, algo;
  options.add_options()
      ("results", po::value(&results)->required(), "the result file to check: 'vertex value' lines, any order")
      ("expected", po::value(&expected)->required(), "the expected output, in the same form (e.g. a Graphalytics reference output)")
      ("algo", po::value(&algo)->required(),
       "bfs|cdlp (exact), wcc (equivalent labelling), pagerank|pagerank-delta|sssp|lcc (0.01% relative; Infinity only matches Infinity)");
  po::positional_options_description positional;
  positional.add("results", 1).add("expected", 1);
  po::variables_map vm;
  if (!parse_options("validate", "RESULTS EXPECTED --algo ALGO", args, options, positional, vm)) return 0;
  const ValidationRule rule = command_line([&] { return validation_rule(algo); });
  const ValidationOutcome outcome = validate_results(results, expected, rule);
  if (!outcome.valid) fail("{}", outcome.detail);
  std::printf("%s\n", outcome.detail.c_str());
  return 0;
}

}  // namespace graphso
