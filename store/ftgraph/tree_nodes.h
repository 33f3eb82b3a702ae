// The degree-aware suffix-bit tree's nodes in the mapped store (store_format.h, "ftgraph"), as
// the writer and the readers see them: where a node's parts lie, the checks each persisted word
// carries, and the fingerprint search inside a node.
//
// Every word a reader relies on can tell when one bit of it flipped: a slot's fingerprint is a
// fold of its neighbour's CRC-32C (and in a weighted store a second byte checks neighbour and
// weight together), a node's identity (owner, direction, level, path) has a CRC-32C, and a link
// (the vertex array's root words, a node's `next`) is unit | check << 32 with the check's top bit
// set, so no single flip turns a link into "none". A flip of a bitmap shows as locate != set on a
// store at rest.
#pragma once

#include <emmintrin.h>
#include <nmmintrin.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/error.h"

#include "base/types.h"
#include "store/pmem_file.h"
#include "store/ftgraph/tree_format.h"

namespace graphso::store {

inline uint8_t fold_crc(uint32_t c) { return static_cast<uint8_t>(c ^ (c >> 8) ^ (c >> 16) ^ (c >> 24)); }
// Every single-bit flip of n changes it (the CRC is affine; no flip's syndrome folds to zero), and
// a zeroed entry does not match a zeroed fingerprint (the CRC starts from all ones).
inline uint8_t tree_fingerprint(uint32_t n) { return fold_crc(_mm_crc32_u32(0xFFFFFFFFu, n)); }
inline uint8_t tree_entry_check(uint64_t entry) { return fold_crc(static_cast<uint32_t>(_mm_crc32_u64(0xFFFFFFFFu, entry))); }

inline uint32_t tree_identity_check(uint32_t owner, uint8_t direction, uint8_t level, uint32_t path) {
  uint32_t c = _mm_crc32_u32(0, owner);
  c = _mm_crc32_u32(c, uint32_t{direction} | uint32_t{level} << 8);
  return _mm_crc32_u32(c, path);
}

// A link word naming `unit`, tied to `salt` (the vertex and direction of a root word, the parent's
// unit of a `next`): a word copied or flipped elsewhere fails its check.
inline uint64_t tree_link(uint64_t unit, uint64_t salt) {
  const uint32_t check = static_cast<uint32_t>(_mm_crc32_u64(_mm_crc32_u64(0, unit), salt)) | 0x80000000u;
  return unit | uint64_t{check} << 32;
}
// The unit a link word names (0: none), or nullopt when its check fails.
inline std::optional<uint64_t> tree_link_unit(uint64_t word, uint64_t salt) {
  if (word == 0) return 0;
  const uint64_t unit = word & 0xFFFFFFFFu;
  if (unit == 0 || tree_link(unit, salt) != word) return std::nullopt;
  return unit;
}
inline uint64_t root_salt(AdjacencyList d, VertexId v) { return uint64_t{v} << 1 | static_cast<uint64_t>(d); }

// Which child of a node at `level` holds neighbour n.
inline uint32_t tree_child(uint32_t n, uint32_t level) { return (n >> tree_shift(level)) & (tree_fanout(level) - 1); }
// The path of that child: the parent's path plus the bits that chose it.
inline uint32_t tree_child_path(uint32_t path, uint32_t level, uint32_t child) {
  return path | child << tree_shift(level);
}

// A node at `unit` of the block region of `file`.
class TreeNode {
 public:
  TreeNode(const PmemFile& file, const StoreLayout& layout, uint64_t unit)
      : base_(file.at<std::byte>(layout.block_offset(unit))), weighted_(layout.geometry.weighted) {}
  TreeNode(std::byte* base, bool weighted) : base_(base), weighted_(weighted) {}

