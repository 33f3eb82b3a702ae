// graphso convert INPUT -o OUT.bin [--weighted --symmetrize --drop-self-loops --dedup --format F]
#include <cstdio>

#include "datasets/edge_input.h"
#include "datasets/edge_list.h"
#include "tools/graphso/options.h"

namespace graphso {

int cmd_convert(const Args& args) {
  po::options_description options("convert options");
  std::string input, output, format;
  options.add_options()
      ("input", po::value(&input)->required(), "input edge list (.el .wel .txt .mtx .raw .bin, optionally .gz)")
      ("output,o", po::value(&output)->required(), "output graphso edge list (.bin)")
      ("format", po::value(&format)->default_value("auto"), "auto|text|mtx|raw|bin")
      ("weighted", po::bool_switch(), "read a weight column (text), values (mtx) or 12-byte records (raw)")
      ("symmetrize", po::bool_switch(), "add v->u for every u->v")
      ("drop-self-loops", po::bool_switch(), "drop u->u edges")
      ("dedup", po::bool_switch(), "keep one u->v (with its smallest weight)");
  po::positional_options_description positional;
  positional.add("input", 1);
  po::variables_map vm;
  if (!parse_options("convert", "INPUT -o OUT.bin [options]", args, options, positional, vm)) return 0;

  EdgeInputOptions in;
  in.format = command_line([&] { return parse_input_format(format); });
  in.weighted = vm["weighted"].as<bool>();
  EdgeSet set = read_edge_input(input, in);
  if (set.edges.empty()) fail("{}: no edges found", input);
  EdgeTransforms transforms;
  transforms.symmetrize = vm["symmetrize"].as<bool>();
  transforms.drop_self_loops = vm["drop-self-loops"].as<bool>();
  transforms.dedup = vm["dedup"].as<bool>();
  apply_transforms(set, transforms);
  if (set.edges.empty()) fail("{}: no edges left after dropping self-loops", input);

  EdgeListWriter writer(output, set.weighted);
  writer.append(set.edges);
  writer.finish(set.vertices);
  std::printf("%s: %llu vertices, %llu edges%s\n", output.c_str(),
              static_cast<unsigned long long>(set.vertices), static_cast<unsigned long long>(writer.edges()),
              set.weighted ? ", weighted" : "");
  return 0;
}

}  // namespace graphso
