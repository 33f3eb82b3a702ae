// graphso generate rmat --scale S --edge-factor E [--weighted --max-weight W] --seed N -o OUT.bin
// graphso generate road --width W --height H [--drop P] [--weighted --max-weight W] --seed N -o OUT.bin
// graphso generate skewed --scale S --edge-factor E [--hot F --hot-share P] [--weighted ...] --seed N -o OUT.bin
#include <cstdio>

#include "datasets/rmat.h"
#include "datasets/road.h"
#include "datasets/skewed_stream.h"
#include "tools/graphso/options.h"

namespace graphso {

int cmd_generate(const Args& args) {
  po::options_description options("generate options");
  std::string kind, output;
  RmatOptions r;
  RoadOptions road;
  SkewedStreamOptions skewed;
  options.add_options()
      ("kind", po::value(&kind)->required(), "rmat, road or skewed: the first argument (graphso generate road ...)")
      ("output,o", po::value(&output)->required(), "output graphso edge list (.bin)")
      ("scale", number(&r.scale)->default_value(16), "2^scale vertices")
      ("edge-factor", number(&r.edge_factor)->default_value(16), "edges per vertex")
      ("weighted", po::bool_switch(&r.weighted), "add integer weights 1..max-weight")
      ("max-weight", number(&r.max_weight)->default_value(255), "largest weight")
      ("seed", number(&r.seed)->default_value(1), "random seed (same seed, same bytes)")
      ("width", number(&road.width)->default_value(256), "road: intersections per row")
      ("height", number(&road.height)->default_value(256), "road: rows")
      ("drop", number(&road.drop)->default_value(0.1, "0.1"), "road: share of grid streets left out")
      ("hot", number(&skewed.hot_fraction)->default_value(0.01, "0.01"), "skewed: share of vertices that are hot")
      ("hot-share", number(&skewed.hot_share)->default_value(0.5, "0.5"),
       "skewed: probability that an edge's source (and, apart, its destination) is a hot vertex");
  po::positional_options_description positional;
  positional.add("kind", 1);
  po::variables_map vm;
  if (!parse_options("generate", "rmat|road|skewed -o OUT.bin [options]", args, options, positional, vm)) return 0;
  if (kind != "rmat" && kind != "road" && kind != "skewed")
    throw UsageError(fmt::format("generate: unknown generator '{}' (expected rmat, road or skewed)", kind));
  if (kind == "skewed") {
    skewed.scale = r.scale;
    skewed.edge_factor = r.edge_factor;
    skewed.weighted = r.weighted;
    skewed.max_weight = r.max_weight;
    skewed.seed = r.seed;
    command_line([&] { check_skewed_stream_options(skewed); });
    generate_skewed_stream(skewed, output);
    std::printf("%s: skewed stream, %llu vertices, %llu edges, %.3g of the vertices take %.3g of the ends%s\n",
                output.c_str(), 1ull << skewed.scale, static_cast<unsigned long long>(skewed.edge_factor) << skewed.scale,
                skewed.hot_fraction, skewed.hot_share, skewed.weighted ? ", weighted" : "");
    return 0;
  }
  if (kind == "road") {
    road.weighted = r.weighted;
    road.max_weight = vm["max-weight"].defaulted() ? 100 : r.max_weight;
    road.seed = r.seed;
    command_line([&] { check_road_options(road); });
    VertexId center = generate_road(road, output);
    std::printf("%s: road grid %u x %u, %llu vertices%s, centre intersection: vertex %u\n", output.c_str(), road.width,
                road.height, static_cast<unsigned long long>(road.width) * road.height, road.weighted ? ", weighted" : "",
                center);
    return 0;
  }
  command_line([&] { check_rmat_options(r); });
  generate_rmat(r, output);
  std::printf("%s: R-MAT scale %u, %llu vertices, %llu edges%s\n", output.c_str(), r.scale,
              1ull << r.scale, static_cast<unsigned long long>(r.edge_factor) << r.scale,
              r.weighted ? ", weighted" : "");
  return 0;
}

}  // namespace graphso
