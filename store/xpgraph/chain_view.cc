#include "store/xpgraph/chain_view.h"

#include <vector>

#include "store/xpgraph/adjacency_blocks.h"

namespace graphso::store {

namespace {

class ChainView final : public StoreView {
 public:
  ChainView(ReaderLease lease, PmemFile file, const StoreHeader& header)
      : StoreView(std::move(lease), std::move(file), header) {}

  ReadCounts out_edges(VertexId begin, VertexId end, const EdgeSink& sink) const override {
    return read(AdjacencyList::Out, out_log_, begin, end, sink);
  }
  // Only store-check reads the in-chains: their grouping of the log is made here, not at open.
  bool in_edges(const EdgeSink& sink, ReadCounts& counts) const override {
    counts = read(AdjacencyList::In, group_log(AdjacencyList::In), 0, static_cast<VertexId>(vertices()), sink);
    return true;
  }

 private:
  // The log records grouped by vertex (source for out, destination for in), in log order.
  struct LogByVertex {
    std::vector<uint64_t> begin;      // where each vertex's records start in `records`
    std::vector<size_t> records;      // indexes into logged_
  };

  void copy_position() override {
    const std::span<const uint32_t> table = checked_table_copy(file_, layout_, checkpoint_);
    heads_.assign(table.begin(), table.end());  // empty: no checkpoint yet, every chain empty
    copy_log();
    out_log_ = group_log(AdjacencyList::Out);
  }

  // A counting sort of the log by the vertex d names.
  LogByVertex group_log(AdjacencyList d) const {
    const bool out = d == AdjacencyList::Out;
    LogByVertex g;
    g.begin.assign(vertices() + 1, 0);
    for (const LoggedEdge& e : logged_) ++g.begin[(out ? e.src : e.dst) + 1];
    for (uint64_t v = 0; v < vertices(); ++v) g.begin[v + 1] += g.begin[v];
    g.records.resize(logged_.size());
    std::vector<uint64_t> next(g.begin.begin(), g.begin.end() - 1);
    for (size_t i = 0; i < logged_.size(); ++i) g.records[next[out ? logged_[i].src : logged_[i].dst]++] = i;
    return g;
  }

  // Direction d of the vertices [first, end): each chain, then the records naming it; edges as
  // (source, destination, weight), grouped by the vertex.
  ReadCounts read(AdjacencyList d, const LogByVertex& log, VertexId first, VertexId end, const EdgeSink& sink) const {
    const bool out = d == AdjacencyList::Out;
    ReadCounts counts;
    PieceSink pieces(sink, counts);
    std::vector<const AdjacencyBlock*> chain;
    LiveNeighbours neighbours(entry_words(header_.geometry));
    for (uint64_t v = first; v < end; ++v) {
      chain.clear();
      neighbours.clear();
      const uint32_t head = heads_.empty() ? 0 : heads_[(out ? 0 : vertices()) + v];
      walk_chain(file_, layout_, checkpoint_.high_water, d, static_cast<VertexId>(v), head,
                 [&](const AdjacencyBlock& block) {
                   chain.push_back(&block);
                   ++counts.blocks;
                   counts.block_bytes += store::block_units(block.header.size_class) * kBlockUnitBytes;
                 });
      neighbours.apply_chain(chain);
      for (uint64_t i = log.begin[v]; i < log.begin[v + 1]; ++i) {
        const LoggedEdge& e = logged_[log.records[i]];
        neighbours.apply((out ? e.dst : e.src) | (e.deleted ? kFlagBit : 0), e.weight);
      }
      const VertexId self = static_cast<VertexId>(v);
      neighbours.for_each([&](uint32_t n, Weight w) {
        pieces.pending().push_back(out ? WeightedEdge{self, n, w} : WeightedEdge{n, self, w});
      });
      pieces.boundary();
    }
    pieces.flush();
    return counts;
  }

  std::vector<uint32_t> heads_;              // out heads then in heads, as the table copy holds them
  LogByVertex out_log_;
};

}  // namespace

std::unique_ptr<StoreView> make_chain_view(ReaderLease lease, PmemFile file, const StoreHeader& header) {
  return std::make_unique<ChainView>(std::move(lease), std::move(file), header);
}

}  // namespace graphso::store
