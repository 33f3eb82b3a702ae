// A store grows by being rebuilt (docs/store.md, "Growth"): the graph at its durable version, read
// through a view, is written into a new, larger file of the same mode beside it, which is persisted
// and then renamed over the old one. The new file continues the old one's log positions and keeps
// its input records and store id, so a resumed ingest, a snapshot and `run STORE` see one store.
//
// Why a rebuild rather than extending the file in place: every mode's regions (the log, the
// tables sized by vertices and pages, the block region addressed by 32-bit units) sit at offsets
// fixed by the geometry, and a rebuild changes them all at once with one crash-safe step (the
// rename) and no format change; it also leaves behind what deletions and relocations freed.
// Readers with a lease keep the old file mapped, so they keep their version; the old file's space
// goes back to the device when the last of them closes it. The cost is a copy of the live graph
// per growth; a growth for room doubles the block region (or, when the live edges need at most
// half of it, gives back what they do not use), so over a store's life the copies add up to about
// the edges ingested once more.
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>

#include "base/error.h"
#include "store/graph_store.h"
#include "store/store_view.h"

namespace graphso::store {

template <typename EdgeRecord>
void GraphStore::write(std::span<const EdgeRecord> edges, bool deletes) {
  if (!deletes && !edges.empty()) {
    VertexId top = 0;
    for (const EdgeRecord& e : edges) top = std::max({top, e.src, e.dst});
    // An id past 2^31 cannot be stored: the writer's check names it.
    if (top >= writer().header().geometry.vertices && top < kMaxStoreVertices)
      grow(Growth{std::min<uint64_t>(std::bit_ceil(uint64_t{top} + 1), kMaxStoreVertices), false});
  }
  bool stalled = false;
  for (;;) {
    const uint64_t before = writer().head();
    try {
      writer().add(edges, deletes);
      return;
    } catch (const StoreFull&) {
      // What the log took of the batch before the store filled is durable and in the rebuilt store.
      // A rebuild that only gave space back and still left no room for any of it grows next time.
      const uint64_t head = grow(Growth{0, true, false, stalled});
      stalled = head == before;
      edges = edges.subspan(std::min<uint64_t>(head - before, edges.size()));
      if (edges.empty()) return;
    }
  }
}
void GraphStore::with_room(const std::function<void()>& step) {
  try {
    step();
  } catch (const StoreFull&) {
    grow(Growth{0, true});
  }
}

template void GraphStore::write(std::span<const WeightedEdge>, bool);
template void GraphStore::write(std::span<const Edge>, bool);

void GraphStore::rebuild(uint64_t vertices) { grow(Growth{vertices, false}); }
void GraphStore::reclaim() { grow(Growth{0, false, true}); }

uint64_t GraphStore::grow(const Growth& growth) {
  // A writer whose store is read back only after a clean close (naive) closes; it found the store
  // full before logging anything of the batch.
  writer().close();
  const StoreStatus before = impl_->status();
  retired_persisted_ += before.persisted;
  retired_checkpoints_ += before.checkpoints;
  WriterLock lock = impl_->release_lock();
  impl_.reset();
  uint64_t head = 0;
  try {
    head = grow_locked(lock, growth);
  } catch (...) {
    // The old store is as it was: reopened, so this object stays usable once the cause is gone.
    // Reopening replays its log, which a full store may have no room for: then the copy's error
    // (a full device, say) is still the one to report, and this object has no writer left.
    const std::exception_ptr failed = std::current_exception();
    try {
      impl_ = open_writer(std::move(lock), path_, options_);
    } catch (const Error&) {
    }
    std::rethrow_exception(failed);
  }
  impl_ = open_writer(std::move(lock), path_, options_);
  return head;
}

uint64_t GraphStore::grow_locked(WriterLock& lock, const Growth& growth) {
  const auto start = std::chrono::steady_clock::now();
  const uint64_t head = copy_into_larger(lock, growth);
  ++growths_;
  growth_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return head;
}

uint64_t GraphStore::build_copy(const StoreView& view, WriterLock& lock, const std::string& temp, const StoreHeader& header,
                                const StoreOptions& options) {
  format_file(lock, temp, path_, header, options);
  std::unique_ptr<StoreWriter> writer = open_writer(std::move(lock), temp, options);
  uint64_t edges = 0;
  view.out_edges(0, static_cast<VertexId>(view.vertices()), [&](std::span<const WeightedEdge> piece) {
    writer->add(piece, false);
    edges += piece.size();
  });
  writer->checkpoint();
  writer->close();
  writer->move_log_to(view.version());
  lock = writer->release_lock();
  writer.reset();
  // The input records, as they are: their positions are the old log's, which the copy continues.
  const StoreLayout from(view.header().geometry), to(header.geometry);
  const uint64_t bytes = to.checkpoint_slots - to.input_slots;
  if (bytes != from.checkpoint_slots - from.input_slots) fail("{}: the input records moved between geometries", path_);
  PmemFile file = PmemFile::open(temp);
  Persister persister(file, options.power_cut, false);
  std::memcpy(file.at<std::byte>(to.input_slots), view.file().at<std::byte>(from.input_slots), bytes);
  persister.persist(to.input_slots, bytes);
  return edges;
}

uint64_t GraphStore::copy_into_larger(WriterLock& lock, const Growth& growth) {
  std::unique_ptr<StoreView> view = StoreView::open(path_);
  const StoreHeader old = view->header();
  const StoreGeometry& was = old.geometry;
  const uint64_t head = view->version();

  // The vertex count it asks for; when it was full, twice the block region, unless what a store
  // created for its live edges gets is at most half of it (deletions and relocations filled it:
  // the copy alone gives the room back); when asked to fit, no more than that. A copy that does
  // not fit is made again twice as large (a small log's checkpoints leave partly filled blocks).
  StoreGeometry g = default_geometry(std::max(growth.vertices, was.vertices), 1, was.log_slots, was.weighted, old.mode);
  g.real_weights = was.real_weights;
  const uint64_t max_units = uint64_t{1} << 32;
  g.block_units = was.block_units;
  if (growth.space || growth.fit) {
    uint64_t live = 0;
    view->out_edges(0, static_cast<VertexId>(was.vertices), [&](std::span<const WeightedEdge> piece) { live += piece.size(); });
    const uint64_t fitting =
        default_geometry(g.vertices, std::max<uint64_t>(live, 1), was.log_slots, was.weighted, old.mode).block_units;
    if (growth.fit) g.block_units = std::min(was.block_units, fitting);
    else if (growth.larger || fitting > was.block_units / 2) g.block_units = std::min(2 * was.block_units, max_units);
    if (growth.space && g.block_units <= was.block_units && (growth.larger || fitting > was.block_units / 2))
      fail_full("{}: the store is full and at its largest ({} block units)", path_, was.block_units);
  }

  const std::string temp = path_ + ".new";
  // The copy is not the store until it is renamed into place: no shadow image follows it.
  StoreOptions copy_options = options_;
  copy_options.power_cut = PowerCutConfig{};
  WriterLock temp_lock;
  uint64_t live = 0;
  for (;;) {
    temp_lock = WriterLock::take(temp, path_, true);
    try {
      live = build_copy(*view, temp_lock, temp, StoreHeader{g, old.mode, old.store_id}, copy_options);
      break;
    } catch (const StoreFull&) {
      ::unlink(temp.c_str());
      if (g.block_units >= max_units) throw;
      g.block_units = std::min(2 * g.block_units, max_units);
    } catch (...) {
      ::unlink(temp.c_str());
      throw;
    }
  }
  const uint64_t pass = growths_ + 1;
  simulate_power_cut(options_.power_cut, CrashPoint::GrowthCopy, pass);
  publish_file(temp, path_);
  lock = std::move(temp_lock);  // the old file's lock goes; the new one is held since it was made
  replace_shadow(options_.power_cut, path_);
  simulate_power_cut(options_.power_cut, CrashPoint::GrowthRename, pass);
  growth_edges_ += live;
  return head;
}

}  // namespace graphso::store
