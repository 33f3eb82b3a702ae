// One store, read at one version by another process while ingest may go on (docs/store.md,
// "Reading beside the writer"): what snapshots, store-stat, store-check and `graphso run STORE`
// read, the same interface for every mode.
//
// Opening a view fixes its version: the checkpoint in force and the persisted log head S, read in
// that order. The checkpoint's table copy and the log records from its position to S are copied
// into memory, and the copy is retried when a checkpoint commits meanwhile (the slot and the log
// range may then be overwritten). What the view reads later never changes under it: a writer
// never rewrites what a checkpoint a lease holds names (store/reader_lease.h; each mode says how,
// docs/store.md). A mode read only after a clean close (StoreModeEntry) is read only then.
// The graph a view shows is the graph after the first S logged operations.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/types.h"
#include "store/edge_log.h"
#include "store/pmem_file.h"
#include "store/reader_lease.h"
#include "store/store_format.h"
#include "store/store_meta.h"
#include "store/store_mode.h"

namespace graphso::store {

using EdgeSink = std::function<void(std::span<const WeightedEdge>)>;

// What a read went through, for the reports.
struct ReadCounts {
  uint64_t edges = 0;
  uint64_t blocks = 0;       // adjacency blocks walked, or section pages read
  uint64_t block_bytes = 0;  // and their size
  uint64_t pages = 0;        // distinct 4 KiB pages of the block region those lie in
};

// The buffers PieceSinks gather into, kept by a view from one read to the next (threads read one
// view at once, each range a read). Taken afresh by every read and grown by doubling, a piece's
// buffer faulted in new pages for each copy: two thirds of the page faults of laying a gear store
// out at open.
class PieceBuffers {
 public:
  std::vector<WeightedEdge> take() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!spare_.empty()) {
        std::vector<WeightedEdge> b = std::move(spare_.back());
        spare_.pop_back();
        return b;
      }
    }
    std::vector<WeightedEdge> b;
    b.reserve(kPieceEdges + kPieceEdges / 4);  // a piece and the vertex that ends it, mostly
    return b;
  }
  void give(std::vector<WeightedEdge> b) {
    b.clear();
    std::lock_guard<std::mutex> lock(mutex_);
    spare_.push_back(std::move(b));
  }
  static constexpr size_t kPieceEdges = size_t{1} << 16;

 private:
  std::mutex mutex_;
  std::vector<std::vector<WeightedEdge>> spare_;
};

// Gathers edges for a sink and hands them over in pieces of about 64 Ki (768 KiB, in a buffer
// from `buffers`), at a point the caller chooses (between two vertices, two sections), counting
// them.
class PieceSink {
 public:
  PieceSink(const EdgeSink& sink, ReadCounts& counts, PieceBuffers& buffers)
      : sink_(sink), counts_(counts), buffers_(buffers), pending_(buffers.take()) {}
  ~PieceSink() { buffers_.give(std::move(pending_)); }
  PieceSink(const PieceSink&) = delete;
  PieceSink& operator=(const PieceSink&) = delete;
  std::vector<WeightedEdge>& pending() { return pending_; }
  // Hands the pending edges over if they are a piece's worth.
  void boundary() {
    if (pending_.size() >= PieceBuffers::kPieceEdges) flush();
  }
  void flush() {
    sink_(std::span<const WeightedEdge>(pending_));
    counts_.edges += pending_.size();
    pending_.clear();
  }

 private:
  const EdgeSink& sink_;
  ReadCounts& counts_;
  PieceBuffers& buffers_;
  std::vector<WeightedEdge> pending_;
};

// Counts the distinct 4 KiB pages of the block region a read touches (ReadCounts::pages).
class PagesTouched {
 public:
  explicit PagesTouched(const StoreLayout& layout)
      : blocks_(layout.blocks), seen_(layout.geometry.block_units / kUnitsPerPage + 1, false) {}
  // `bytes` read at file offset `offset` (in the block region).
  void note(uint64_t offset, uint64_t bytes, ReadCounts& counts) {
    for (uint64_t p = (offset - blocks_) / kStorePageBytes; p * kStorePageBytes < offset - blocks_ + bytes; ++p)
      if (p < seen_.size() && !seen_[p]) {
        seen_[p] = true;
        ++counts.pages;
      }
  }

 private:
  uint64_t blocks_;
  std::vector<bool> seen_;
};

// A page of sorted edges that a mode hands to a run to read in place (StoreView::pages_in_place):
// its page in the store file, unchanged at the view's version when `logged` is 0; else its page
// with that many logged operations to apply. At a version no later than its first logged deletion
// the page is its page as it stands plus the edges logged into it before the version
// (StoreView::page_insertions).
struct ViewPage {
  uint64_t key = 0;       // edge_key of its first possible edge
  uint64_t next_key = 0;  // the next page's key (kNoNextKey after the last)
  uint32_t page = 0;      // 0: no page (empty until its logged operations)
  uint32_t crc = 0;
  uint64_t offset = 0;    // of its page in the store file
  uint32_t edges = 0;     // in its page
  uint64_t logged = 0;    // operations after the checkpoint that fall in it
  uint64_t first_deletion = kNoDeletion;  // the log position of the first of those that deletes
  static constexpr uint64_t kNoDeletion = UINT64_MAX;
};

// A line of store-stat: "key: N".
StatLine stat_count(std::string key, uint64_t value);
// "key: 0.123" (digits after the point).
StatLine stat_ratio(std::string key, double value, int digits = 3);

