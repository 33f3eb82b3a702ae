#include "store/ftgraph/ftgraph_store.h"

#include <algorithm>
#include <atomic>
#include <cstddef>

#include "base/error.h"
#include "store/dirty_lines.h"
#include "store/edge_log.h"
#include "store/ftgraph/op_ring.h"
#include "store/ftgraph/tree_nodes.h"

namespace graphso::store {

uint64_t ftgraph_units(uint64_t vertices, uint64_t edges, bool weighted) {
  // Every vertex may get both trees whatever `edges` says (a store fed in parts); nodes never
  // straddle a page, which wastes up to a node's size of each page.
  const uint64_t nodes = 2 * vertices + 2 * edges / 16 + 1024;
  const uint64_t per_page = kUnitsPerPage / tree_node_units(weighted);
  return std::min<uint64_t>((nodes + per_page - 1) / per_page * kUnitsPerPage + kUnitsPerPage, uint64_t{1} << 32);
}

namespace {

// Where an edge stands in a tree, as a batch sees it.
struct EdgeState {
  bool present = false;
  Weight weight = 1;
  uint64_t unit = 0;  // present: its node and slot
  uint32_t slot = 0;
};

// A lookup's result: the edge's state, and where an insert would go.
struct Lookup {
  EdgeState state;
  uint64_t room = 0;   // the first node on the path with a free slot (or a root that can grow), 0: none
  uint64_t last = 0;   // the path's last node (branches when there is no room)
  uint32_t last_level = 0, last_path = 0;
};

// A node's changes in this batch, committed at once by its set bitmap.
struct NodeChange {
  uint64_t unit = 0;
  uint64_t add = 0;    // slots written this batch
  uint64_t clear = 0;  // slots whose edge this batch deleted
};

class FtgraphStore final : public StoreWriter {
 public:
  FtgraphStore(WriterLock lock, PmemFile file, const StoreHeader& header, const StoreOptions& options)
      : StoreWriter(std::move(lock), std::move(file), header, options),
        roots_(2 * header.geometry.vertices, 0),
        units_(tree_node_units(header.geometry.weighted)),
        dirty_(layout_),
        scratch_(options.threads) {
    recover();
    ring_ = OpRing::create(file_.path(), header_.store_id, applying_);
  }

  // A writer that stops in a batch (killed) leaves its ring, whose records let readers see the
  // head's version until a writer finishes the batch; one that is destroyed removes it.
  ~FtgraphStore() override { ring_.remove(); }

  // --- writing ---

  void add(std::span<const WeightedEdge> edges, bool deletes) override { add_records(edges, deletes); }
  void add(std::span<const Edge> edges, bool deletes) override { add_records(edges, deletes); }

  template <typename EdgeRecord>
  void add_records(std::span<const EdgeRecord> edges, bool deletes) {
    check_ids(edges);
    const uint64_t batch_size = option_value(options_.tuning, kApplyBatchOption);
    while (!edges.empty()) {
      const std::span<const EdgeRecord> batch = edges.first(std::min<uint64_t>(edges.size(), batch_size));
      edges = edges.subspan(batch.size());
      apply_batch(batch, deletes);
    }
  }

  void buffer_all() override {}
  void checkpoint() override {}  // every batch is in the trees when it is acknowledged
  void compact() override {}     // a deletion frees its slot for the next insert on the path
  void close() override {}
  // No checkpoint to move: the head and the batch word are the position.
  void move_log_to(uint64_t position) override {
    write_word(applying_word(layout_), position);
    persister_.persist(applying_word(layout_), sizeof(uint64_t));
    applying_ = position;
    log_.advance_to(position);
  }

  // --- reading ---

  std::vector<std::pair<VertexId, Weight>> edges(AdjacencyList d, VertexId v) const override {
    check_vertex(v);
    std::vector<std::pair<VertexId, Weight>> out;
    const uint64_t root = roots_[index(d, v)];
    if (root == 0) return out;
    TreeWalk walk;
    walk_tree(file_, layout_, d, v, root, walk, [&](uint32_t n, Weight w) { out.emplace_back(n, w); });
    if (!walk.unsettled.empty()) fail("{}: corrupt store: {}", file_.path(), walk.unsettled);
    std::sort(out.begin(), out.end());
    return out;
  }

