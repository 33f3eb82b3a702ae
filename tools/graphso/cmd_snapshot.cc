// graphso snapshot STORE -o GRAPH_DIR: the store's graph at its persisted log head as a prepared
// graph (grid, X-Stream layout when asked, TChunk tables) for `graphso run`; may run while another
// process ingests.
#include <cstdio>

#include "base/progress.h"
#include "prep/store_snapshot.h"
#include "tools/graphso/layout_options.h"

namespace graphso {

int cmd_snapshot(const Args& args) {
  po::options_description options("snapshot options");
  std::string store_path, output;
  PrepOptions prep;
  LayoutOptions layout;
  options.add_options()
      ("store", po::value(&store_path)->required(), "store file")
      ("output,o", po::value(&output)->required(), "graph directory to write (replaced if it holds an older snapshot)");
  layout.add_to(options, prep);
  po::positional_options_description positional;
  positional.add("store", 1);
  po::variables_map vm;
  if (!parse_options("snapshot", "STORE -o GRAPH_DIR [options]", args, options, positional, vm)) return 0;
  command_line([&] { layout.apply("snapshot", prep); });
  StoreSnapshotResult result = snapshot_store(store_path, output, prep);
  const unsigned long long position = result.info.position;
  if (!result.rebuilt)
    std::printf("%s: up to date with %s at log position %llu, laid out as asked: not rebuilt\n", output.c_str(),
                store_path.c_str(), position);
  else if (result.layout_changed)
    std::printf("%s: rebuilt with the layout options asked for (the store is unchanged at log position %llu): "
                "%llu vertices, %llu edges\n", output.c_str(), position,
                static_cast<unsigned long long>(result.info.vertices), static_cast<unsigned long long>(result.info.edges));
  else
    std::printf("%s: snapshot of %s at log position %llu: %llu vertices, %llu edges\n", output.c_str(),
                store_path.c_str(), position, static_cast<unsigned long long>(result.info.vertices),
                static_cast<unsigned long long>(result.info.edges));
  return 0;
}

}  // namespace graphso
