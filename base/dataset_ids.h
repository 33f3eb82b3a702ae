// A graph's own vertex ids, for a dataset that names its vertices by ids other than 0..n-1 (an
// LDBC Graphalytics .v file: any 64-bit ids, in any order, with gaps). graphso works on dense ids
// 0..n-1, the dataset's ids in ascending order: dense vertex v is the dataset's ids()[v], and an id's
// dense vertex is a binary search. What a user sees of such a graph (job sources, results, WCC
// labels) is in the dataset's ids (base/vertex_order.h); binary results stay indexed by dense id.
//
// Stored as a sealed file (base/checked_file.h): beside an edge list as EDGES.bin.ids, written by
// `convert`, and in a prepared graph as `dataset_ids`, whose CRC the graph's meta records.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/types.h"

namespace graphso {

class DatasetIds {
 public:
  DatasetIds() = default;
  // Strictly ascending ids, at most 2^32 - 1 of them; checked.
  explicit DatasetIds(std::vector<uint64_t> ascending);
  // Reads and checks a file written by save(); `vertices`: the count it must hold; `recorded`:
  // the CRC a graph's meta recorded for it, when one did.
  static DatasetIds load(const std::string& path, uint64_t vertices, std::optional<uint32_t> recorded = std::nullopt);
  // The ids `convert` left beside an edge list (dataset_ids_path), if it left any.
  static std::optional<DatasetIds> beside(const std::string& edge_list, uint64_t vertices);
  // Writes the sealed file, whole or not at all; returns its CRC (a prepared graph's meta records it).
  uint32_t save(const std::string& path) const;

  uint64_t size() const { return ids_.size(); }
  const std::vector<uint64_t>& ids() const { return ids_; }
  uint64_t id_of(VertexId v) const { return ids_[v]; }
  std::optional<VertexId> vertex_of(uint64_t id) const;
  uint64_t memory_bytes() const { return ids_.size() * sizeof(uint64_t); }

 private:
  uint32_t crc() const;  // of the file save() writes
  std::vector<uint64_t> ids_;
};

// Where convert leaves the ids of an edge list it writes (EDGES.bin -> EDGES.bin.ids).
std::string dataset_ids_path(const std::string& edge_list);

}  // namespace graphso