// The store's header and the version a view opened now would fix (the checkpoint in force, then
// the head), read without copying anything: what tells whether an earlier snapshot is still the
// graph. A store that must be closed cleanly to be read and is not is an error, as for a view.
struct StorePosition {
  StoreHeader header;
  Checkpoint checkpoint;
  uint64_t head = 0;
};
StorePosition peek_store_position(const std::string& path);

class StoreView {
 public:
  // Opens `path` read-only at its current version, or at version `at`: any log position from the
  // checkpoint in force to the head (what the log still holds); errors name the store and the
  // damaged word, or the versions it keeps.
  static std::unique_ptr<StoreView> open(const std::string& path, std::optional<uint64_t> at = std::nullopt);
  virtual ~StoreView() = default;

  const StoreHeader& header() const { return header_; }
  const std::string& path() const { return file_.path(); }
  const PmemFile& file() const { return file_; }  // mapped read-only
  uint64_t version() const { return head_; }  // S: the log position the view shows the graph at
  // The oldest version a view of this store could show now: the checkpoint's position in a mode
  // that logs, else (a mode that changes its units in place) the current one.
  uint64_t oldest_version() const;
  // Fails, naming what the store keeps, unless `version` lies in [oldest_version(), version()].
  void require_kept(uint64_t version) const;
  const Checkpoint& checkpoint() const { return checkpoint_; }
  uint32_t attempts() const { return attempts_; }  // copies made: more than one when a checkpoint moved
  uint64_t vertices() const { return header_.geometry.vertices; }
  bool weighted() const { return header_.geometry.weighted; }
  bool real_weights() const { return header_.geometry.real_weights; }

  // The out-edges of the sources [begin, end) (weights 1 in an unweighted store), grouped by
  // source in increasing order, handed to sink in pieces.
  virtual ReadCounts out_edges(VertexId begin, VertexId end, const EdgeSink& sink) const = 0;
  // The same graph read through the in-lists, grouped by destination, for a mode that keeps them
  // (store-check compares the two); false when it keeps none.
  virtual bool in_edges(const EdgeSink& sink, ReadCounts& counts) const = 0;
  // A mode that keeps its edges in sorted packed pages (base/packed_pages.h): the pages, in key
  // order, for a run to read in place; nullopt for a mode that keeps none.
  virtual std::optional<std::vector<ViewPage>> pages_in_place() const { return std::nullopt; }
  // The edges of page k (pages_in_place) at version `before` (the operations logged before that
  // log position applied; at most the view's version), in key order, appended to `out`.
  virtual void page_edges(uint64_t /*k*/, std::vector<WeightedEdge>& /*out*/, uint64_t /*before*/ = UINT64_MAX) const {}
  // The edges the operations logged into page k at positions [from, to) insert, in key order,
  // appended to `out`: before its first deletion, the page at a version is its page plus these
  // (a multiset).
  virtual void page_insertions(uint64_t /*k*/, std::vector<WeightedEdge>& /*out*/, uint64_t /*from*/ = 0,
                               uint64_t /*to*/ = UINT64_MAX) const {}
  // How many operations are logged into page k before log position `position`.
  virtual uint64_t page_logged_before(uint64_t /*k*/, uint64_t /*position*/) const { return 0; }
  // What the mode adds to store-stat (its units' shape, how full they are, what they cost), as
  // the view read them.
  virtual std::vector<StatLine> stat_lines() const { return {}; }
  // Block units (pages, in a paged mode) [1, N) in use at checkpoint `c`, read by the caller: its
  // high-water mark, or what the mode keeps in its place.
  virtual uint64_t high_water(const Checkpoint& c) const { return c.high_water; }
  // A mode that changes edges in place: edges the read found changed by operations after the
  // version, and set back.
  virtual uint64_t edges_set_back() const { return 0; }

 protected:
  StoreView(ReaderLease lease, PmemFile file, const StoreHeader& header)
      : lease_(std::move(lease)), file_(std::move(file)), header_(header), layout_(header.geometry) {}
  // Copies what the version needs (the mode's table and `logged`), called by open() until no
  // checkpoint commits while it runs; throws on damage.
  virtual void copy_position() = 0;
  // The log records [checkpoint.flushed, head), checked against their line sums.
  void copy_log();
  // The copied log records grouped by vertex (source for out, destination for in), in log order:
  // a counting sort.
  struct LogByVertex {
    std::vector<uint64_t> begin;  // where each vertex's records start in `records` (empty: no records)
    std::vector<size_t> records;  // indexes into logged_
    // v's records: [first, end) of `records`.
    std::pair<uint64_t, uint64_t> of(VertexId v) const {
      return begin.empty() ? std::pair<uint64_t, uint64_t>{0, 0} : std::pair{begin[v], begin[v + 1]};
    }
  };
  LogByVertex group_log(AdjacencyList d) const;
  // Hands v's live d-neighbours to `pieces`: `words` (entries as lists and blocks hold them, in
  // log order, then the log's records for v, in `log`). Without a tombstone among them each entry
  // is an edge as it stands; with one, LiveNeighbours applies them.
  void emit_vertex(AdjacencyList d, VertexId v, std::span<const std::span<const uint32_t>> words,
                   const LogByVertex& log, PieceSink& pieces) const;

  ReaderLease lease_;
  PmemFile file_;
  StoreHeader header_;
  StoreLayout layout_;
  Checkpoint checkpoint_;
  uint64_t head_ = 0;
  uint32_t attempts_ = 0;
  std::vector<LoggedEdge> logged_;  // the log after the checkpoint, up to the version
  mutable PieceBuffers piece_buffers_;  // for reads' PieceSinks

 private:
  void fix_version(std::optional<uint64_t> at);
};

}  // namespace graphso::store
