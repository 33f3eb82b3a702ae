#include "store/gear/gear_store.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>

#include "base/checksum.h"
#include "base/error.h"
#include "store/dirty_lines.h"
#include "store/edge_log.h"
#include "store/log_buffering.h"
#include "store/gear/gear_lists.h"
#include "store/gear/page_allocator.h"
#include "store/live_neighbours.h"
#include "store/reader_lease.h"
#include "store/vertex_buffers.h"

namespace graphso::store {

uint64_t gear_pages(uint64_t vertices, uint64_t edges, bool weighted) {
  // Both directions' entries in subpages at most twice their size, twice over; each edge makes at
  // most two lists non-empty, each a 64-byte subpage at least; a quarter more to spare for runs.
  const uint64_t entry_bytes = 2 * edges * (weighted ? 8 : 4);
  const uint64_t bytes = 2 * 2 * entry_bytes + 2 * 64 * std::min(2 * vertices, 2 * edges);
  const uint64_t pages = bytes / kStorePageBytes * 5 / 4 + 256;
  return std::min<uint64_t>(pages, (uint64_t{1} << 32) / kUnitsPerPage);
}

namespace {

class GearStore final : public StoreWriter {
 public:
  GearStore(WriterLock lock, PmemFile file, const StoreHeader& header, const StoreOptions& options)
      : StoreWriter(std::move(lock), std::move(file), header, options),
        lists_(2 * header.geometry.vertices, GearList{0, 0, 0}),
        levels_(2 * header.geometry.vertices, 0),
        named_(2 * header.geometry.vertices, 0),
        allocator_(region_pages(header.geometry), option_value(options.tuning, kWearLevellingOption) != 0),
        buffers_(header.geometry.vertices, options.threads,
                 static_cast<uint32_t>(option_value(options.tuning, kMaxBufferOption)), entry_words(header.geometry)),
        dirty_(layout_) {
    recover();
  }

  // --- writing ---

  void add(std::span<const WeightedEdge> edges, bool deletes) override { add_records(edges, deletes); }
  void add(std::span<const Edge> edges, bool deletes) override { add_records(edges, deletes); }

  template <typename EdgeRecord>
  void add_records(std::span<const EdgeRecord> edges, bool deletes) {
    check_ids(edges);
    while (!edges.empty()) {
      const std::span<const EdgeRecord> batch = take_log_batch(edges);
      if (log_.head() - buffered_ >= option_value(options_.tuning, kArchiveThresholdOption)) {
        release_retired();
        // Logging and buffering side by side, as in xpgraph mode.
        buffer_to(log_.head(), [&] { log_.append(batch, deletes); });
        if (buffers_.reserved_bytes() > options_.buffer_memory) checkpoint();
      } else {
        log_.append(batch, deletes);
      }
    }
  }

  void buffer_all() override { buffer_to(log_.head()); }

  // Every buffer into its list, then the commit.
  void checkpoint() override {
    const uint64_t position = log_.head();
    buffer_to(position);
    release_retired();
    run_tasks(options_.threads, [&](uint32_t shard) {
      for (VertexId v = shard_begin(shard), end = shard_begin(shard + 1); v < end; ++v)
        for (AdjacencyList d : {AdjacencyList::Out, AdjacencyList::In}) {
          const std::span<const uint32_t> entries = buffers_.entries(d, v);
          if (!entries.empty()) write_list(d, v, entries);
          buffers_.clear(shard, d, v);
        }
    });
    commit(position);
  }

  // Lists with tombstones are rewritten with their live entries only, to the smallest level.
  void compact() override {
    const uint64_t position = log_.head();
    buffer_to(position);
    release_retired();
    run_tasks(options_.threads, [&](uint32_t shard) {
      std::vector<uint32_t> live;
      for (VertexId v = shard_begin(shard), end = shard_begin(shard + 1); v < end; ++v)
        for (AdjacencyList d : {AdjacencyList::Out, AdjacencyList::In}) {
          const std::span<const uint32_t> entries = buffers_.entries(d, v);
          if (!entries.empty()) write_list(d, v, entries);
          buffers_.clear(shard, d, v);
          const uint64_t i = index(d, v);
          const std::span<const uint32_t> words = checked_list_words(file_, layout_, d, v, lists_[i]);
          if (!has_tombstone(words)) continue;
          live.clear();
          live_entries(words, {}, live);
          drop_list(i);
          if (!live.empty()) write_list(d, v, live);
        }
    });
    commit(position);
  }

