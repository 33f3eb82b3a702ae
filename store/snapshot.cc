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
  if (header.mode == StoreMode::Naive && p.head != 0 && !p.checkpoint.clean)
    fail("{}: the naive store is open for writing (or was not closed cleanly); snapshot it after ingest ends",
         file.path());
  return p;
}

bool read_at(const PmemFile& file, const StoreHeader& header, const StoreLayout& layout, const Position& at,
             const SnapshotConsumer& consumer, SnapshotInfo& info);

// One attempt: false when a checkpoint committed while reading, since the log range and the
// table copy it read may have been overwritten; what looked corrupt then was a moving store.
bool try_snapshot(const PmemFile& file, const StoreHeader& header, const StoreLayout& layout,
                  const SnapshotConsumer& consumer, SnapshotInfo& info) {
  Position at = read_position(file, header, layout);
  try {
    if (!read_at(file, header, layout, at, consumer, info)) return false;
  } catch (const Error&) {
    if (read_checkpoint(file, layout).seq != at.checkpoint.seq) return false;
    throw;
  }
  return read_checkpoint(file, layout).seq == at.checkpoint.seq;
}

bool read_at(const PmemFile& file, const StoreHeader& header, const StoreLayout& layout, const Position& at,
             const SnapshotConsumer& consumer, SnapshotInfo& info) {
  const Checkpoint& c = at.checkpoint;
  const uint64_t vertices = header.geometry.vertices;
  if (at.head < c.flushed || at.head - c.flushed > header.geometry.log_slots) return false;
  if (c.high_water < 1 || c.high_water > header.geometry.block_units)
    fail("{}: corrupt store: checkpoint high-water mark {} is outside the {} block units", file.path(), c.high_water,
         header.geometry.block_units);

  verify_log_lines(file, layout, c.flushed, at.head);
  // The log records since the checkpoint, grouped by source in log order (a counting sort).
  std::vector<uint64_t> begin(vertices + 1, 0);
  std::vector<LoggedEdge> logged;
  logged.reserve(at.head - c.flushed);
  for (uint64_t p = c.flushed; p < at.head; ++p) {
    LoggedEdge e = read_log_record(file, layout, p);
    logged.push_back(e);
    ++begin[e.src + 1];
  }
  for (uint64_t v = 0; v < vertices; ++v) begin[v + 1] += begin[v];
  std::vector<LoggedEdge> by_source(logged.size());
  {
    std::vector<uint64_t> next(begin.begin(), begin.end() - 1);
    for (const LoggedEdge& e : logged) by_source[next[e.src]++] = e;
  }
  logged = {};

  const auto* table = file.at<uint32_t>(layout.tables[c.slot]);
  consumer.begin();
  std::vector<WeightedEdge> pending;
  std::vector<const AdjacencyBlock*> chain;
  LiveNeighbours neighbours(entry_words(header.geometry));
  uint64_t edges = 0, blocks = 0, block_units_live = 0;
  auto count_block = [&](const AdjacencyBlock& block) {
    ++blocks;
    block_units_live += store::block_units(block.header.size_class);
  };
  for (uint64_t v = 0; v < vertices; ++v) {
    chain.clear();
    neighbours.clear();
    walk_chain(file, layout, c.high_water, AdjacencyList::Out, static_cast<VertexId>(v), table[v],
               [&](const AdjacencyBlock& block) {
                 chain.push_back(&block);
                 count_block(block);
               });
    neighbours.apply_chain(chain);
    for (uint64_t i = begin[v]; i < begin[v + 1]; ++i)
      neighbours.apply(by_source[i].dst | (by_source[i].deleted ? kFlagBit : 0), by_source[i].weight);
    neighbours.for_each([&](uint32_t n, Weight w) { pending.push_back(WeightedEdge{static_cast<VertexId>(v), n, w}); });
    if (consumer.count_in_chains)
      walk_chain(file, layout, c.high_water, AdjacencyList::In, static_cast<VertexId>(v), table[vertices + v], count_block);
    if (pending.size() >= (1u << 20)) {
      consumer.edges(pending);
      edges += pending.size();
      pending.clear();
    }
  }
  consumer.edges(pending);
  edges += pending.size();
  // Blocks below H never change; the log range stays until the next checkpoint commits, which
  // try_snapshot checks after this.
  info.blocks = blocks;
  info.block_bytes = block_units_live * kBlockUnitBytes;
  info.store_id = header.store_id;
  info.position = at.head;
  info.vertices = vertices;
  info.weighted = header.geometry.weighted;
  info.edges = edges;
  return true;
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
  for (info.attempts = 1; info.attempts <= kMaxAttempts; ++info.attempts)
    if (try_snapshot(file, header, layout, consumer, info)) return info;
  fail("{}: checkpoints kept moving during {} snapshot attempts", store_path, kMaxAttempts);
}

SnapshotInfo write_snapshot_edges(const std::string& store_path, const std::string& edge_list_path) {
  std::optional<EdgeListWriter> writer;
  const bool weighted = peek_snapshot_position(store_path).weighted;
  SnapshotConsumer consumer{
      [&] { writer.emplace(edge_list_path, weighted); },  // a dropped writer leaves no file
      [&](std::span<const WeightedEdge> edges) { writer->append(edges); }};
  SnapshotInfo info = scan_snapshot(store_path, consumer);
  writer->finish(info.vertices);
  return info;
}

}  // namespace graphso::store
