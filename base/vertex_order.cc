#include "base/vertex_order.h"

#include <span>

#include "base/checked_file.h"
#include "base/enum_names.h"
#include "base/error.h"
#include "base/file.h"

namespace graphso {

namespace {
constexpr EnumName<OrderKind> kOrderNames[] = {
    {OrderKind::Natural, "natural"}, {OrderKind::Degree, "degree"}, {OrderKind::Bfs, "bfs"}};
}  // namespace

OrderKind parse_order(const std::string& name) { return parse_enum<OrderKind>(kOrderNames, name, "vertex order"); }
const char* order_name(OrderKind kind) { return enum_name<OrderKind>(kOrderNames, kind); }

VertexOrder VertexOrder::natural(uint64_t vertices) {
  VertexOrder order;
  order.vertices_ = vertices;
  return order;
}

VertexOrder VertexOrder::from_new_ids(OrderKind kind, std::vector<VertexId> new_of_old) {
  if (kind == OrderKind::Natural) return natural(new_of_old.size());
  VertexOrder order;
  order.kind_ = kind;
  order.vertices_ = new_of_old.size();
  order.old_of_new_.assign(new_of_old.size(), kNoVertex);
  for (uint64_t v = 0; v < new_of_old.size(); ++v) {
    VertexId n = new_of_old[v];
    if (n >= new_of_old.size() || order.old_of_new_[n] != kNoVertex)
      fail("vertex order '{}' is not a permutation (vertex {} -> {})", order_name(kind), v, n);
    order.old_of_new_[n] = static_cast<VertexId>(v);
  }
  order.new_of_old_ = std::move(new_of_old);
  return order;
}

std::optional<VertexId> VertexOrder::original_of_user_id(uint64_t id) const {
  if (dataset_ids_) return dataset_ids_->vertex_of(id);
  if (id >= vertices_) return std::nullopt;
  return static_cast<VertexId>(id);
}

uint32_t VertexOrder::save(const std::string& path) const {
  if (is_natural()) return 0;
  auto bytes = std::as_bytes(std::span<const VertexId>(new_of_old_));
  AtomicOutputFile out(path);
  out.append(bytes);
  out.commit();
  return crc32_of(bytes);
}

VertexOrder VertexOrder::load(const std::string& path, OrderKind kind, uint64_t vertices, uint32_t crc) {
  if (kind == OrderKind::Natural) return natural(vertices);
  if (!path_exists(path)) fail("{}: missing (the graph was prepared with --order {})", path, order_name(kind));
  File file(path, File::Mode::Read);
  check_size(path, file.size(), vertices * sizeof(VertexId));
  std::vector<VertexId> new_of_old(vertices);
  auto bytes = std::as_writable_bytes(std::span<VertexId>(new_of_old));
  file.pread_exact(bytes, 0);
  check_crc(path, crc, crc32_of(bytes));
  return from_new_ids(kind, std::move(new_of_old));
}

}  // namespace graphso