  void close() override {}

  // --- reading ---

  std::vector<std::pair<VertexId, Weight>> edges(AdjacencyList d, VertexId v) const override {
    check_vertex(v);
    std::vector<uint32_t> pending(buffers_.entries(d, v).begin(), buffers_.entries(d, v).end());
    for (uint64_t p = buffered_; p < log_.head(); ++p) {
      const LoggedEdge e = log_.read(p);
      const uint32_t tombstone = e.deleted ? kFlagBit : 0;
      const bool mine = d == AdjacencyList::Out ? e.src == v : e.dst == v;
      if (!mine) continue;
      pending.push_back((d == AdjacencyList::Out ? e.dst : e.src) | tombstone);
      if (header_.geometry.weighted) pending.push_back(e.weight);
    }
    std::vector<uint32_t> live;
    live_entries(checked_list_words(file_, layout_, d, v, lists_[index(d, v)]), pending, live);
    return sorted_edges(live, entry_words(header_.geometry));
  }

  StoreStatus status() const override {
    StoreStatus s = common_status();
    s.buffered = buffered_;
    s.high_water = allocator_.high_water();
    s.buffer_bytes = buffers_.reserved_bytes();
    s.checkpoints = checkpoints_;
    s.replayed = replayed_;
    // By this process: lists moved to a larger subpage and the entry bytes they copied again;
    // lists moved off worn pages, and their bytes.
    s.counters = {{"relocations", relocations_.load()}, {"relocated_bytes", relocated_bytes_.load()},
                  {"wear_moves", wear_moves_.load()}, {"wear_moved_bytes", wear_moved_bytes_.load()}};
    return s;
  }

 private:
  uint64_t index(AdjacencyList d, VertexId v) const { return list_index(header_.geometry.vertices, d, v); }
  VertexId shard_begin(uint32_t shard) const {
    return store::shard_begin(shard, options_.threads, header_.geometry.vertices);
  }
  uint32_t* words_at(uint64_t unit) { return file_.at<uint32_t>(layout_.block_offset(unit)); }

  static bool has_tombstone(std::span<const uint32_t> words) {
    return std::any_of(words.begin(), words.end(), [](uint32_t w) { return (w & kFlagBit) != 0; });
  }
  // The live entries (entry words each) of a list's words followed by `more`.
  void live_entries(std::span<const uint32_t> words, std::span<const uint32_t> more, std::vector<uint32_t>& live) const {
    const uint32_t step = entry_words(header_.geometry);
    LiveNeighbours neighbours(step);
    neighbours.apply_words(words);
    neighbours.apply_words(more);
    neighbours.append_words(live);
  }

  void release_retired() {
    if (allocator_.has_retired())
      allocator_.release_retired([&](uint64_t seq) { return readers_before(lock_.fd(), seq); });
  }

  // `words` written from word `word` of the subpage at `unit`: lines for the checkpoint's persist,
  // and a write to the page's count.
  void mark_written(uint64_t unit, uint64_t word, uint64_t words) {
    const uint64_t begin = unit * kBlockUnitBytes + word * sizeof(uint32_t);
    dirty_.mark(begin, words * sizeof(uint32_t));
    allocator_.note_write(begin, words * sizeof(uint32_t));
  }

