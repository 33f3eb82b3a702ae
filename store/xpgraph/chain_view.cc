#include "store/xpgraph/chain_view.h"

#include <algorithm>
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
  void copy_position() override {
    const std::span<const uint32_t> table = checked_table_copy(file_, layout_, checkpoint_);
    heads_.assign(table.begin(), table.end());  // empty: no checkpoint yet, every chain empty
    copy_log();
    out_log_ = group_log(AdjacencyList::Out);
  }

  // Direction d of the vertices [first, end): each chain, then the records naming it; edges as
  // (source, destination, weight), grouped by the vertex.
  ReadCounts read(AdjacencyList d, const LogByVertex& log, VertexId first, VertexId end, const EdgeSink& sink) const {
    const bool out = d == AdjacencyList::Out;
    ReadCounts counts;
    PieceSink pieces(sink, counts, piece_buffers_);
    std::vector<std::span<const uint32_t>> chain;
    PagesTouched touched(layout_);
    for (uint64_t v = first; v < end; ++v) {
      chain.clear();
      const uint32_t head = heads_.empty() ? 0 : heads_[(out ? 0 : vertices()) + v];
      walk_chain(file_, layout_, checkpoint_.high_water, d, static_cast<VertexId>(v), head,
                 [&](const AdjacencyBlock& block) {
                   chain.emplace_back(block.entries, block.header.count);
                   ++counts.blocks;
                   counts.block_bytes += store::block_units(block.header.size_class) * kBlockUnitBytes;
                   const auto offset = static_cast<uint64_t>(reinterpret_cast<const std::byte*>(&block) - file_.base());
                   touched.note(offset, store::block_units(block.header.size_class) * kBlockUnitBytes, counts);
                 });
      std::reverse(chain.begin(), chain.end());  // walked newest first: applied oldest first
      emit_vertex(d, static_cast<VertexId>(v), chain, log, pieces);
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
