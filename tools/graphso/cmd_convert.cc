// graphso convert INPUT -o OUT.bin [--weighted|--real-weights --symmetrize --drop-self-loops --dedup --slice A:B --repeat S --format F]
#include <unistd.h>

#include <cerrno>
#include <random>
#include <fmt/format.h>

#include "base/dataset_ids.h"
#include "base/file.h"
#include "base/progress.h"
#include "datasets/edge_input.h"
#include "datasets/edge_list.h"
#include "tools/graphso/options.h"

namespace graphso {

int cmd_convert(const Args& args) {
  po::options_description options("convert options");
  std::string input, output, format, slice;
  double repeat = 0;
  uint64_t seed = 1;
  options.add_options()
      ("input", po::value(&input)->required(),
       "input graph: edge lists (.el .wel .txt .mtx .raw .bin), DIMACS .gr, GAPBS .sg/.wsg, METIS .graph/.metis, "
       "Graphalytics NAME.e (with NAME.v); text formats optionally .gz")
      ("output,o", po::value(&output)->required(), "output graphso edge list (.bin; a dataset's own ids go to OUT.bin.ids)")
      ("format", po::value(&format)->default_value("auto"), "auto (from the name)|text|mtx|raw|bin|gr|sg|metis|graphalytics")
      ("weighted", po::bool_switch(), "read a weight column (text), values (mtx) or 12-byte records (raw)")
      ("real-weights", po::bool_switch(), "read the weight column (text, Graphalytics) or values (mtx) as real numbers, stored as binary32")
      ("ignore-weights", po::bool_switch(), "drop a weight column (text, Graphalytics) or values (mtx): read the graph unweighted")
      ("symmetrize", po::bool_switch(), "add v->u for every u->v")
      ("drop-self-loops", po::bool_switch(), "drop u->u edges")
      ("dedup", po::bool_switch(), "keep one u->v (with its smallest weight)")
      ("repeat", po::value(&repeat)->default_value(0.0),
       "after the other steps: add copies of earlier edges (each of a random one) so that this share of the output "
       "repeats an edge before it (an update stream with duplicates, 0-0.9)")
      ("seed", number(&seed)->default_value(1), "--repeat's random seed")
      ("slice", po::value(&slice),
       "A:B: keep edges A to B-1 (in the input's order, after the transforms) and every vertex: a graph's first "
       "part to load and the rest to insert, as evolving-graph benchmarks do");
  po::positional_options_description positional;
  positional.add("input", 1);
  po::variables_map vm;
  if (!parse_options("convert", "INPUT -o OUT.bin [options]", args, options, positional, vm)) return 0;

  EdgeInputOptions in;
  in.format = command_line([&] { return parse_input_format(format); });
  uint64_t slice_begin = 0, slice_end = UINT64_MAX;
  if (vm.count("slice")) command_line([&] {
      const size_t colon = slice.find(':');
      if (colon == std::string::npos) fail("convert: --slice '{}' (expected A:B, edges A to B-1)", slice);
      slice_begin = parse_size(slice.substr(0, colon), "--slice start");
      slice_end = parse_size(slice.substr(colon + 1), "--slice end");
      if (slice_end <= slice_begin) fail("convert: --slice {}: the end must be past the start", slice);
    });
  in.weighted = vm["weighted"].as<bool>();
  in.ignore_weights = vm["ignore-weights"].as<bool>();
  in.real_weights = vm["real-weights"].as<bool>();
  // The output is written whole, then renamed into place: over the input, it would replace it.
  if (same_file(input, output)) fail("convert: {} is the input; write the output to another file", output);
  EdgeSet set = read_edge_input(input, in);
  if (set.edges.empty()) fail("{}: no edges found", input);
  EdgeTransforms transforms;
  transforms.symmetrize = vm["symmetrize"].as<bool>();
  transforms.drop_self_loops = vm["drop-self-loops"].as<bool>();
  transforms.dedup = vm["dedup"].as<bool>();
  apply_transforms(set, transforms);
  if (set.edges.empty()) fail("{}: no edges left after dropping self-loops", input);
  if (vm.count("slice")) {
    if (slice_end > set.edges.size())
      fail("convert: --slice {}: {} has {} edges", slice, input, set.edges.size());
    set.edges.erase(set.edges.begin() + static_cast<std::ptrdiff_t>(slice_end), set.edges.end());
    set.edges.erase(set.edges.begin(), set.edges.begin() + static_cast<std::ptrdiff_t>(slice_begin));
  }
  if (repeat < 0 || repeat > 0.9) fail("convert: --repeat {} is out of range (0 to 0.9)", repeat);
  if (repeat > 0) {
    // One copy of a random earlier edge each time the copies fall behind `repeat` of the output.
    std::mt19937_64 random(seed);
    std::vector<WeightedEdge> out;
    out.reserve(static_cast<size_t>(static_cast<double>(set.edges.size()) / (1 - repeat)) + 1);
    uint64_t copies = 0;
    for (const WeightedEdge& e : set.edges) {
      out.push_back(e);
      while (static_cast<double>(copies) < repeat * static_cast<double>(out.size() + 1)) {
        out.push_back(out[random() % out.size()]);
        ++copies;
      }
    }
    set.edges = std::move(out);
  }

  // The dataset's own ids go beside the edge list, where prep finds them; an earlier file's are
  // removed first, so they never pair with edges they do not belong to.
  const std::string ids_path = dataset_ids_path(output);
  if (::unlink(ids_path.c_str()) != 0 && errno != ENOENT) fail("{}: cannot remove: {}", ids_path, errno_text(errno));
  EdgeListWriter writer(output, set.weighted, set.real_weights);
  writer.append(set.edges);
  writer.finish(set.vertices);
  const bool with_ids = !set.dataset_ids.empty();
  if (with_ids) DatasetIds(std::move(set.dataset_ids)).save(ids_path);
  fmt::print("{}: {} vertices, {} edges{}{}\n", output, set.vertices, writer.edges(), set.real_weights ? ", real weights" : set.weighted ? ", weighted" : "",
             with_ids ? ", the dataset's own ids in " + ids_path : "");
  return 0;
}

}  // namespace graphso