  // By v's shard thread: entries after list (d, v)'s words, in its reserved space when they fit,
  // else with the whole list in a subpage of the level that holds both (relocation); and when
  // they would land on a worn page, with the whole list in a subpage of its level on a healthy
  // page (a wear move).
  void write_list(AdjacencyList d, VertexId v, std::span<const uint32_t> entries) {
    const uint64_t i = index(d, v);
    GearList& l = lists_[i];
    const uint64_t need = l.words + entries.size();
    const bool fits = l.unit != 0 && need * sizeof(uint32_t) <= gear_level_bytes(levels_[i]);
    const uint64_t append_at = layout_.block_offset(l.unit) - layout_.blocks + l.words * sizeof(uint32_t);
    const bool wear_move = fits && allocator_.worn(append_at);
    if (fits && !wear_move) {
      std::memcpy(words_at(l.unit) + l.words, entries.data(), entries.size_bytes());
      mark_written(l.unit, l.words, entries.size());
      l.crc = crc32c_of(std::as_bytes(entries), l.crc);
      l.words = static_cast<uint32_t>(need);
      return;
    }
    // The smallest level that holds the list (a wear move keeps its level).
    uint32_t level = 0;
    while (gear_level_bytes(level) < need * sizeof(uint32_t)) ++level;
    if (wear_move) level = levels_[i];
    if (level > kGearMaxLevel)
      fail("{}: the {}-list of vertex {} outgrew the largest run", file_.path(), d == AdjacencyList::Out ? "out" : "in", v);
    // The old words are checked before they are copied: a damaged one would otherwise get a
    // fresh checksum.
    const std::span<const uint32_t> old = checked_list_words(file_, layout_, d, v, l);
    const uint64_t unit = allocator_.allocate(level, wear_move);
    if (unit > UINT32_MAX) fail("{}: unit {} is past what a list can name", file_.path(), unit);
    uint32_t* to = words_at(unit);
    // An empty span may have no data: memcpy is not given a null pointer even for no bytes.
    if (!old.empty()) std::memcpy(to, old.data(), old.size_bytes());
    if (!entries.empty()) std::memcpy(to + old.size(), entries.data(), entries.size_bytes());
    mark_written(unit, 0, need);
    const GearList moved{static_cast<uint32_t>(unit), static_cast<uint32_t>(need), crc32c_of(std::as_bytes(entries), l.crc)};
    const bool relocated = l.unit != 0;  // else the list's first subpage
    if (wear_move) {
      ++wear_moves_;
      wear_moved_bytes_ += old.size_bytes();
    } else if (relocated) {
      ++relocations_;
      relocated_bytes_ += old.size_bytes();
    }
    drop_list(i);
    l = moved;
    levels_[i] = static_cast<uint8_t>(level);
    if (relocated) persister_.crash_point(kRelocationPoint);
  }

  // List i gives up its subpage: at once when no checkpoint names it, else retired.
  void drop_list(uint64_t i) {
    GearList& l = lists_[i];
    if (l.unit != 0) {
      if (named_[i]) allocator_.retire(l.unit, levels_[i]);
      else allocator_.release(l.unit, levels_[i]);
    }
    l = GearList{0, 0, 0};
    named_[i] = 0;
  }

  // Moves log records [buffered_, position) into the vertex buffers; a full one goes to its list.
  void buffer_to(uint64_t position, const std::function<void()>& alongside = {}) {
    buffer_log_records(file_, layout_, buffers_, options_.threads, buffered_, position, alongside,
                       [&](uint32_t, AdjacencyList d, VertexId v, std::span<const uint32_t> entries) {
                         write_list(d, v, entries);
                       });
    buffered_ = std::max(buffered_, position);
  }

  // Persist order (docs/store.md): the lines written since the checkpoint in force, the table copy
  // (only its lines that differ from what the slot held), then the slot.
  void commit(uint64_t position) {
    persister_.persist(dirty_.take());
    persister_.crash_point(CrashPoint::CheckpointBlocks);

    const uint32_t slot = 1 - checkpoint_.slot;
    const uint32_t table_crc = write_table(slot);
    persister_.crash_point(CrashPoint::CheckpointTable);
    Checkpoint next{slot, checkpoint_.seq + 1, position, allocator_.high_water(), false, table_crc};
    write_checkpoint(file_, layout_, persister_, next);
    persister_.crash_point(CrashPoint::CheckpointSlot);
    checkpoint_ = next;
    ++checkpoints_;
    for (uint64_t i = 0; i < lists_.size(); ++i) named_[i] = lists_[i].unit != 0;
    allocator_.committed(next.seq);
    release_retired();
  }

