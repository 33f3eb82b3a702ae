#include "store/ftgraph/tree_view.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <span>
#include <thread>
#include <unordered_map>
#include <vector>

#include "base/error.h"
#include "base/ranges_in_order.h"
#include "store/edge_log.h"
#include "store/ftgraph/op_ring.h"
#include "store/ftgraph/tree_nodes.h"

namespace graphso::store {

namespace {

constexpr uint32_t kAttempts = 32;

// One direction's edges at the view's version, grouped by vertex, as the walk's ranges read them:
// parts of consecutive vertices, each its own array. (Joined into one array, R-MAT 20's 128 MiB
// were copied and faulted in once more at every open.)
struct Adjacency {
  struct Part {
    VertexId first = 0;           // its vertices are [first, first + ends.size())
    std::vector<uint64_t> ends;   // where each vertex's edges end in `edges`
    std::vector<std::pair<VertexId, Weight>> edges;
  };
  std::vector<Part> parts;  // in vertex order, every vertex in one

  // v's edges. `part` is where the caller's last vertex lay: reading in vertex order, the part is
  // found by stepping on from it.
  std::span<const std::pair<VertexId, Weight>> of(VertexId v, size_t& part) const {
    if (part >= parts.size() || parts[part].first > v) part = 0;
    while (part + 1 < parts.size() && parts[part + 1].first <= v) ++part;
    const Part& p = parts[part];
    const uint64_t i = v - p.first;
    const uint64_t from = i == 0 ? 0 : p.ends[i - 1];
    return std::span<const std::pair<VertexId, Weight>>(p.edges).subspan(from, p.ends[i] - from);
  }
};

// The out-trees' shape (store-stat reads what a snapshot reads: the out-trees).
struct TreeStats {
  uint64_t trees = 0;                       // non-empty
  uint64_t nodes[kTreeMaxLevel + 1] = {};   // per level
  uint64_t roots_by_size[3] = {};           // roots of 16, 32 and 64 slots
  uint64_t slots_used = 0;                  // edges held
  uint64_t deepest = 0;                     // level

  TreeStats& operator+=(const TreeStats& o) {
    trees += o.trees;
    for (uint32_t level = 0; level <= kTreeMaxLevel; ++level) nodes[level] += o.nodes[level];
    for (uint32_t k = 0; k < 3; ++k) roots_by_size[k] += o.roots_by_size[k];
    slots_used += o.slots_used;
    deepest = std::max(deepest, o.deepest);
    return *this;
  }
};

class TreeView final : public StoreView {
 public:
  TreeView(ReaderLease lease, PmemFile file, const StoreHeader& header)
      : StoreView(std::move(lease), std::move(file), header) {}

  ReadCounts out_edges(VertexId begin, VertexId end, const EdgeSink& sink) const override {
    ReadCounts counts;
    // What the scan at open read goes with the read that starts at vertex 0 (a caller reading by
    // ranges counts it once).
    if (begin == 0) counts = out_counts_;
    counts.edges = 0;
    return emit(AdjacencyList::Out, out_, begin, end, sink, counts);
  }

  bool in_edges(const EdgeSink& sink, ReadCounts& counts) const override {
    Adjacency in;
    counts = ReadCounts{};
    std::string why;
    if (!read_version(AdjacencyList::In, head_, in, counts, nullptr, why))
      fail("{}: the in-trees cannot be read at version {}: {}", file_.path(), head_, why);
    counts.edges = 0;
    counts = emit(AdjacencyList::In, in, 0, static_cast<VertexId>(vertices()), sink, counts);
    return true;
  }

  uint64_t edges_set_back() const override { return set_back_; }

  // The out-trees: nodes per level, roots by their size, how full the nodes are; a batch under way.
  std::vector<StatLine> stat_lines() const override {
    const TreeStats& t = out_stats_;
    std::vector<StatLine> out{stat_count("out_trees", t.trees)};
    uint64_t nodes = 0;
    for (uint32_t level = 0; level <= kTreeMaxLevel; ++level) {
      nodes += t.nodes[level];
      if (t.nodes[level]) out.push_back(stat_count(fmt::format("out_nodes_level_{}", level), t.nodes[level]));
    }
    const uint64_t applying = read_tree_words(file_, layout_).applying;
    const uint64_t head = read_log_head(file_, layout_);
    out.insert(out.end(), {stat_count("out_roots_16", t.roots_by_size[0]), stat_count("out_roots_32", t.roots_by_size[1]),
                           stat_count("out_roots_64", t.roots_by_size[2]), stat_count("out_tree_depth_max", t.deepest),
                           stat_count("out_slots_used", t.slots_used),
                           stat_ratio("node_slot_utilisation", nodes ? static_cast<double>(t.slots_used) / (64.0 * nodes) : 0.0),
                           stat_count("batch_under_way", applying - std::min(applying, head))});
    return out;
  }

