// graphso store-stat STORE: what the store holds, one `key: value` per line. Reads only what is
// persisted, so it may run while another process ingests.
#include <cstdio>

#include "store/input_resume.h"
#include "store/store_stat.h"
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

  const store::StoreStat s = store::read_store_stat(store_path);
  auto line = [](const char* key, unsigned long long value) { std::printf("%s: %llu\n", key, value); };
  std::printf("mode: %s\n", store::store_mode_name(s.header.mode));
  std::printf("weighted: %s\n", s.header.geometry.real_weights ? "yes (real, binary32)" : s.header.geometry.weighted ? "yes" : "no");
  line("vertices", s.header.geometry.vertices);
  line("edges", s.snapshot.edges);
  line("snapshot_position", s.snapshot.position);
  line("log_slots", s.header.geometry.log_slots);
  line("log_head", s.log_head);
  line("log_flushed", s.checkpoint.flushed);
  line("log_unflushed", s.log_unflushed());
  line("checkpoint_seq", s.checkpoint.seq);
  line("blocks_live", s.snapshot.blocks);
  line("block_bytes_live", s.snapshot.block_bytes);
  line("block_bytes_used", s.block_bytes_used);
  line("block_bytes_free", s.block_bytes_free());
  line("block_bytes_capacity", s.block_bytes_capacity);
  line("bytes_used", s.bytes_used);
  line("file_bytes", s.file_bytes);
  if (s.header.mode == store::StoreMode::Dgap) {
    // The edge array: sections, how full their pages are, what waits in their logs, merges so far.
    const store::SectionStats& a = s.sections;
    const uint64_t pages = a.sections - a.empty;
    line("sections", a.sections);
    line("sections_empty", a.empty);
    std::printf("section_density: %.3f\n", pages ? static_cast<double>(a.page_bytes) / (pages * 4096.0) : 0.0);
    line("section_log_ops", a.logged);
    line("section_log_max", a.max_logged);
    line("section_merges", a.merges);
    line("section_splits", a.splits);
  }
  if (s.header.mode == store::StoreMode::Gear) {
    // Placement: lists per subpage level, how full their subpages are, what relocation rewrote;
    // wear: subpage writes per page (over the pages written at least once).
    const store::PlacementStats& g = s.placement;
    for (uint32_t level = 0; level <= store::kGearMaxLevel; ++level)
      if (g.lists[level]) std::printf("lists_%llu_bytes: %llu\n", static_cast<unsigned long long>(store::gear_level_bytes(level)),
                                      static_cast<unsigned long long>(g.lists[level]));
    std::printf("reserved_utilisation: %.3f\n", g.subpage_bytes ? static_cast<double>(g.list_bytes) / g.subpage_bytes : 0.0);
    line("relocations", g.relocations);
    line("relocated_bytes", g.relocated_bytes);
    line("wear_moves", g.wear_moves);
    line("wear_moved_bytes", g.wear_moved_bytes);
    line("pages_written", g.pages_written);
    line("page_writes_max", g.max_writes);
    const double mean = g.pages_written ? static_cast<double>(g.total_writes) / g.pages_written : 0.0;
    std::printf("page_writes_mean: %.2f\n", mean);
    std::printf("page_writes_max_over_mean: %.2f\n", mean > 0 ? g.max_writes / mean : 0.0);
  }
  if (s.header.mode == store::StoreMode::Ftgraph) {
    // The out-trees (what a snapshot reads): nodes per level, roots by their size, how full the
    // nodes are; a batch under way.
    const store::TreeStats& t = s.trees;
    uint64_t nodes = 0;
    line("out_trees", t.trees);
    for (uint32_t level = 0; level <= store::kTreeMaxLevel; ++level) {
      nodes += t.nodes[level];
      if (t.nodes[level]) std::printf("out_nodes_level_%u: %llu\n", level, static_cast<unsigned long long>(t.nodes[level]));
    }
    line("out_roots_16", t.roots_by_size[0]);
    line("out_roots_32", t.roots_by_size[1]);
    line("out_roots_64", t.roots_by_size[2]);
    line("out_tree_depth_max", t.deepest);
    std::printf("node_slot_utilisation: %.3f\n", nodes ? static_cast<double>(t.slots_used) / (64.0 * nodes) : 0.0);
    line("batch_under_way", s.applying - s.log_head);
  }
  if (s.input) {
    std::printf("input: %s\n", s.input->path.c_str());
    const bool stream = store::is_stream_input(*s.input);
    if (!stream) line("input_edges", s.input->edges);
    line("input_acknowledged", s.input_acknowledged);
    std::printf("input_kind: %s\n", stream ? "stream" : s.input->deletes ? "deletions" : "edges");
  }
  return 0;
}

}  // namespace graphso
