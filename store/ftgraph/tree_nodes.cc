#include "store/ftgraph/tree_nodes.h"

#include <fmt/format.h>

namespace graphso::store {

std::string tree_node_name(AdjacencyList d, VertexId v, uint64_t unit, uint32_t level) {
  return fmt::format("the {}-tree of vertex {}, node at unit {} (level {})", d == AdjacencyList::Out ? "out" : "in", v,
                     unit, level);
}

std::string tree_header_fault(const TreeNodeHeader& h, const StoreLayout& layout, uint64_t unit, uint32_t owner,
                              AdjacencyList d, uint32_t level, uint32_t path, uint64_t& children) {
  children = 0;
  const auto direction = static_cast<uint8_t>(d);
  if (h.owner != owner || h.direction != direction || h.level != level || h.path != path ||
      h.check != tree_identity_check(h.owner, h.direction, h.level, h.path))
    return fmt::format("its identity (owner {}, direction {}, level {}, path {:#x}, check {:#x}) is not the node's",
                       h.owner, h.direction, h.level, h.path, h.check);
  const uint64_t size = h.size;
  if (level == 0 ? !valid_root_size(size) : size != kTreeSlots) return fmt::format("its size {} is impossible", size);
  if ((h.set & ~slot_mask(size)) != 0 || (h.locate & ~slot_mask(size)) != 0)
    return fmt::format("its bitmaps ({:#x}, {:#x}) name slots past its size {}", h.locate, h.set, size);
  const std::optional<uint64_t> next = tree_link_unit(h.next, unit);
  if (!next) return fmt::format("its children's link {:#018x} fails its check", h.next);
  if (*next != 0) {
    if (size != kTreeSlots || level >= kTreeMaxLevel) return fmt::format("it has children at size {}", size);
    const uint64_t end = *next + tree_fanout(level) * tree_node_units(layout.geometry.weighted);
    if (end > layout.geometry.block_units) return fmt::format("its children at unit {} lie past the block region", *next);
  }
  children = *next;
  return {};
}

}  // namespace graphso::store
