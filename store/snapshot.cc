#include "store/snapshot.h"

#include <optional>
#include <vector>

#include "datasets/edge_list.h"
#include "base/error.h"
#include "store/store_view.h"

namespace graphso::store {

namespace {

void fill_info(const StoreView& view, SnapshotInfo& info) {
  info.store_id = view.header().store_id;
  info.position = view.version();
  info.vertices = view.vertices();
  info.weighted = view.weighted();
  info.checkpoint_seq = view.checkpoint().seq;
  info.attempts = view.attempts();
}

}  // namespace

SnapshotInfo peek_snapshot_position(const std::string& store_path) {
  const StorePosition p = peek_store_position(store_path);
  SnapshotInfo info;
  info.store_id = p.header.store_id;
  info.position = p.head;
  info.vertices = p.header.geometry.vertices;
  info.weighted = p.header.geometry.weighted;
  info.checkpoint_seq = p.checkpoint.seq;
  return info;
}

SnapshotInfo scan_snapshot(const std::string& store_path, const SnapshotConsumer& consumer) {
  return scan_snapshot(*StoreView::open(store_path), consumer);
}

SnapshotInfo scan_snapshot(const StoreView& view, const SnapshotConsumer& consumer) {
  SnapshotInfo info;
  fill_info(view, info);
  consumer.begin();
  const ReadCounts out = view.out_edges(0, static_cast<VertexId>(view.vertices()), consumer.edges);
  info.edges = out.edges;
  info.blocks = out.blocks;
  info.block_bytes = out.block_bytes;
  ReadCounts in;
  if (consumer.in_edges && view.in_edges(consumer.in_edges, in)) {
    info.in_edges = in.edges;
    info.in_blocks = in.blocks;
    info.in_block_bytes = in.block_bytes;
  }
  return info;
}

SnapshotInfo write_snapshot_edges(const std::string& store_path, const std::string& edge_list_path) {
  const std::unique_ptr<StoreView> view = StoreView::open(store_path);
  std::optional<EdgeListWriter> writer;
  SnapshotConsumer consumer{
      [&] { writer.emplace(edge_list_path, view->weighted(), view->real_weights()); },  // a dropped writer leaves no file
      [&](std::span<const WeightedEdge> edges) { writer->append(edges); }, {}};
  SnapshotInfo info = scan_snapshot(*view, consumer);
  writer->finish(info.vertices);
  return info;
}

}  // namespace graphso::store