  // No checkpoints: the allocation mark beside the head says it.
  uint64_t high_water(const Checkpoint&) const override { return read_tree_words(file_, layout_).allocated; }

 private:
  void copy_position() override {
    std::string why;
    for (uint32_t attempt = 1; attempt <= kAttempts; ++attempt) {
      head_ = read_log_head(file_, layout_);
      out_counts_ = ReadCounts{};
      out_stats_ = TreeStats{};
      set_back_ = 0;
      if (read_version(AdjacencyList::Out, head_, out_, out_counts_, &out_stats_, why, &set_back_)) {
        attempts_ = attempt;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(std::min<uint32_t>(attempt, 4)));  // about 0.1 s in all
    }
    fail("{}: no consistent version after {} attempts: {}", file_.path(), kAttempts, why);
  }

  // Direction d at version `version` into `adj`: false (with `why`) when it must be tried again.
  bool read_version(AdjacencyList d, uint64_t version, Adjacency& adj, ReadCounts& counts, TreeStats* stats,
                    std::string& why, uint64_t* set_back = nullptr) const {
    // Every node a store at rest reaches lies below the allocation mark; the writer's recovery
    // allocates from it, so it is checked here too.
    const uint64_t before = read_tree_words(file_, layout_).applying;
    if (before < version) fail("{}: corrupt store: the batch word ({}) is behind the log head ({})", file_.path(), before, version);
    std::string unsettled;
    const uint64_t trees = walk_trees(d, adj, counts, stats, unsettled);
    const TreeWords end = read_tree_words(file_, layout_);
    const uint64_t after = end.applying;
    if (before == version && after == version) {
      // At rest all along: nodes must be settled, and the roots as many as the count says, or they
      // are damaged.
      if (!unsettled.empty()) fail("{}: corrupt store: {}", file_.path(), unsettled);
      check_tree_count(file_, d, end, trees);
      return true;
    }
    // Operations [version, after) may have changed what the walk saw: undo them.
    const std::optional<OpRing> ring = OpRing::open(file_.path(), header_.store_id);
    if (!ring && read_log_head(file_, layout_) != version) {
      // The writer finished a batch since the walk began, and may have closed (its ring goes
      // with it): read again at the newer head.
      why = fmt::format("the writer went past version {} and closed during the read", version);
      return false;
    }
    if (!ring)
      fail("{}: operations {}..{} are partly applied and no writer publishes them (an ingest stopped in a batch; run "
           "it again to finish the batch)", file_.path(), version, after - 1);
    if (ring->exact_from() > version) {
      why = fmt::format("operations {}..{} are partly applied and the writer that opened the store since is replaying "
                        "them or has stopped (run the ingest again to finish the batch)", version, after - 1);
      return false;
    }
    const auto before_ops = ring->states_before(version, after, d == AdjacencyList::Out, why);
    if (!before_ops) return false;
    if (ring->exact_from() > version) {
      why = "a new writer replays an interrupted batch";
      return false;
    }
    undo(adj, *before_ops);
    if (set_back) *set_back = before_ops->size();
    return true;
  }

