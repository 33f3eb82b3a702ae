#include "store/ftgraph/tree_nodes.h"

#include <fmt/format.h>

#include "store/edge_log.h"

namespace graphso::store {

namespace {

const char* direction_name(AdjacencyList d) { return d == AdjacencyList::Out ? "out" : "in"; }

uint64_t checked_word(const PmemFile& file, uint64_t offset, const std::string& name) {
  const uint64_t word = std::atomic_ref<uint64_t>(*file.at<uint64_t>(offset)).load(std::memory_order_acquire);
  const std::optional<uint64_t> value = decode_log_head(word);
  if (!value) fail("{}: corrupt store: the {} word {:#018x} does not match its check bits", file.path(), name, word);
  return *value;
}

}  // namespace

std::string tree_node_name(AdjacencyList d, VertexId v, uint64_t unit, uint32_t level) {
  return fmt::format("the {}-tree of vertex {}, node at unit {} (level {})", direction_name(d), v, unit, level);
}

TreeWords read_tree_words(const PmemFile& file, const StoreLayout& layout) {
  TreeWords w;
  w.applying = checked_word(file, applying_word(layout), "batch");
  w.allocated = checked_word(file, allocated_word(layout), "allocation");
  if (w.allocated < 1 || w.allocated > layout.geometry.block_units)
    fail("{}: corrupt store: the allocation word says unit {}, outside the block region's {}", file.path(), w.allocated,
         layout.geometry.block_units);
  for (AdjacencyList d : {AdjacencyList::Out, AdjacencyList::In})
    w.trees[static_cast<int>(d)] = checked_word(file, tree_count_word(layout, d), fmt::format("{}-tree count", direction_name(d)));
  return w;
}

void check_tree_count(const PmemFile& file, AdjacencyList d, const TreeWords& words, uint64_t roots) {
  if (words.trees[static_cast<int>(d)] != roots)
    fail("{}: corrupt store: the {}-tree count word says {} trees, the vertex array has {} roots", file.path(),
         direction_name(d), words.trees[static_cast<int>(d)], roots);
}

uint64_t checked_root(const PmemFile& file, const StoreLayout& layout, AdjacencyList d, VertexId v) {
  const uint64_t index = (d == AdjacencyList::Out ? 0 : layout.geometry.vertices) + v;
  uint64_t& at = file.at<uint64_t>(layout.tables[0])[index];
  const uint64_t word = std::atomic_ref<uint64_t>(at).load(std::memory_order_acquire);
  const std::optional<uint64_t> root = tree_link_unit(word, root_salt(d, v));
  if (!root || *root + tree_node_units(layout.geometry.weighted) > layout.geometry.block_units)
    fail("{}: corrupt store: the vertex array's {}-tree root of vertex {} ({:#018x}) fails its check", file.path(),
         direction_name(d), v, word);
  return *root;
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
