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
  for (const store::StatLine& l : s.mode_lines) std::printf("%s: %s\n", l.key.c_str(), l.value.c_str());
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
