// Every file of a prepared graph directory, named in one place (docs/formats.md describes each).
// The engines, the middleware, prep and snapshots ask here rather than spelling names themselves.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace graphso {

class GraphFiles {
 public:
  explicit GraphFiles(std::string dir);

  const std::string& dir() const { return dir_; }

  // The GridGraph layout, written by every prep. meta is the directory's commit point.
  std::string meta() const;      // header, block sizes and block checksums
  std::string degrees() const;   // out-degree per vertex
  std::string order() const;     // new id per original id; only for a relabelled graph
  std::string dataset_ids() const;  // the dataset's own id per original id; only when it has them
  std::string grid_row() const;  // blocks in row order
  std::string grid_col() const;  // the same blocks in column order

  // The X-Stream layout (prep --engine xstream|both).
  std::string xstream_meta() const;
  std::string xstream_part(uint32_t partition) const;

  // TChunk tables: one per engine layout and chunk size. GridGraph's keep their first name
  // (tchunk.<size>), other layouts' carry the layout's (tchunk.<layout>.<size>).
  static std::string tchunk_name(const std::string& layout, uint64_t chunk_bytes);
  std::string tchunk(const std::string& layout, uint64_t chunk_bytes) const;
  // The chunk sizes of the tables built so far for `layout`, ascending.
  std::vector<uint64_t> tchunk_sizes(const std::string& layout) const;

  // The chunk size runs use when they name none, and how prep chose it (middleware/chunk_size.h).
  std::string chunk_size() const;

  // A store snapshot's record of which store and log position it holds.
  std::string store_marker() const;
  // The edge list a snapshot is prepared from; removed once the layouts are written.
  std::string snapshot_edges() const;

 private:
  static std::string tchunk_prefix(const std::string& layout);
  std::string dir_;
};

}  // namespace graphso