  TreeNodeHeader& header() const { return *reinterpret_cast<TreeNodeHeader*>(base_); }
  uint8_t* fingerprints() const { return reinterpret_cast<uint8_t*>(base_ + 64); }
  uint8_t* checks() const { return reinterpret_cast<uint8_t*>(base_ + 128); }  // weighted only
  uint32_t* ids() const { return reinterpret_cast<uint32_t*>(base_ + 128); }    // unweighted only
  uint64_t* entries() const { return reinterpret_cast<uint64_t*>(base_ + 192); }  // weighted only
  bool weighted() const { return weighted_; }

  uint32_t neighbour(uint32_t slot) const {
    return weighted_ ? static_cast<uint32_t>(entries()[slot]) : ids()[slot];
  }
  Weight weight(uint32_t slot) const { return weighted_ ? static_cast<Weight>(entries()[slot] >> 32) : Weight{1}; }
  // Whether slot's fingerprint (and entry check) match what it holds.
  bool slot_intact(uint32_t slot) const {
    if (fingerprints()[slot] != tree_fingerprint(neighbour(slot))) return false;
    return !weighted_ || checks()[slot] == tree_entry_check(entries()[slot]);
  }
  // Slots whose fingerprint is fp (any of the 64, set or not).
  uint64_t matching(uint8_t fp) const {
    const __m128i key = _mm_set1_epi8(static_cast<char>(fp));
    uint64_t mask = 0;
    for (uint32_t k = 0; k < 4; ++k) {
      const __m128i v = _mm_load_si128(reinterpret_cast<const __m128i*>(fingerprints() + 16 * k));
      mask |= uint64_t{static_cast<uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, key)))} << (16 * k);
    }
    return mask;
  }
  // Writes slot's entry, fingerprint and check.
  void write_slot(uint32_t slot, uint32_t n, Weight w) const {
    if (weighted_) {
      const uint64_t e = uint64_t{n} | uint64_t{w} << 32;
      entries()[slot] = e;
      checks()[slot] = tree_entry_check(e);
    } else {
      ids()[slot] = n;
    }
    fingerprints()[slot] = tree_fingerprint(n);
  }
  // Byte offsets (from the node's start) and lengths of what write_slot changed.
  uint64_t entry_offset(uint32_t slot) const { return weighted_ ? 192 + 8 * uint64_t{slot} : 128 + 4 * uint64_t{slot}; }
  uint64_t entry_bytes() const { return weighted_ ? 8 : 4; }

 private:
  std::byte* base_;
  bool weighted_;
};

inline bool valid_root_size(uint64_t size) { return size == 16 || size == 32 || size == 64; }
inline uint64_t slot_mask(uint64_t size) { return size >= 64 ? ~uint64_t{0} : (uint64_t{1} << size) - 1; }

// A node's header checked as a reader or recovery must find it: identity, size, bits past the
// size, and its children's link (whose unit, 0 when none, is returned through `children`, which
// must lie inside the block region). Returns an empty string when it is intact, else what is
// wrong, for an error naming the node.
std::string tree_header_fault(const TreeNodeHeader& h, const StoreLayout& layout, uint64_t unit, uint32_t owner,
                              AdjacencyList d, uint32_t level, uint32_t path, uint64_t& children);

// The words ftgraph keeps beside the head (store_format.h), read with acquire loads and checked:
// the batch word, the allocation mark (inside the block region) and the tree counts. An error
// names the word that fails.
struct TreeWords {
  uint64_t applying = 0;
  uint64_t allocated = 1;
  uint64_t trees[2] = {0, 0};  // non-empty out-trees, in-trees (AdjacencyList order)
};
TreeWords read_tree_words(const PmemFile& file, const StoreLayout& layout);
// On a store at rest, the vertex array holds as many direction-d roots as its count word says.
void check_tree_count(const PmemFile& file, AdjacencyList d, const TreeWords& words, uint64_t roots);
// The unit of (d, v)'s root in the vertex array (0: no tree), its link word checked and the node
// inside the block region.
uint64_t checked_root(const PmemFile& file, const StoreLayout& layout, AdjacencyList d, VertexId v);

// "the out-tree of vertex 5, node at unit 812 (level 2)": how errors name a node.
std::string tree_node_name(AdjacencyList d, VertexId v, uint64_t unit, uint32_t level);

