#include "store/snapshot.h"

#include <optional>
#include <vector>

#include "datasets/edge_list.h"
#include "base/error.h"
#include "store/adjacency_blocks.h"
#include "store/edge_log.h"
#include "store/pmem_file.h"
#include "store/store_meta.h"

namespace graphso::store {
namespace {

constexpr uint32_t kMaxAttempts = 64;

struct Position {
  Checkpoint checkpoint;
  uint64_t head = 0;
};

// The checkpoint in force and the persisted head, read in that order (the head never falls behind F).
Position read_position(const PmemFile& file, const StoreHeader& header, const StoreLayout& layout) {
  Position p{read_checkpoint(file, layout), read_log_head(file, layout)};
  if (header.mode == StoreMode::Naive)
    check_naive_closed(file, p.checkpoint, p.head,
                       "is open for writing (or was not closed cleanly); snapshot it after ingest ends");
  return p;
}

void read_at(const PmemFile& file, const StoreHeader& header, const StoreLayout& layout, const Position& at,
             const SnapshotConsumer& consumer, SnapshotInfo& info);

// One attempt: false when a checkpoint committed while reading, since the log range and the
// table copy it read may have been overwritten; what looked corrupt then was a moving store.
bool try_snapshot(const PmemFile& file, const StoreHeader& header, const StoreLayout& layout,
                  const SnapshotConsumer& consumer, SnapshotInfo& info) {
  Position at = read_position(file, header, layout);
  try {
    with_damage_note(at.checkpoint, [&] { read_at(file, header, layout, at, consumer, info); });
  } catch (const Error&) {
    if (read_checkpoint(file, layout).seq != at.checkpoint.seq) return false;
    throw;
  }
  return read_checkpoint(file, layout).seq == at.checkpoint.seq;
}

// One direction at `at`: each vertex's d-chain from the checkpoint's table, then the log records
// since the checkpoint that name it (as source for out, destination for in), in log order. Gives
// `sink` edges as (source, destination, weight), grouped by v (the source for out, the
// destination for in) in increasing order. Counts the blocks walked into `blocks`, `block_bytes`.
template <typename Sink>
uint64_t read_direction(const PmemFile& file, const StoreHeader& header, const StoreLayout& layout, const Checkpoint& c,
                        std::span<const uint32_t> table, std::span<const LoggedEdge> logged, AdjacencyList d,
                        Sink&& sink, uint64_t& blocks, uint64_t& block_bytes) {
  const uint64_t vertices = header.geometry.vertices;
  const bool out = d == AdjacencyList::Out;
  // The log records grouped by v in log order (a counting sort).
  std::vector<uint64_t> begin(vertices + 1, 0);
  for (const LoggedEdge& e : logged) ++begin[(out ? e.src : e.dst) + 1];
  for (uint64_t v = 0; v < vertices; ++v) begin[v + 1] += begin[v];
  std::vector<const LoggedEdge*> by_vertex(logged.size());
  {
    std::vector<uint64_t> next(begin.begin(), begin.end() - 1);
    for (const LoggedEdge& e : logged) by_vertex[next[out ? e.src : e.dst]++] = &e;
  }
  std::vector<WeightedEdge> pending;
  std::vector<const AdjacencyBlock*> chain;
  LiveNeighbours neighbours(entry_words(header.geometry));
  uint64_t edges = 0;
  for (uint64_t v = 0; v < vertices; ++v) {
    chain.clear();
    neighbours.clear();
    const uint32_t head = table.empty() ? 0 : table[(out ? 0 : vertices) + v];  // empty: no checkpoint yet
    walk_chain(file, layout, c.high_water, d, static_cast<VertexId>(v), head,
               [&](const AdjacencyBlock& block) {
                 chain.push_back(&block);
                 ++blocks;
                 block_bytes += store::block_units(block.header.size_class) * kBlockUnitBytes;
               });
    neighbours.apply_chain(chain);
    for (uint64_t i = begin[v]; i < begin[v + 1]; ++i) {
      const LoggedEdge& e = *by_vertex[i];
      neighbours.apply((out ? e.dst : e.src) | (e.deleted ? kFlagBit : 0), e.weight);
    }
    const VertexId self = static_cast<VertexId>(v);
    neighbours.for_each([&](uint32_t n, Weight w) {
      pending.push_back(out ? WeightedEdge{self, n, w} : WeightedEdge{n, self, w});
    });
    if (pending.size() >= (1u << 20)) {
      sink(std::span<const WeightedEdge>(pending));
      edges += pending.size();
      pending.clear();
    }
  }
  sink(std::span<const WeightedEdge>(pending));
  return edges + pending.size();
}

void read_at(const PmemFile& file, const StoreHeader& header, const StoreLayout& layout, const Position& at,
             const SnapshotConsumer& consumer, SnapshotInfo& info) {
  const Checkpoint& c = at.checkpoint;
  // Inconsistent positions are an error unless a checkpoint moved meanwhile (try_snapshot).
  check_positions(file, header, c, at.head);
  const std::span<const uint32_t> table = checked_table_copy(file, layout, c);
  verify_log_lines(file, layout, c.flushed, at.head);
  std::vector<LoggedEdge> logged;
  logged.reserve(at.head - c.flushed);
  for (uint64_t p = c.flushed; p < at.head; ++p) logged.push_back(read_log_record(file, layout, p));

  consumer.begin();
  info = SnapshotInfo{};
  info.edges = read_direction(file, header, layout, c, table, logged, AdjacencyList::Out, consumer.edges, info.blocks,
                              info.block_bytes);
  if (consumer.in_edges)
    info.in_edges = read_direction(file, header, layout, c, table, logged, AdjacencyList::In, consumer.in_edges,
                                   info.in_blocks, info.in_block_bytes);
  // Blocks below H never change; the log range stays until the next checkpoint commits, which
  // try_snapshot checks after this.
  info.store_id = header.store_id;
  info.position = at.head;
  info.vertices = header.geometry.vertices;
  info.weighted = header.geometry.weighted;
  info.checkpoint_seq = c.seq;
}

}  // namespace

SnapshotInfo peek_snapshot_position(const std::string& store_path) {
  if (!path_exists(store_path)) fail("{}: no such store", store_path);
  PmemFile file = PmemFile::open_read_only(store_path);
  StoreHeader header = read_superblock(file);
  StoreLayout layout(header.geometry);
  Position at = read_position(file, header, layout);
  SnapshotInfo info;
  info.store_id = header.store_id;
  info.position = at.head;
  info.vertices = header.geometry.vertices;
  info.weighted = header.geometry.weighted;
  return info;
}

SnapshotInfo scan_snapshot(const std::string& store_path, const SnapshotConsumer& consumer) {
  if (!path_exists(store_path)) fail("{}: no such store", store_path);
  PmemFile file = PmemFile::open_read_only(store_path);
  StoreHeader header = read_superblock(file);
  StoreLayout layout(header.geometry);
  SnapshotInfo info;
  for (uint32_t attempt = 1; attempt <= kMaxAttempts; ++attempt)
    if (try_snapshot(file, header, layout, consumer, info)) {
      info.attempts = attempt;
      return info;
    }
  fail("{}: checkpoints kept moving during {} snapshot attempts", store_path, kMaxAttempts);
}

SnapshotInfo write_snapshot_edges(const std::string& store_path, const std::string& edge_list_path) {
  std::optional<EdgeListWriter> writer;
  const bool weighted = peek_snapshot_position(store_path).weighted;
  SnapshotConsumer consumer{
      [&] { writer.emplace(edge_list_path, weighted); },  // a dropped writer leaves no file
      [&](std::span<const WeightedEdge> edges) { writer->append(edges); }, {}};
  SnapshotInfo info = scan_snapshot(store_path, consumer);
  writer->finish(info.vertices);
  return info;
}

}  // namespace graphso::store
