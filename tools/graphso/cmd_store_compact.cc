// graphso store-compact STORE [--threads N] [--shadow FILE --crash-at NAME[:PASS]]: rebuilds the store into a file sized for its live
// edges (docs/store.md, "Growth"), giving back what deletions, relocations and merges left behind.
// The store's writer: refused while an ingest writes to it; readers keep their version.
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "base/progress.h"
#include "store/graph_store.h"
#include "tools/graphso/options.h"
#include "tools/graphso/power_cut_options.h"

namespace graphso {

int cmd_store_compact(const Args& args) {
  po::options_description options("store-compact options");
  std::string store_path;
  store::StoreOptions store_options;
  options.add_options()
      ("store", po::value(&store_path)->required(), "store file")
      ("threads", number(&store_options.threads)->default_value(2), "threads of the mode's writer");
  PowerCutOptions power_cut;
  options.add(power_cut.described());
  po::positional_options_description positional;
  positional.add("store", 1);
  po::variables_map vm;
  if (!parse_options("store-compact", "STORE [--threads N]", args, options, positional, vm)) return 0;
  command_line([&] {
    power_cut.apply(store_options.power_cut);
    store::check_store_options(store_options);
  });

  const auto start = std::chrono::steady_clock::now();
  auto graph_store = store::GraphStore::open(store_path, store_options);
  const uint64_t before = std::filesystem::file_size(store_path);
  graph_store->reclaim();
  graph_store->close();
  const store::StoreStatus s = graph_store->status();
  graph_store.reset();
  const uint64_t after = std::filesystem::file_size(store_path);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s: compacted %llu live edges (%s), file %s -> %s, in %.3f s\n", store_path.c_str(),
              static_cast<unsigned long long>(s.growth_edges), store::store_mode_name(s.header.mode),
              human_bytes(static_cast<double>(before)).c_str(), human_bytes(static_cast<double>(after)).c_str(), seconds);
  return 0;
}

}  // namespace graphso