  // The table into copy `slot`: a checkpoint changes few lists, so only the 256-byte lines that
  // differ from the copy's current bytes are written and persisted. Returns the copy's CRC-32C.
  uint32_t write_table(uint32_t slot) {
    const uint64_t vertices = header_.geometry.vertices;
    image_.assign(layout_.table_bytes(), std::byte{0});
    const GearTableHeader counts{before_.relocations + relocations_.load(), before_.relocated_bytes + relocated_bytes_.load(),
                                 before_.wear_moves + wear_moves_.load(), before_.wear_moved_bytes + wear_moved_bytes_.load()};
    std::memcpy(image_.data(), &counts, sizeof counts);
    std::memcpy(image_.data() + sizeof(GearTableHeader), lists_.data(), lists_.size() * sizeof(GearList));
    allocator_.write_table(std::span<GearPage>(reinterpret_cast<GearPage*>(image_.data() + gear_page_offset(vertices)),
                                               allocator_.pages()));
    std::byte* copy = file_.at<std::byte>(layout_.tables[slot]);
    std::vector<ByteRange> ranges;
    constexpr uint64_t kPiece = kXPLineBytes;
    for (uint64_t at = 0; at < image_.size(); at += kPiece) {
      const uint64_t n = std::min<uint64_t>(kPiece, image_.size() - at);
      if (std::memcmp(copy + at, image_.data() + at, n) == 0) continue;
      std::memcpy(copy + at, image_.data() + at, n);
      add_range(ranges, layout_.tables[slot] + at, n);
    }
    persister_.persist(ranges);
    return crc32c_of(std::span<const std::byte>(image_));
  }

  // Recovery (docs/store.md, "gear"): the checkpoint's lists and page table, each list checked
  // against the page table and claimed; the log after its position replayed.
  void recover() {
    const uint64_t head = log_.head();
    const Checkpoint& c = checkpoint_;
    check_positions(file_, header_, c, head);
    const uint64_t vertices = header_.geometry.vertices;
    with_damage_note(c, [&] {
      const GearTable t = checked_gear_table(file_, layout_, c);
      before_ = t.header;
      allocator_.restore(t.pages, c.high_water, c.seq);
      for (uint64_t i = 0; i < t.lists.size(); ++i) {
        const AdjacencyList d = i < vertices ? AdjacencyList::Out : AdjacencyList::In;
        const VertexId v = static_cast<VertexId>(i < vertices ? i : i - vertices);
        const GearList& l = t.lists[i];
        const uint32_t level = checked_list_level(file_, layout_, t.pages, c.high_water, d, v, l);
        if (l.unit == 0) continue;
        if (!allocator_.claim(l.unit, level))
          fail("{}: corrupt store: the {}-list of vertex {} names unit {}, another list's subpage", file_.path(),
               d == AdjacencyList::Out ? "out" : "in", v, l.unit);
        lists_[i] = l;
        levels_[i] = static_cast<uint8_t>(level);
        named_[i] = 1;
      }
      verify_log_lines(file_, layout_, c.flushed, head);
    });
    buffered_ = c.flushed;
    repaired_input_slot_ = repair_inputs(file_, layout_, persister_);
    replayed_ = head - c.flushed;
    release_retired();
    with_damage_note(c, [&] { buffer_to(head); });
  }

  std::vector<GearList> lists_;   // out-lists then in-lists, as the table copy holds them
  std::vector<uint8_t> levels_;   // of each list's subpage
  std::vector<uint8_t> named_;    // 1: the checkpoint in force names the list's subpage
  PageAllocator allocator_;
  VertexBuffers buffers_;
  DirtyLines dirty_;  // lines of the block region written since the last checkpoint
  std::vector<std::byte> image_;  // the table a commit writes
  uint64_t buffered_ = 0;
  uint64_t checkpoints_ = 0, replayed_ = 0;
  std::atomic<uint64_t> relocations_ = 0, relocated_bytes_ = 0, wear_moves_ = 0, wear_moved_bytes_ = 0;
  GearTableHeader before_{};  // the counts of earlier processes
};

}  // namespace

std::unique_ptr<StoreWriter> open_gear_store(WriterLock lock, PmemFile file, const StoreHeader& header,
                                             const StoreOptions& options) {
  return std::make_unique<GearStore>(std::move(lock), std::move(file), header, options);
}

}  // namespace graphso::store