  StoreStatus status() const override {
    StoreStatus s = common_status();
    s.high_water = next_unit_.load();
    s.applying = applying_;
    // What set semantics made of this process's operations (inserts of an edge already present,
    // deletions of one absent: nothing written), full nodes that got children, roots grown in
    // place (16 -> 32 -> 64 slots), and at recovery the links to nodes of the interrupted batch
    // whose headers never persisted.
    s.counters = {{"duplicates", duplicates_.load()}, {"absent_deletes", absent_deletes_.load()},
                  {"branch_outs", branch_outs_.load()}, {"scale_ups", scale_ups_.load()},
                  {"links_cleared", links_cleared_}};
    s.notes.push_back(fmt::format("set semantics: {} inserts of edges already present, {} deletions of absent edges "
                                  "(nothing written for either)", s.counter("duplicates"), s.counter("absent_deletes")));
    return s;
  }

 private:
  // Per thread: its operations of the batch, and what they did to the trees it owns.
  struct Scratch {
    std::vector<std::pair<uint64_t, uint32_t>> ops;  // (vertex << 32 | neighbour, batch index), sorted
    std::vector<NodeChange> changed;                 // nodes, a vertex's side by side
    uint64_t vertex_changes = 0;                     // where the current vertex's start in `changed`
    std::vector<uint64_t> new_roots;                 // vertex array indexes
  };

  uint64_t index(AdjacencyList d, VertexId v) const {
    return (d == AdjacencyList::Out ? 0 : header_.geometry.vertices) + v;
  }
  uint64_t* root_word(uint64_t i) const { return file_.at<uint64_t>(layout_.tables[0]) + i; }
  TreeNode node(uint64_t unit) const { return TreeNode(file_, layout_, unit); }

  // The batch [head, head + n): see the persist order in ftgraph_store.h.
  template <typename EdgeRecord>
  void apply_batch(std::span<const EdgeRecord> batch, bool deletes) {
    const uint64_t start = log_.head();
    const uint64_t end = start + batch.size();
    if (end > kMaxLogPosition) fail("{}: the store's positions are used up ({} operations)", file_.path(), start);
    write_word(applying_word(layout_), end);
    persister_.persist(applying_word(layout_), sizeof(uint64_t));
    applying_ = end;

    try {
      run_tasks(options_.threads, [&](uint32_t t) { apply_direction(t, AdjacencyList::Out, batch, deletes, start); });
      run_tasks(options_.threads, [&](uint32_t t) { apply_direction(t, AdjacencyList::In, batch, deletes, start); });
    } catch (const Error&) {
      abandon_batch(start);
      throw;
    }
    persister_.persist(dirty_.take());
    persister_.crash_point(kTreeEntriesPoint);

    std::vector<std::vector<ByteRange>> per_thread(options_.threads);
    run_tasks(options_.threads, [&](uint32_t t) { settle_nodes(scratch_[t], true, per_thread[t]); });
    std::vector<ByteRange> ranges;
    for (const auto& r : per_thread) ranges.insert(ranges.end(), r.begin(), r.end());
    const std::vector<ByteRange> headers = header_ranges(std::move(ranges));
    if (persister_.cuts_at(kTreeBitmapsTornPoint))
      persister_.torn_cut(kTreeBitmapsTornPoint, torn_lines(headers, ++batches_ & 1));
    persister_.persist(headers);
    persister_.crash_point(kTreeBitmapsPoint);
    log_.advance_to(end);
    persister_.crash_point(CrashPoint::LogHead);
  }

  // A batch that failed before any set bitmap changed (the store full, a damaged node met): none of
  // it is applied. The nodes it touched are settled (their slots taken back), what it allocated
  // stays, empty, and is made durable, then the batch word says no batch is under way.
  void abandon_batch(uint64_t head) {
    persister_.persist(dirty_.take());
    std::vector<ByteRange> ranges;
    for (Scratch& s : scratch_) settle_nodes(s, false, ranges);
    persist_headers(std::move(ranges));
    write_word(applying_word(layout_), head);
    persister_.persist(applying_word(layout_), sizeof(uint64_t));
    applying_ = head;
  }

  // The changed nodes' headers, and the vertex array words of new roots, persisted in file order
  // with the allocation mark and the tree counts.
  void persist_headers(std::vector<ByteRange> ranges) { persister_.persist(header_ranges(std::move(ranges))); }