  // Every direction-d tree into `adj`, walked by the process's threads over ranges of vertices
  // (nodes are read whole whatever else reads them: walk_tree), with what the walk counted and the
  // first unsettled node, in vertex order; returns the trees found.
  uint64_t walk_trees(AdjacencyList d, Adjacency& adj, ReadCounts& counts, TreeStats* stats, std::string& unsettled) const {
    struct RangeRead {
      Adjacency::Part part;
      ReadCounts counts;
      TreeStats stats;
      std::string unsettled;
    };
    const uint64_t n = vertices();
    const uint64_t node_bytes = tree_node_units(weighted()) * kBlockUnitBytes;
    const int threads = std::max(1, omp_get_max_threads());
    const uint64_t ranges = std::min<uint64_t>(n, uint64_t{16} * static_cast<uint64_t>(threads));
    std::vector<RangeRead> reads(ranges);
    // An error is the first in vertex order, as one thread's walk would meet it: store-check, a
    // snapshot and a run name the same damaged word.
    for_ranges_in_order(ranges, threads, [&](uint64_t r) {
      RangeRead& range = reads[r];
      const uint64_t first = n * r / ranges, end = n * (r + 1) / ranges;
      range.part.first = static_cast<VertexId>(first);
      range.part.ends.reserve(end - first);
      // Room for 64 edges a vertex (at most 2^24 edges, 128 MiB), taken as address space only (a
      // page is backed when first written): grown by doubling from empty, a range's edges were
      // copied and faulted in again at every step (89 K page faults in an open of R-MAT 20, 52 K
      // with the room).
      range.part.edges.reserve(std::min<uint64_t>(64 * (end - first), uint64_t{1} << 24));
      PagesTouched touched(layout_);
      TreeWalk walk;
      walk.on_node = [&](uint64_t unit, const TreeNodeHeader& h) {
        ++range.counts.blocks;
        range.counts.block_bytes += node_bytes;
        touched.note(layout_.block_offset(unit), node_bytes, range.counts);
        ++range.stats.nodes[h.level];
        range.stats.slots_used += static_cast<uint64_t>(__builtin_popcountll(h.set));
        range.stats.deepest = std::max<uint64_t>(range.stats.deepest, h.level);
        if (h.level == 0) ++range.stats.roots_by_size[h.size == 16 ? 0 : h.size == 32 ? 1 : 2];
      };
      for (uint64_t v = first; v < end; ++v) {
        const uint64_t root = checked_root(file_, layout_, d, static_cast<VertexId>(v));
        if (root != 0) {
          ++range.stats.trees;
          walk_tree(file_, layout_, d, static_cast<VertexId>(v), root, walk,
                    [&](uint32_t m, Weight w) { range.part.edges.emplace_back(m, w); });
        }
        range.part.ends.push_back(range.part.edges.size());
      }
      range.unsettled = std::move(walk.unsettled);
    });
    // The ranges kept in vertex order.
    uint64_t trees = 0;  // non-empty trees
    adj.parts.clear();
    for (RangeRead& range : reads) {
      adj.parts.push_back(std::move(range.part));
      counts.blocks += range.counts.blocks;
      counts.block_bytes += range.counts.block_bytes;
      counts.pages += range.counts.pages;
      trees += range.stats.trees;
      if (unsettled.empty()) unsettled = std::move(range.unsettled);
      if (stats) *stats += range.stats;
      range = RangeRead{};
    }
    return trees;
  }

  // Every edge an operation touched is set back to what it was before the first of them.
  void undo(Adjacency& adj, const std::unordered_map<uint64_t, OpRing::EdgeBefore>& before_ops) const {
    if (before_ops.empty()) return;
    std::vector<std::tuple<VertexId, VertexId, bool, Weight>> touched;
    for (const auto& [key, state] : before_ops)
      touched.emplace_back(static_cast<VertexId>(key >> 32), static_cast<VertexId>(key), state.present, state.weight);
    std::sort(touched.begin(), touched.end());
    Adjacency::Part fixed;
    size_t part = 0;
    size_t t = 0;
    for (uint64_t v = 0; v < vertices(); ++v) {
      const size_t from = t;
      while (t < touched.size() && std::get<0>(touched[t]) == v) ++t;
      for (const auto& e : adj.of(static_cast<VertexId>(v), part))
        if (t == from || !before_ops.contains(uint64_t{static_cast<VertexId>(v)} << 32 | e.first)) fixed.edges.push_back(e);
      for (size_t k = from; k < t; ++k)
        if (std::get<2>(touched[k])) fixed.edges.emplace_back(std::get<1>(touched[k]), std::get<3>(touched[k]));
      fixed.ends.push_back(fixed.edges.size());
    }
    adj.parts.clear();
    adj.parts.push_back(std::move(fixed));
  }

  ReadCounts emit(AdjacencyList d, const Adjacency& adj, VertexId begin, VertexId end, const EdgeSink& sink,
                  ReadCounts counts) const {
    PieceSink pieces(sink, counts, piece_buffers_);
    size_t part = 0;
    for (uint64_t v = begin; v < end; ++v) {
      for (const auto& [m, w] : adj.of(static_cast<VertexId>(v), part)) {
        pieces.pending().push_back(d == AdjacencyList::Out ? WeightedEdge{static_cast<VertexId>(v), m, w}
                                                           : WeightedEdge{m, static_cast<VertexId>(v), w});
      }
      pieces.boundary();
    }
    pieces.flush();
    return counts;
  }

  Adjacency out_;
  ReadCounts out_counts_;
  TreeStats out_stats_;
  uint64_t set_back_ = 0;
};

}  // namespace

std::unique_ptr<StoreView> make_tree_view(ReaderLease lease, PmemFile file, const StoreHeader& header) {
  return std::make_unique<TreeView>(std::move(lease), std::move(file), header);
}

}  // namespace graphso::store
