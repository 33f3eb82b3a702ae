// A graph directory's vertex order: the relabelling `prep --order` applied before partitioning,
// so that vertices active together sit in few chunks. Everything the user sees (job sources,
// results, the hub `inspect` names) is in ORIGINAL ids; the engines and the middleware work in
// the new ids. The natural order is the identity and stores nothing.
//
// Stored as <dir>/order: new_id[original_id], u32 each. Its size and crc32 are recorded in the
// graph's meta file, so a missing, truncated or foreign order file is an error on open.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/types.h"

namespace graphso {

enum class OrderKind : uint32_t { Natural = 0, Degree = 1, Bfs = 2 };

OrderKind parse_order(const std::string& name);
const char* order_name(OrderKind kind);

class VertexOrder {
 public:
  static VertexOrder natural(uint64_t vertices);
  // new_of_old must be a permutation of [0, n); checked.
  static VertexOrder from_new_ids(OrderKind kind, std::vector<VertexId> new_of_old);
  // Reads the order file (GraphFiles::order) and checks it against what the meta recorded.
  static VertexOrder load(const std::string& path, OrderKind kind, uint64_t vertices, uint32_t crc);
  // Writes the order file (nothing for the natural order); returns its crc32.
  uint32_t save(const std::string& path) const;

  OrderKind kind() const { return kind_; }
  const char* name() const { return order_name(kind_); }
  bool is_natural() const { return kind_ == OrderKind::Natural; }
  uint64_t vertices() const { return vertices_; }
  // The two id maps in memory (none for the natural order).
  uint64_t memory_bytes() const { return (new_of_old_.size() + old_of_new_.size()) * sizeof(VertexId); }
  VertexId to_new(VertexId original) const { return new_of_old_.empty() ? original : new_of_old_[original]; }
  VertexId to_original(VertexId id) const { return old_of_new_.empty() ? id : old_of_new_[id]; }

 private:
  OrderKind kind_ = OrderKind::Natural;
  uint64_t vertices_ = 0;
  std::vector<VertexId> new_of_old_;  // empty for the natural order
  std::vector<VertexId> old_of_new_;
};

}  // namespace graphso
