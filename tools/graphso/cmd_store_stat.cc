// graphso store-stat STORE: what the store holds, one `key: value` per line. Reads only what is
// persisted, so it may run while another process ingests.
#include <cstdio>

#include "store/edge_log.h"
#include "store/pmem_file.h"
#include "store/snapshot.h"
#include "store/store_meta.h"
#include "tools/graphso/options.h"

namespace graphso {

int cmd_store_stat(const Args& args) {
  po::options_description options("store-stat options");
  std::string store_path;
  options.add_options()("store", po::value(&store_path)->required(), "store file");
  po::positional_options_description positional;
  positional.add("store", 1);
  po::variables_map vm;
  if (!parse_options("store-stat", "STORE", args, options, positional, vm)) return 0;

  // The live edges and reachable blocks, at the same consistent position a snapshot would use.
  store::SnapshotInfo snapshot = store::scan_snapshot(store_path, {[] {}, [](std::span<const Edge>) {}, true});
  store::PmemFile file = store::PmemFile::open_read_only(store_path);
  store::StoreHeader header = store::read_superblock(file);
  store::StoreLayout layout(header.geometry);
  store::Checkpoint checkpoint = store::read_checkpoint(file, layout);
  std::optional<store::InputProgress> input = store::read_input(file, layout);
  const uint64_t head = store::read_log_head(file, layout);
  const uint64_t block_bytes_used = (checkpoint.high_water - 1) * store::kBlockUnitBytes;
  auto line = [](const char* key, unsigned long long value) { std::printf("%s: %llu\n", key, value); };
  std::printf("mode: %s\n", store::store_mode_name(header.mode));
  line("vertices", header.geometry.vertices);
  line("edges", snapshot.edges);
  line("snapshot_position", snapshot.position);
  line("log_slots", header.geometry.log_slots);
  line("log_head", head);
  line("log_flushed", checkpoint.flushed);
  line("log_unflushed", head - std::min(head, checkpoint.flushed));
  line("checkpoint_seq", checkpoint.seq);
  line("blocks_live", snapshot.blocks);
  line("block_bytes_live", snapshot.block_bytes);
  line("block_bytes_used", block_bytes_used);
  line("block_bytes_capacity", (header.geometry.block_units - 1) * store::kBlockUnitBytes);
  line("bytes_used", layout.blocks + block_bytes_used);
  line("file_bytes", file.size());
  if (input) {
    std::printf("input: %s\n", input->path.c_str());
    line("input_edges", input->edges);
    line("input_acknowledged", std::min(head - std::min(head, input->start), input->edges));
    std::printf("input_kind: %s\n", input->deletes ? "deletions" : "edges");
  }
  return 0;
}

}  // namespace graphso
