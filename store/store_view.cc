#include "store/store_view.h"

#include "base/error.h"
#include "base/file.h"
#include "store/dgap/section_view.h"
#include "store/xpgraph/chain_view.h"

namespace graphso::store {

namespace {

constexpr uint32_t kMaxAttempts = 64;

// A naive store is read only after a clean close (its blocks are written in place).
void check_readable(const PmemFile& file, const StoreHeader& header, const Checkpoint& c, uint64_t head) {
  if (header.mode == StoreMode::Naive)
    check_naive_closed(file, c, head, "is open for writing (or was not closed cleanly); read it after ingest ends");
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

std::unique_ptr<StoreView> StoreView::open(const std::string& path) {
  if (!path_exists(path)) fail("{}: no such store", path);
  ReaderLease lease = ReaderLease::open(path);
  PmemFile file = PmemFile::open_read_only(path);
  const StoreHeader header = read_superblock(file);
  std::unique_ptr<StoreView> view = header.mode == StoreMode::Dgap
                                        ? make_section_view(std::move(lease), std::move(file), header)
                                        : make_chain_view(std::move(lease), std::move(file), header);
  view->fix_version();
  return view;
}

void StoreView::fix_version() {
  for (uint32_t attempt = 1; attempt <= kMaxAttempts; ++attempt) {
    // The checkpoint, held by the lease before anything it names is read, then the head (which
    // never falls behind the checkpoint's position).
    checkpoint_ = read_checkpoint(file_, layout_);
    lease_.hold(checkpoint_.seq);
    if (read_checkpoint(file_, layout_).seq != checkpoint_.seq) continue;
    head_ = read_log_head(file_, layout_);
    check_readable(file_, header_, checkpoint_, head_);
    try {
      with_damage_note(checkpoint_, [&] {
        check_positions(file_, header_, checkpoint_, head_);
        copy_position();
      });
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

}  // namespace graphso::store
