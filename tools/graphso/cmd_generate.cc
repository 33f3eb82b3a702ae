// graphso generate rmat --scale S --edge-factor E [--weighted --max-weight W] --seed N -o OUT.bin
#include <cstdio>

#include "datasets/rmat.h"
#include "tools/graphso/options.h"

namespace graphso {

int cmd_generate(const Args& args) {
  po::options_description options("generate options");
  std::string kind, output;
  RmatOptions r;
  options.add_options()
      ("kind", po::value(&kind)->required(), "generator: rmat")
      ("output,o", po::value(&output)->required(), "output graphso edge list (.bin)")
      ("scale", po::value(&r.scale)->default_value(16), "2^scale vertices")
      ("edge-factor", po::value(&r.edge_factor)->default_value(16), "edges per vertex")
      ("weighted", po::bool_switch(&r.weighted), "add integer weights 1..max-weight")
      ("max-weight", po::value(&r.max_weight)->default_value(255), "largest weight")
      ("seed", po::value(&r.seed)->default_value(1), "random seed (same seed, same bytes)");
  po::positional_options_description positional;
  positional.add("kind", 1);
  po::variables_map vm;
  if (!parse_options("generate", "rmat -o OUT.bin [options]", args, options, positional, vm)) return 0;
  if (kind != "rmat") fail("generate: unknown generator '{}' (expected rmat)", kind);
  generate_rmat(r, output);
  std::printf("%s: R-MAT scale %u, %llu vertices, %llu edges%s\n", output.c_str(), r.scale,
              1ull << r.scale, static_cast<unsigned long long>(r.edge_factor) << r.scale,
              r.weighted ? ", weighted" : "");
  return 0;
}

}  // namespace graphso
