#include "base/graph_files.h"

#include <algorithm>
#include <filesystem>

#include "base/staging.h"

namespace graphso {

GraphFiles::GraphFiles(std::string dir) : dir_(normal_path(dir)) {}

std::string GraphFiles::meta() const { return dir_ + "/meta"; }
std::string GraphFiles::degrees() const { return dir_ + "/degrees"; }
std::string GraphFiles::order() const { return dir_ + "/order"; }
std::string GraphFiles::dataset_ids() const { return dir_ + "/dataset_ids"; }
std::string GraphFiles::grid_row() const { return dir_ + "/grid.row"; }
std::string GraphFiles::grid_col() const { return dir_ + "/grid.col"; }
std::string GraphFiles::xstream_meta() const { return dir_ + "/xstream.meta"; }
std::string GraphFiles::xstream_part(uint32_t partition) const {
  return dir_ + "/xstream.part." + std::to_string(partition);
}

std::string GraphFiles::tchunk_prefix(const std::string& layout) {
  return layout == "gridgraph" ? "tchunk." : "tchunk." + layout + ".";
}

std::string GraphFiles::tchunk_name(const std::string& layout, uint64_t chunk_bytes) {
  return tchunk_prefix(layout) + std::to_string(chunk_bytes);
}

std::string GraphFiles::tchunk(const std::string& layout, uint64_t chunk_bytes) const {
  return dir_ + "/" + tchunk_name(layout, chunk_bytes);
}

std::vector<uint64_t> GraphFiles::tchunk_sizes(const std::string& layout) const {
  const std::string prefix = tchunk_prefix(layout);
  std::vector<uint64_t> sizes;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir_, error)) {
    const std::string name = entry.path().filename().string();
    // "tchunk.1024" and not "tchunk.xstream.1024" nor a temporary "tchunk.1024.tmp-..."
    if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
        name.size() - prefix.size() <= 19 &&
        name.find_first_not_of("0123456789", prefix.size()) == std::string::npos)
      sizes.push_back(std::stoull(name.substr(prefix.size())));
  }
  std::sort(sizes.begin(), sizes.end());
  return sizes;
}

std::string GraphFiles::chunk_size() const { return dir_ + "/chunk_size"; }

std::string GraphFiles::store_marker() const { return dir_ + "/store.snapshot"; }
std::string GraphFiles::snapshot_edges() const { return dir_ + "/snapshot.edges.bin"; }

}  // namespace graphso
