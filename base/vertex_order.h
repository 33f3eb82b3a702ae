// A graph directory's vertex order: the relabelling `prep --order` applied before partitioning,
// so that vertices active together sit in few chunks. Everything the user sees (job sources,
// results, the hub `inspect` names) is in ORIGINAL ids; the engines and the middleware work in
// the new ids. The natural order is the identity and stores nothing.
//
// A graph converted from a dataset with ids of its own (base/dataset_ids.h) shows the user those
// instead: user_id() of an original id, and original_of_user_id() back. Without them, a user id
// is the original id.
//
// Stored as <dir>/order: new_id[original_id], u32 each. Its size and crc32 are recorded in the
// graph's meta file, so a missing, truncated or foreign order file is an error on open.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/dataset_ids.h"
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
  // The id maps in memory (none for the natural order), the dataset's ids included.
  uint64_t memory_bytes() const {
    return (new_of_old_.size() + old_of_new_.size()) * sizeof(VertexId) + (dataset_ids_ ? dataset_ids_->memory_bytes() : 0);
  }
  VertexId to_new(VertexId original) const { return new_of_old_.empty() ? original : new_of_old_[original]; }
  VertexId to_original(VertexId id) const { return old_of_new_.empty() ? id : old_of_new_[id]; }

  // The dataset's own ids, one per vertex; shared by the copies of this order.
  void set_dataset_ids(std::shared_ptr<const DatasetIds> ids) { dataset_ids_ = std::move(ids); }
  bool has_dataset_ids() const { return dataset_ids_ != nullptr; }
  const DatasetIds* dataset_ids() const { return dataset_ids_.get(); }
  uint64_t user_id(VertexId original) const { return dataset_ids_ ? dataset_ids_->id_of(original) : original; }
  // None: no vertex of the graph has that id.
  std::optional<VertexId> original_of_user_id(uint64_t id) const;

 private:
  OrderKind kind_ = OrderKind::Natural;
  uint64_t vertices_ = 0;
  std::vector<VertexId> new_of_old_;  // empty for the natural order
  std::vector<VertexId> old_of_new_;
  std::shared_ptr<const DatasetIds> dataset_ids_;
};

}  // namespace graphso