// What walking trees went through.
struct TreeWalk {
  uint64_t nodes = 0;
  uint64_t retries = 0;   // node reads repeated because a writer changed the node meanwhile
  std::string unsettled;  // the first node whose bitmaps disagree or whose version is odd: a batch
                          // under way, or (on a store at rest) damage
  std::function<void(uint64_t unit, const TreeNodeHeader& h)> on_node;  // each node read, when set
};

// Walks the tree of (d, v) from `root`, checking every node (tree_header_fault, each set slot's
// fingerprint and check, that its neighbour belongs on the node's path) and calling emit(n, w)
// for each edge; errors name the node. Each node is copied and used only when its version did
// not move during the copy, so a reader beside a live writer sees every node whole.
template <typename Emit>
void walk_tree(const PmemFile& file, const StoreLayout& layout, AdjacencyList d, VertexId v, uint64_t root,
               TreeWalk& walk, Emit&& emit) {
  const bool weighted = layout.geometry.weighted;
  const uint64_t units = tree_node_units(weighted);
  struct Pending {
    uint64_t unit;
    uint32_t level, path;
  };
  std::vector<Pending> stack{{root, 0, 0}};
  alignas(64) std::byte copy[tree_node_units(true) * 64];
  while (!stack.empty()) {
    const Pending p = stack.back();
    stack.pop_back();
    if (p.unit == 0 || p.unit + units > layout.geometry.block_units)
      fail("{}: corrupt store: {}: it lies outside the block region", file.path(), tree_node_name(d, v, p.unit, p.level));
    std::byte* at = file.at<std::byte>(layout.block_offset(p.unit));
    std::atomic_ref<uint64_t> version(reinterpret_cast<TreeNodeHeader*>(at)->version);
    for (uint64_t attempt = 0;; ++attempt) {
      const uint64_t before = version.load(std::memory_order_acquire);
      std::memcpy(copy, at, units * 64);
      std::atomic_thread_fence(std::memory_order_acquire);
      if (version.load(std::memory_order_relaxed) == before) break;
      if (attempt > (uint64_t{1} << 24))
        fail("{}: {} kept changing while it was read", file.path(), tree_node_name(d, v, p.unit, p.level));
      ++walk.retries;
      _mm_pause();
    }
    const TreeNode node(copy, weighted);
    const TreeNodeHeader& h = node.header();
    uint64_t children = 0;
    const std::string fault = tree_header_fault(h, layout, p.unit, v, d, p.level, p.path, children);
    if (!fault.empty())
      fail("{}: corrupt store: {}: {}", file.path(), tree_node_name(d, v, p.unit, p.level), fault);
    if ((h.locate != h.set || (h.version & 1) != 0) && walk.unsettled.empty())
      walk.unsettled = fmt::format("{}: its bitmaps ({:#x}, {:#x}) or version {} are those of a batch under way",
                                   tree_node_name(d, v, p.unit, p.level), h.locate, h.set, h.version);
    const uint32_t path_mask = (uint32_t{1} << tree_shift(p.level)) - 1;
    for (uint64_t bits = h.set; bits != 0; bits &= bits - 1) {
      const auto slot = static_cast<uint32_t>(__builtin_ctzll(bits));
      const uint32_t n = node.neighbour(slot);
      if (!node.slot_intact(slot) || (n & path_mask) != p.path || n >= layout.geometry.vertices)
        fail("{}: corrupt store: {}: slot {} ({}) does not match its fingerprint or the node's path", file.path(),
             tree_node_name(d, v, p.unit, p.level), slot, n);
      emit(n, node.weight(slot));
    }
    ++walk.nodes;
    if (walk.on_node) walk.on_node(p.unit, h);
    for (uint32_t c = 0; children != 0 && c < tree_fanout(p.level); ++c)
      stack.push_back({children + c * units, p.level + 1, tree_child_path(p.path, p.level, c)});
  }
}

}  // namespace graphso::store