  // The allocation mark and the tree counts written, and their words added to `ranges`: all of
  // them in file order, adjacent ones joined.
  std::vector<ByteRange> header_ranges(std::vector<ByteRange> ranges) {
    write_word(allocated_word(layout_), std::min(next_unit_.load(), header_.geometry.block_units));
    for (AdjacencyList d : {AdjacencyList::Out, AdjacencyList::In}) write_word(tree_count_word(layout_, d), trees_[static_cast<int>(d)]);
    ranges.push_back({allocated_word(layout_), 3 * sizeof(uint64_t)});
    std::sort(ranges.begin(), ranges.end(), [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
    std::vector<ByteRange> joined;
    for (const ByteRange& r : ranges) add_range(joined, r.offset, r.length);
    return joined;
  }

  // For the torn power cut: the parts of `ranges` in every other 64-byte line of the file (the
  // lines whose number has parity `parity`), as a persist that stops part way may leave them.
  static std::vector<ByteRange> torn_lines(std::span<const ByteRange> ranges, uint64_t parity) {
    std::vector<ByteRange> reached;
    for (const ByteRange& r : ranges)
      for (uint64_t at = r.offset; at < r.offset + r.length;) {
        const uint64_t line_end = std::min(align_down(at, 64) + 64, r.offset + r.length);
        if ((at / 64 & 1) == parity) add_range(reached, at, line_end - at);
        at = line_end;
      }
    return reached;
  }

  void write_word(uint64_t offset, uint64_t position) {
    std::atomic_ref<uint64_t>(*file_.at<uint64_t>(offset)).store(encode_log_head(position), std::memory_order_release);
  }

  // Thread t's share of the batch in direction d: the vertices v with v % threads == t, an edge's
  // operations in batch order (a batch is all inserts or all deletions). An insert of an edge the
  // tree lacks goes in, a deletion of one it holds comes out, the rest changes nothing; so each
  // tree ends where the batch leaves the edge, however much of the batch an interrupted run had
  // applied to it. The ops are sorted by vertex and neighbour: one lookup per edge, and a vertex's
  // nodes stay in cache while its edges are applied. The out-trees publish each operation before
  // any tree changes.
  template <typename EdgeRecord>
  void apply_direction(uint32_t t, AdjacencyList d, std::span<const EdgeRecord> batch, bool deletes, uint64_t start) {
    Scratch& s = scratch_[t];
    const bool out = d == AdjacencyList::Out;
    const uint32_t threads = options_.threads;
    s.ops.clear();
    for (uint64_t i = 0; i < batch.size(); ++i) {
      const VertexId v = out ? batch[i].src : batch[i].dst;
      if (v % threads == t) s.ops.emplace_back(uint64_t{v} << 32 | (out ? batch[i].dst : batch[i].src), static_cast<uint32_t>(i));
    }
    std::sort(s.ops.begin(), s.ops.end());
    VertexId current = kNoVertex;
    constexpr size_t kAhead = 8;  // edges between a root's prefetch and its use
    for (size_t k = 0; k < s.ops.size();) {
      if (k + kAhead < s.ops.size()) prefetch_root(d, static_cast<VertexId>(s.ops[k + kAhead].first >> 32));
      const uint64_t key = s.ops[k].first;
      const auto v = static_cast<VertexId>(key >> 32);
      const auto n = static_cast<uint32_t>(key);
      if (v != current) {
        current = v;
        s.vertex_changes = s.changed.size();
      }
      const Lookup found = lookup(d, v, n);
      EdgeState state = found.state;
      for (; k < s.ops.size() && s.ops[k].first == key; ++k) {
        const uint32_t i = s.ops[k].second;
        const EdgeRecord& e = batch[i];
        if (out) ring_.publish(start + i, e.src, e.dst, deletes, state.present, state.weight);
        if (state.present != deletes) {
          if (out) ++(deletes ? absent_deletes_ : duplicates_);
          continue;
        }
        if (deletes) {
          remove(state, s);
          state = EdgeState{};
        } else {
          Weight w = 1;
          if constexpr (requires { e.weight; }) w = header_.geometry.weighted ? e.weight : 1;
          state = insert(d, v, n, w, found, s);
        }
      }
    }
  }

  void prefetch_root(AdjacencyList d, VertexId v) const {
    const uint64_t root = roots_[index(d, v)];
    if (root == 0) return;
    const char* at = file_.at<char>(layout_.block_offset(root));
    _mm_prefetch(at, _MM_HINT_T0);
    _mm_prefetch(at + 64, _MM_HINT_T0);
  }

  // Where n stands in (d, v)'s tree, and where an insert would go.
  Lookup lookup(AdjacencyList d, VertexId v, uint32_t n) const {
    Lookup r;
    const uint8_t fp = tree_fingerprint(n);
    uint64_t unit = roots_[index(d, v)];
    uint32_t level = 0, path = 0;
    while (unit != 0) {
      const TreeNode x = node(unit);
      const TreeNodeHeader& h = x.header();
      const uint64_t children = checked_children(h, unit, d, v, level, path);
      if (!r.state.present) {
        for (uint64_t m = x.matching(fp) & h.set; m != 0; m &= m - 1) {
          const auto slot = static_cast<uint32_t>(__builtin_ctzll(m));
          if (x.neighbour(slot) == n) {
            r.state = EdgeState{true, x.weight(slot), unit, slot};
            break;
          }
        }
      }
      const bool room = (~h.locate & slot_mask(h.size)) != 0 || h.size < kTreeSlots;
      if (room && r.room == 0) r.room = unit;
      r.last = unit;
      r.last_level = level;
      r.last_path = path;
      if (children == 0) break;
      const uint32_t c = tree_child(n, level);
      unit = children + c * units_;
      path = tree_child_path(path, level, c);
      ++level;
      const char* next = file_.at<char>(layout_.block_offset(unit));
      _mm_prefetch(next, _MM_HINT_T0);
      _mm_prefetch(next + 64, _MM_HINT_T0);
    }
    return r;
  }

  // The node's children (0: none), its header checked on the way (tree_header_fault).
  uint64_t checked_children(const TreeNodeHeader& h, uint64_t unit, AdjacencyList d, VertexId v, uint32_t level,
                            uint32_t path) const {
    uint64_t children = 0;
    const std::string fault = tree_header_fault(h, layout_, unit, v, d, level, path, children);
    if (!fault.empty()) fail("{}: corrupt store: {}: {}", file_.path(), tree_node_name(d, v, unit, level), fault);
    return children;
  }

  // The node's first change in this batch makes its version odd (readers retry on it). A node
  // belongs to one vertex, so only the current vertex's changes are searched.
  NodeChange& touch(uint64_t unit, Scratch& s) {
    for (size_t c = s.vertex_changes; c < s.changed.size(); ++c)
      if (s.changed[c].unit == unit) return s.changed[c];
    std::atomic_ref<uint64_t> version(node(unit).header().version);
    version.store(version.load(std::memory_order_relaxed) | 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    return s.changed.emplace_back(NodeChange{unit, 0, 0});
  }

  // `count` nodes side by side, never across a 4 KiB page: a page lost whole takes a node's header
  // with its slots.
  uint64_t allocate(uint64_t count) {
    const uint64_t units = count * units_;
    uint64_t unit = next_unit_.load();
    uint64_t start = 0;
    do {
      start = (unit % kUnitsPerPage) + units > kUnitsPerPage ? (unit / kUnitsPerPage + 1) * kUnitsPerPage : unit;
      if (start + units > header_.geometry.block_units) break;
    } while (!next_unit_.compare_exchange_weak(unit, start + units));
    unit = start;
    if (unit + units > header_.geometry.block_units)
      fail_full("{}: the store is full: its {} block units hold no more tree nodes (create it with a larger "
           "--block-space or --expect-edges)", file_.path(), header_.geometry.block_units);
    return unit;
  }

  // A fresh node's header; persisted with the batch's entries, before anything links to it.
  void init_node(uint64_t unit, VertexId v, AdjacencyList d, uint32_t level, uint32_t path, uint64_t size) {
    TreeNodeHeader& h = node(unit).header();
    h = TreeNodeHeader{};
    h.size = size;
    h.owner = v;
    h.direction = static_cast<uint8_t>(d);
    h.level = static_cast<uint8_t>(level);
    h.path = path;
    h.check = tree_identity_check(h.owner, h.direction, h.level, h.path);
    dirty_.mark(layout_.block_offset(unit) - layout_.blocks, sizeof(TreeNodeHeader));
  }

  EdgeState insert(AdjacencyList d, VertexId v, uint32_t n, Weight w, const Lookup& found, Scratch& s) {
    uint64_t target = found.room;
    if (found.last == 0) {
      // The vertex's first edge in this direction: a root with room for 64, in use for 16.
      target = allocate(1);
      init_node(target, v, d, 0, 0, 16);
      const uint64_t i = index(d, v);
      roots_[i] = target;
      ++trees_[static_cast<int>(d)];
      std::atomic_ref<uint64_t>(*root_word(i)).store(tree_link(target, root_salt(d, v)), std::memory_order_release);
      s.new_roots.push_back(i);
    } else if (target == 0) {
      // The path is full: its last node branches, all its children at once.
      const uint32_t level = found.last_level;
      if (level >= kTreeMaxLevel) fail("{}: corrupt store: a full node at level {} cannot branch", file_.path(), level);
      const uint64_t children = allocate(tree_fanout(level));
      for (uint32_t c = 0; c < tree_fanout(level); ++c)
        init_node(children + c * units_, v, d, level + 1, tree_child_path(found.last_path, level, c), kTreeSlots);
      touch(found.last, s);
      std::atomic_ref<uint64_t>(node(found.last).header().next).store(tree_link(children, found.last), std::memory_order_release);
      ++branch_outs_;
      target = children + tree_child(n, level) * units_;
    }
    NodeChange& change = touch(target, s);
    const TreeNode x = node(target);
    TreeNodeHeader& h = x.header();
    if ((~h.locate & slot_mask(h.size)) == 0) {
      h.size *= 2;  // a root grows in place: its slots are there already
      ++scale_ups_;
    }
    const auto slot = static_cast<uint32_t>(__builtin_ctzll(~h.locate & slot_mask(h.size)));
    h.locate |= uint64_t{1} << slot;
    x.write_slot(slot, n, w);
    const uint64_t at = layout_.block_offset(target) - layout_.blocks;
    dirty_.mark(at + x.entry_offset(slot), x.entry_bytes());
    dirty_.mark(at + 64 + slot, 1);
    if (x.weighted()) dirty_.mark(at + 128 + slot, 1);
    change.add |= uint64_t{1} << slot;
    return EdgeState{true, w, target, slot};
  }

  // A batch of deletions writes no slot, so the slot is a committed one.
  void remove(const EdgeState& e, Scratch& s) { touch(e.unit, s).clear |= uint64_t{1} << e.slot; }

  // Each node s changed: its set bitmap (one 8-byte store commits its new slots and clears its
  // deleted ones; `commit` false: left as it was), locate made equal to it, the version even
  // again; their ranges, and those of new roots' words, added to `ranges`.
  void settle_nodes(Scratch& s, bool commit, std::vector<ByteRange>& ranges) {
    constexpr size_t kAhead = 8;
    for (size_t c = 0; c < s.changed.size(); ++c) {
      if (c + kAhead < s.changed.size())
        _mm_prefetch(file_.at<char>(layout_.block_offset(s.changed[c + kAhead].unit)), _MM_HINT_T0);
      const NodeChange& change = s.changed[c];
      TreeNodeHeader& h = node(change.unit).header();
      const uint64_t set = commit ? (h.set & ~change.clear) | change.add : h.set;
      std::atomic_ref<uint64_t>(h.set).store(set, std::memory_order_release);
      h.locate = set;
      std::atomic_ref<uint64_t>(h.version).store((h.version | 1) + 1, std::memory_order_release);
      ranges.push_back({layout_.block_offset(change.unit), sizeof(TreeNodeHeader)});
    }
    for (uint64_t i : s.new_roots) ranges.push_back({layout_.tables[0] + i * sizeof(uint64_t), sizeof(uint64_t)});
    s.changed.clear();
    s.vertex_changes = 0;
    s.new_roots.clear();
  }

  // Recovery: the vertex array into DRAM; on a store at rest that is all (readers and queries check
  // every node they read). After a crash in a batch, every tree is walked: each node's locate
  // bitmap becomes its set bitmap and its version even, and the allocation mark is past every
  // node reachable.
  void recover() {
    const uint64_t head = log_.head();
    const TreeWords words = read_tree_words(file_, layout_);
    if (words.applying < head)
      fail("{}: corrupt store: the batch word ({}) is behind the log head ({})", file_.path(), words.applying, head);
    applying_ = words.applying;
    const uint64_t vertices = header_.geometry.vertices;
    for (uint64_t i = 0; i < 2 * vertices; ++i) {
      const AdjacencyList d = i < vertices ? AdjacencyList::Out : AdjacencyList::In;
      roots_[i] = checked_root(file_, layout_, d, static_cast<VertexId>(i < vertices ? i : i - vertices));
      if (roots_[i] != 0) ++trees_[static_cast<int>(d)];
    }
    next_unit_ = words.allocated;
    if (applying_ == head)
      for (AdjacencyList d : {AdjacencyList::Out, AdjacencyList::In}) check_tree_count(file_, d, words, trees_[static_cast<int>(d)]);
    repaired_input_slot_ = repair_inputs(file_, layout_, persister_);
    if (applying_ == head) return;
    std::vector<ByteRange> ranges;
    uint64_t high = words.allocated;
    for (uint64_t i = 0; i < 2 * vertices; ++i)
      if (roots_[i] != 0) settle_tree(i, words.allocated, high, ranges);
    next_unit_ = high;
    persist_headers(std::move(ranges));
  }

  // Tree i after a crash in a batch. A node at or past `mark` (the allocation mark persisted before
  // the batch) was allocated by it; a link to it may have reached the media before its header did
  // (a page written back early, a line evicted), and then the header holds nothing of the batch's
  // commits either (its `set` bitmap lives in it): the link is cleared and the batch's replay
  // allocates again. Any other node whose header does not hold together is damage.
  void settle_tree(uint64_t i, uint64_t mark, uint64_t& high, std::vector<ByteRange>& ranges) {
    const uint64_t vertices = header_.geometry.vertices;
    const AdjacencyList d = i < vertices ? AdjacencyList::Out : AdjacencyList::In;
    const auto v = static_cast<VertexId>(i < vertices ? i : i - vertices);
    struct Pending {
      uint64_t unit;
      uint32_t level, path;
      uint64_t link;  // file offset of the word that names it
    };
    std::vector<Pending> stack{{roots_[i], 0, 0, layout_.tables[0] + i * sizeof(uint64_t)}};
    while (!stack.empty()) {
      const Pending p = stack.back();
      stack.pop_back();
      TreeNodeHeader& h = node(p.unit).header();
      uint64_t children = 0;
      const std::string fault = tree_header_fault(h, layout_, p.unit, v, d, p.level, p.path, children);
      if (!fault.empty() && p.unit >= mark) {
        std::atomic_ref<uint64_t>(*file_.at<uint64_t>(p.link)).store(0, std::memory_order_release);
        ranges.push_back({p.link, sizeof(uint64_t)});
        if (p.level == 0) {
          roots_[i] = 0;
          --trees_[static_cast<int>(d)];
        }
        ++links_cleared_;
        continue;
      }
      if (!fault.empty()) fail("{}: corrupt store: {}: {}", file_.path(), tree_node_name(d, v, p.unit, p.level), fault);
      if (h.locate != h.set || (h.version & 1) != 0) {
        h.locate = h.set;
        h.version = (h.version | 1) + 1;
        ranges.push_back({layout_.block_offset(p.unit), sizeof(TreeNodeHeader)});
      }
      high = std::max(high, p.unit + units_);
      const uint64_t next = layout_.block_offset(p.unit) + offsetof(TreeNodeHeader, next);
      for (uint32_t c = 0; children != 0 && c < tree_fanout(p.level); ++c) {
        high = std::max(high, children + (c + 1) * units_);
        stack.push_back({children + c * units_, p.level + 1, tree_child_path(p.path, p.level, c), next});
      }
    }
  }

  std::vector<uint64_t> roots_;  // the vertex array's units: out-trees, then in-trees
  uint64_t units_;               // of a node
  DirtyLines dirty_;             // entries and new node headers written this batch
  std::vector<Scratch> scratch_;
  OpRing ring_;
  std::atomic<uint64_t> next_unit_ = 1;
  std::atomic<uint64_t> trees_[2] = {0, 0};  // non-empty out-trees and in-trees
  uint64_t applying_ = 0;
  uint64_t links_cleared_ = 0;  // by recovery: links to nodes of the interrupted batch never persisted
  uint64_t batches_ = 0;        // the torn power cut's passes by this writer: it alternates its lines by them
  std::atomic<uint64_t> duplicates_ = 0, absent_deletes_ = 0, branch_outs_ = 0, scale_ups_ = 0;
};

}  // namespace

std::unique_ptr<StoreWriter> open_ftgraph_store(WriterLock lock, PmemFile file, const StoreHeader& header,
                                                const StoreOptions& options) {
  return std::make_unique<FtgraphStore>(std::move(lock), std::move(file), header, options);
}

}  // namespace graphso::store
