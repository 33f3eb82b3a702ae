// graphso store-check STORE: reads everything every reader of the store reads, in both
// directions, at one position; exit 0 when nothing is damaged, 1 (one line per finding) when
// something is. May run while another process ingests.
#include <cstdio>

#include "store/store_check.h"
#include "store/store_stat.h"
#include "tools/graphso/options.h"

namespace graphso {

int cmd_store_check(const Args& args) {
  po::options_description options("store-check options");
  std::string store_path;
  options.add_options()("store", po::value(&store_path)->required(), "store file");
  po::positional_options_description positional;
  positional.add("store", 1);
  po::variables_map vm;
  if (!parse_options("store-check", "STORE", args, options, positional, vm)) return 0;

  const store::StoreCheck c = store::check_store(store_path);
  const auto n = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  std::printf("%s: %s store, %s, checked at log position %llu (checkpoint %llu, %u read%s)\n", store_path.c_str(),
              store::store_mode_name(c.header.mode), c.header.geometry.weighted ? "weighted" : "unweighted",
              n(c.read.position), n(c.read.checkpoint_seq), c.read.attempts, c.read.attempts == 1 ? "" : "s");
  const store::StoreModeEntry& mode = store::store_mode(c.header.mode);
  if (!mode.in_lists)
    std::printf("%s: %llu edges through the %s (%llu %s, %llu bytes)%s\n", store_path.c_str(), n(c.read.edges),
                mode.lists_called, n(c.read.blocks), mode.units_called, n(c.read.block_bytes), mode.checked_too);
  else
    std::printf("%s: %llu edges, the same %s through the out-%s (%llu %s, %llu bytes) and the in-%s (%llu %s, %llu "
                "bytes)%s\n", store_path.c_str(), n(c.read.edges), mode.set_semantics ? "set" : "multiset",
                mode.lists_called, n(c.read.blocks), mode.units_called, n(c.read.block_bytes), mode.lists_called,
                n(c.read.in_blocks), mode.units_called, n(c.read.in_block_bytes), mode.checked_too);
  for (const std::string& d : c.damage) std::fprintf(stderr, "graphso: error: %s: %s\n", store_path.c_str(), d.c_str());
  if (!c.damage.empty()) return kExitError;
  std::printf("%s: no damage found\n", store_path.c_str());
  // Both directions read: what the blocks in use hold beyond the live edges' own blocks is what a
  // rebuild gives back (store-stat reads only what a snapshot reads, the out-lists).
  const store::StoreStat stat = store::read_store_stat(store_path);
  const uint64_t live = c.read.block_bytes + c.read.in_block_bytes;
  std::printf("%s: reclaimable: %llu of the %llu block bytes in use hold no live edge (store-compact gives them back)\n",
              store_path.c_str(), n(stat.block_bytes_used > live ? stat.block_bytes_used - live : 0), n(stat.block_bytes_used));
  return 0;
}

}  // namespace graphso
