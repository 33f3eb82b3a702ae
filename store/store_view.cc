#include "store/store_view.h"

#include "base/error.h"
#include "base/file.h"
#include "store/live_neighbours.h"
#include "store/store_mode.h"

namespace graphso::store {

namespace {

constexpr uint32_t kMaxAttempts = 64;

// A store of a mode whose blocks are written in place without recovery is read only after a
// clean close.
void check_readable(const PmemFile& file, const StoreHeader& header, const Checkpoint& c, uint64_t head) {
  check_closed_cleanly(file, header, c, head, "is open for writing (or was not closed cleanly); read it after ingest ends");
}

}  // namespace

StorePosition peek_store_position(const std::string& path) {
  if (!path_exists(path)) fail("{}: no such store", path);
  const PmemFile file = PmemFile::open_read_only(path);
  StorePosition p;
  p.header = read_superblock(file);
  const StoreLayout layout(p.header.geometry);
  p.checkpoint = read_checkpoint(file, layout);
  p.head = read_log_head(file, layout);
  check_readable(file, p.header, p.checkpoint, p.head);
  return p;
}

std::unique_ptr<StoreView> StoreView::open(const std::string& path, std::optional<uint64_t> at) {
  if (!path_exists(path)) fail("{}: no such store", path);
  // The lease and the mapping on the same file: a writer that grows the store renames a new one
  // over it, and a lease on the old file would guard nothing the view reads.
  ReaderLease lease;
  PmemFile file;
  for (uint32_t attempt = 0;; ++attempt) {
    lease = ReaderLease::open(path);
    file = PmemFile::open_read_only(path);
    if (lease.identity() == file.identity()) break;
    if (attempt == kMaxAttempts) fail("{}: the store file kept being replaced while it was opened", path);
  }
  const StoreHeader header = read_superblock(file);
  std::unique_ptr<StoreView> view = store_mode(header.mode).open_view(std::move(lease), std::move(file), header);
  view->fix_version(at);
  return view;
}

uint64_t StoreView::oldest_version() const {
  return store_mode(header_.mode).logs ? checkpoint_.flushed : head_;
}

void StoreView::require_kept(uint64_t version) const {
  if (version < oldest_version() || version > head_)
    fail("{}: version {} is not in the store: it keeps versions {} to {} (its head)", file_.path(), version,
         oldest_version(), head_);
}

StatLine stat_count(std::string key, uint64_t value) { return {std::move(key), std::to_string(value)}; }

StatLine stat_ratio(std::string key, double value, int digits) {
  return {std::move(key), fmt::format("{:.{}f}", value, digits)};
}

void StoreView::fix_version(std::optional<uint64_t> at) {
  for (uint32_t attempt = 1; attempt <= kMaxAttempts; ++attempt) {
    // The checkpoint, held by the lease before anything it names is read, then the head (which
    // never falls behind the checkpoint's position).
    checkpoint_ = read_checkpoint(file_, layout_);
    lease_.hold(checkpoint_.seq);
    if (read_checkpoint(file_, layout_).seq != checkpoint_.seq) continue;
    head_ = read_log_head(file_, layout_);
    check_readable(file_, header_, checkpoint_, head_);
    if (at) {
      require_kept(*at);
      head_ = *at;
    }
    try {
      with_damage_note(checkpoint_, [&] {
        check_positions(file_, header_, checkpoint_, head_);
        copy_position();
      });
      // A mode that reads its own head (its units changed in place) shows that one only.
      if (at && head_ != *at)
        fail("{}: version {} is not in the store: it keeps only its current version, {}", file_.path(), *at, head_);
    } catch (const Error&) {
      // What looked damaged may have been a checkpoint committing underneath.
      if (read_checkpoint(file_, layout_).seq != checkpoint_.seq) continue;
      throw;
    }
    if (read_checkpoint(file_, layout_).seq == checkpoint_.seq) {
      attempts_ = attempt;
      return;
    }
  }
  fail("{}: checkpoints kept moving during {} attempts to read the store", file_.path(), kMaxAttempts);
}

void StoreView::copy_log() {
  verify_log_lines(file_, layout_, checkpoint_.flushed, head_);
  logged_.clear();
  logged_.reserve(head_ - checkpoint_.flushed);
  for (uint64_t p = checkpoint_.flushed; p < head_; ++p) logged_.push_back(read_log_record(file_, layout_, p));
}

StoreView::LogByVertex StoreView::group_log(AdjacencyList d) const {
  const bool out = d == AdjacencyList::Out;
  LogByVertex g;
  if (logged_.empty()) return g;  // no offsets: a store at its checkpoint (8 MiB of zeros at 2^20 vertices)
  g.begin.assign(vertices() + 1, 0);
  for (const LoggedEdge& e : logged_) ++g.begin[(out ? e.src : e.dst) + 1];
  for (uint64_t v = 0; v < vertices(); ++v) g.begin[v + 1] += g.begin[v];
  g.records.resize(logged_.size());
  std::vector<uint64_t> next(g.begin.begin(), g.begin.end() - 1);
  for (size_t i = 0; i < logged_.size(); ++i) g.records[next[out ? logged_[i].src : logged_[i].dst]++] = i;
  return g;
}

void StoreView::emit_vertex(AdjacencyList d, VertexId v, std::span<const std::span<const uint32_t>> words,
                            const LogByVertex& log, PieceSink& pieces) const {
  const bool out = d == AdjacencyList::Out;
  const uint32_t step = entry_words(header_.geometry);
  const auto [first_record, end_record] = log.of(v);
  bool tombstones = false;
  for (std::span<const uint32_t> w : words)
    for (size_t k = 0; k < w.size() && !tombstones; k += step) tombstones = (w[k] & kFlagBit) != 0;
  for (uint64_t i = first_record; i < end_record && !tombstones; ++i) tombstones = logged_[log.records[i]].deleted;
  std::vector<WeightedEdge>& to = pieces.pending();
  auto edge = [&](uint32_t n, Weight w) { to.push_back(out ? WeightedEdge{v, n, w} : WeightedEdge{n, v, w}); };
  if (!tombstones) {
    for (std::span<const uint32_t> w : words)
      for (size_t k = 0; k < w.size(); k += step) edge(w[k], step == 2 ? w[k + 1] : Weight{1});
    for (uint64_t i = first_record; i < end_record; ++i) {
      const LoggedEdge& e = logged_[log.records[i]];
      edge(out ? e.dst : e.src, e.weight);
    }
  } else {
    LiveNeighbours neighbours(step);
    for (std::span<const uint32_t> w : words) neighbours.apply_words(w);
    for (uint64_t i = first_record; i < end_record; ++i) {
      const LoggedEdge& e = logged_[log.records[i]];
      neighbours.apply((out ? e.dst : e.src) | (e.deleted ? kFlagBit : 0), e.weight);
    }
    neighbours.for_each(edge);
  }
  pieces.boundary();
}

}  // namespace graphso::store
