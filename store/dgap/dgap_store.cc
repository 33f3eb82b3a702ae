#include "store/dgap/dgap_store.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <exception>
#include <functional>
#include <optional>
#include <thread>
#include <utility>

#include "base/checksum.h"
#include "base/error.h"
#include "base/packed_pages.h"
#include "store/dgap/sections.h"
#include "store/reader_lease.h"

namespace graphso::store {

uint64_t dgap_pages(uint64_t edges, bool weighted) {
  // A packed edge takes at most about 9 bytes (13 with its weight) when each source has one; a
  // split leaves pages 3/4 full, merges leave them fuller.
  const uint64_t worst = edges * (weighted ? 13 : 9);
  const uint64_t live = worst / (kStorePageBytes / 2) + 1;
  return std::min<uint64_t>(2 * live + 256, (uint64_t{1} << 32) / kUnitsPerPage);
}

namespace {

class DgapStore final : public StoreWriter {
 public:
  DgapStore(WriterLock lock, PmemFile file, const StoreHeader& header, const StoreOptions& options)
      : StoreWriter(std::move(lock), std::move(file), header, options) {
    recover();
  }

  void add(std::span<const WeightedEdge> edges, bool deletes) override { add_records(edges, deletes); }
  void add(std::span<const Edge> edges, bool deletes) override { add_records(edges, deletes); }

  std::vector<std::pair<VertexId, Weight>> edges(AdjacencyList d, VertexId v) const override {
    check_vertex(v);
    std::vector<std::pair<VertexId, Weight>> live;
    std::vector<WeightedEdge> content;
    auto take = [&](size_t s) {
      content.clear();
      section_edges(s, content);
      for (const WeightedEdge& e : content) {
        if (d == AdjacencyList::Out && e.src == v) live.emplace_back(e.dst, e.weight);
        if (d == AdjacencyList::In && e.dst == v) live.emplace_back(e.src, e.weight);
      }
    };
    if (d == AdjacencyList::Out) {
      // Only the sections whose key range meets v's edges.
      for (size_t s = section_of(edge_key(v, 0)); s < sections_.size() && keys_[s] < edge_key(v + 1, 0); ++s)
        take(s);
    } else {
      // The array is sorted by source: in-lists come from reading it all, once until the next change.
      if (!in_lists_) {
        in_lists_.emplace(header_.geometry.vertices);
        for (size_t s = 0; s < sections_.size(); ++s) {
          content.clear();
          section_edges(s, content);
          for (const WeightedEdge& e : content) (*in_lists_)[e.dst].emplace_back(e.src, e.weight);
        }
      }
      live = (*in_lists_)[v];
    }
    std::sort(live.begin(), live.end());
    return live;
  }

  void buffer_all() override {}  // every logged operation is in its section's log already

  void checkpoint() override {
    merge_sections([](const Section& s) { return !s.log.empty(); });
    commit();
  }
  void compact() override { checkpoint(); }  // sections are always compact once merged
  void close() override {}

  StoreStatus status() const override {
    StoreStatus s = common_status();
    s.buffered = log_.head();
    s.high_water = high_water_;
    s.buffer_bytes = pending_ * sizeof(SectionOp);
    s.checkpoints = checkpoints_;
    s.replayed = replayed_;
    s.counters = {{"sections", sections_.size()}, {"section_edges", edges_in_pages()},
                  {"pending", pending_},  // logged operations not yet merged into their section
                  {"merges", merges_},    // by this process
                  {"splits", splits_},    // sections a merge split off
                  {"pages_written", pages_written_}};
    return s;
  }

 private:
  struct Section {
    SectionEntry entry;
    uint32_t edges = 0;            // in its page
    bool committed = false;        // its page is the one the checkpoint in force names
    std::vector<SectionOp> log;    // logged operations not yet merged, in log order
  };

  // The section whose key range holds `key`. A bucket of sources narrows the search to the sections that may hold its keys (DGAP's vertex
  // index, coarse): from the one before the bucket's first section to the next bucket's first.
  size_t section_of(uint64_t key) const {
    const uint64_t b = (key >> 32) >> kBucketShift;
    const size_t lo = bucket_first_[b];
    auto it = std::upper_bound(keys_.begin() + static_cast<std::ptrdiff_t>(lo > 0 ? lo - 1 : 0),
                               keys_.begin() + static_cast<std::ptrdiff_t>(bucket_first_[b + 1]), key);
    return it == keys_.begin() ? 0 : static_cast<size_t>(it - keys_.begin()) - 1;
  }
  // keys_ from sections_, and per bucket the first section whose key's source is in it or later.
  void index_keys() {
    keys_.resize(sections_.size());
    for (size_t s = 0; s < sections_.size(); ++s) keys_[s] = sections_[s].entry.key;
    const uint64_t buckets = (header_.geometry.vertices >> kBucketShift) + 1;
    bucket_first_.resize(buckets + 1);
    size_t s = 0;
    for (uint64_t b = 0; b < buckets; ++b) {
      while (s < keys_.size() && (keys_[s] >> 32) < (b << kBucketShift)) ++s;
      bucket_first_[b] = s;
    }
    bucket_first_[buckets] = keys_.size();
  }
  uint64_t next_key(size_t s) const { return s + 1 < sections_.size() ? sections_[s + 1].entry.key : kNoNextKey; }

  // Section s's live edges: its page with its log applied.
  void section_edges(size_t s, std::vector<WeightedEdge>& out) const {
    read_section(file_, layout_, s, sections_[s].entry, next_key(s), out);
    apply_ops(out, sections_[s].log);
  }

  template <typename EdgeRecord>
  void add_records(std::span<const EdgeRecord> edges, bool deletes) {
    check_ids(edges);
    in_lists_.reset();
    while (!edges.empty()) {
      const std::span<const EdgeRecord> batch = take_log_batch(edges);  // the log holds what no checkpoint merged
      // The batch is logged (and acknowledged) on a thread of its own while its operations go to
      // their section logs and full sections merge: merged pages are no checkpoint's until one
      // commits, after both. (XPGraph overlaps logging and buffering the same way.)
      std::exception_ptr logging_failed;
      auto log_batch = [&] {
        try {
          log_.append(batch, deletes);
        } catch (...) {
          logging_failed = std::current_exception();
        }
      };
      // (A few edges are logged first instead: a thread costs more than they do.)
      constexpr size_t kLogAlongside = 4096;
      std::optional<std::thread> logger;
      if (batch.size() >= kLogAlongside) {
        logger.emplace(log_batch);
      } else {
        log_batch();
        if (logging_failed) std::rethrow_exception(logging_failed);
      }
      std::exception_ptr applying_failed;
      try {
        route(batch, deletes);
        const uint64_t section_log = option_value(options_.tuning, kSectionLogOption);
        merge_sections([&](const Section& s) { return s.log.size() >= section_log; });
      } catch (...) {
        applying_failed = std::current_exception();
      }
      if (logger) logger->join();
      if (logging_failed) std::rethrow_exception(logging_failed);
      if (applying_failed) std::rethrow_exception(applying_failed);
      if (pending_ * sizeof(SectionOp) > options_.buffer_memory || tail_for_readers()) checkpoint();
    }
  }

  // Whether readers are waiting on the log's tail: a run lays out what was logged since the
  // checkpoint at every open (integrations/store_graph.h), so while a reader holds the checkpoint
  // in force, one comes once that tail reaches --reader-tail percent of the edges in the pages
  // (at least kLeastReaderTail). Without readers the tail waits for --buffer-mem.
  bool tail_for_readers() const {
    const uint64_t percent = option_value(options_.tuning, kReaderTailOption);
    const uint64_t tail = log_.head() - checkpoint_.flushed;
    if (percent == 0 || tail < kLeastReaderTail) return false;
    return tail * 100 >= edges_in_pages() * percent && readers_before(lock_.fd(), checkpoint_.seq + 1);
  }
  // The live edges in the sections' pages (their logs apart).
  uint64_t edges_in_pages() const {
    uint64_t edges = 0;
    for (const Section& section : sections_) edges += section.edges;
    return edges;
  }
  static constexpr uint64_t kLeastReaderTail = uint64_t{1} << 20;

  // Appends each operation to its section's log, in log order: each thread finds the sections of
  // a slice of the batch, then takes the operations of its own range of sections.
  template <typename EdgeRecord>
  void route(std::span<const EdgeRecord> batch, bool deletes) {
    std::vector<uint32_t> section(batch.size());
    const uint32_t threads = options_.threads;
    run_tasks(threads, [&](uint32_t t) {
      for (size_t i = batch.size() * t / threads, end = batch.size() * (t + 1) / threads; i < end; ++i)
        section[i] = static_cast<uint32_t>(section_of(edge_key(batch[i].src, batch[i].dst)));
    });
    run_tasks(threads, [&](uint32_t t) {
      const uint64_t lo = sections_.size() * t / threads, hi = sections_.size() * (t + 1) / threads;
      for (size_t i = 0; i < batch.size(); ++i) {
        if (section[i] < lo || section[i] >= hi) continue;
        Weight weight = 1;
        if constexpr (std::is_same_v<EdgeRecord, WeightedEdge>) weight = header_.geometry.weighted ? batch[i].weight : 1;
        sections_[section[i]].log.push_back({batch[i].src, batch[i].dst, weight, deletes});
      }
    });
    pending_ += batch.size();
  }

  // Replays log records [from, to) into the section logs (recovery).
  void replay(uint64_t from, uint64_t to) {
    for (uint64_t p = from; p < to; ++p) {
      const LoggedEdge e = log_.read(p);
      SectionOp op{e.src, e.dst, header_.geometry.weighted ? e.weight : 1, e.deleted};
      sections_[section_of(op.key())].log.push_back(op);
      ++pending_;
    }
  }

  // Merges every section `wanted` picks: its page and log become new pages (several when it
  // outgrew one), written to free pages; the old page is retired. Not yet persisted: the
  // checkpoint persists what it commits.
  template <typename Wanted>
  void merge_sections(Wanted&& wanted) {
    leases_checked_ = false;
    std::vector<size_t> picked;
    for (size_t s = 0; s < sections_.size(); ++s)
      if (wanted(sections_[s])) picked.push_back(s);
    if (picked.empty()) return;
    std::vector<std::vector<EncodedSection>> encoded(picked.size());
    run_tasks(options_.threads, [&](uint32_t task) {
      std::vector<WeightedEdge> content;
      for (size_t k = task; k < picked.size(); k += options_.threads) {
        const size_t s = picked[k];
        content.clear();
        section_edges(s, content);
        encoded[k] = encode_section(content, header_.geometry.weighted, sections_[s].entry.key);
      }
    });
    // Pages in key order (free pages lowest first), so sections merged together follow each
    // other in the file and a reader's ranges join; then the table, from the last picked section
    // back, so the indexes of those before stay valid.
    std::vector<std::vector<Section>> parts(picked.size());
    for (size_t k = 0; k < picked.size(); ++k)
      for (EncodedSection& e : encoded[k]) {
        Section part;
        part.entry.key = e.key;
        part.edges = e.edges;
        if (!e.page.empty()) {
          part.entry.page = allocate_page();
          std::memcpy(file_.at<std::byte>(layout_.page_offset(part.entry.page)), e.page.data(), kStorePageBytes);
          part.entry.crc = crc32c_of(e.page);
          ++pages_written_;
        }
        parts[k].push_back(std::move(part));
      }
    for (size_t k = picked.size(); k-- > 0;) {
      const size_t s = picked[k];
      pending_ -= sections_[s].log.size();
      retire(sections_[s]);
      splits_ += parts[k].size() - 1;
      sections_[s] = std::move(parts[k][0]);
      sections_.insert(sections_.begin() + static_cast<std::ptrdiff_t>(s) + 1,
                       std::make_move_iterator(parts[k].begin() + 1), std::make_move_iterator(parts[k].end()));
      ++merges_;
    }
    index_keys();
  }

  // A page no longer named: reusable at once when no checkpoint names it; else, once the next
  // checkpoint commits, when no reader holds a checkpoint that names it (store/reader_lease.h).
  void retire(const Section& s) {
    if (s.entry.page == 0) return;
    (s.committed ? retired_ : uncommitted_free_).push_back(s.entry.page);
  }

  uint32_t allocate_page() {
    if (!uncommitted_free_.empty()) {
      const uint32_t page = uncommitted_free_.back();
      uncommitted_free_.pop_back();
      return page;
    }
    // Pages retired by checkpoint r were named by those before it: free once no reader holds one
    // (asked at most once per merge round while a reader holds one back).
    while (free_.empty() && !retired_batches_.empty() && !leases_checked_) {
      if (readers_before(lock_.fd(), retired_batches_.front().first)) {
        leases_checked_ = true;
        break;
      }
      free_.insert(free_.end(), retired_batches_.front().second.begin(), retired_batches_.front().second.end());
      std::sort(free_.begin(), free_.end(), std::greater<>());  // taken from the back: lowest first
      retired_batches_.pop_front();
    }
    if (!free_.empty()) {
      const uint32_t page = free_.back();
      free_.pop_back();
      return page;
    }
    if (high_water_ < region_pages(header_.geometry)) return static_cast<uint32_t>(high_water_++);
    fail_full("{}: the store is full: all {} pages are in use{} (a new store takes --expect-edges or --block-space)",
         file_.path(), region_pages(header_.geometry),
         retired_batches_.empty() ? "" : " or held by a reader of an older checkpoint");
  }

  // Persist order (docs/store.md): the pages named since the checkpoint in force, the section
  // table copy, then the slot that commits them.
  void commit() {
    std::vector<uint32_t> written;
    for (const Section& s : sections_)
      if (!s.committed && s.entry.page != 0) written.push_back(s.entry.page);
    std::sort(written.begin(), written.end());
    std::vector<ByteRange> ranges;
    for (uint32_t page : written) add_range(ranges, layout_.page_offset(page), kStorePageBytes);
    persister_.persist(ranges);
    persister_.crash_point(CrashPoint::CheckpointBlocks);
    std::vector<SectionEntry> table(sections_.size());
    for (size_t s = 0; s < sections_.size(); ++s) table[s] = sections_[s].entry;
    const uint32_t slot = 1 - checkpoint_.slot;
    const auto saturated = [](uint64_t n) { return static_cast<uint32_t>(std::min<uint64_t>(n, UINT32_MAX)); };
    const SectionTableHeader counts{0, saturated(merges_before_ + merges_), saturated(splits_before_ + splits_)};
    const uint32_t table_crc = write_section_table(file_, layout_, persister_, slot, table, counts);
    persister_.crash_point(CrashPoint::CheckpointTable);
    Checkpoint next{slot, checkpoint_.seq + 1, log_.head(), high_water_, false, table_crc};
    write_checkpoint(file_, layout_, persister_, next);
    persister_.crash_point(CrashPoint::CheckpointSlot);
    checkpoint_ = next;
    ++checkpoints_;
    for (Section& s : sections_) s.committed = true;
    if (!retired_.empty()) retired_batches_.emplace_back(next.seq, std::move(retired_));
    retired_.clear();
  }

  // Recovery (docs/store.md, "dgap"): the checkpoint's section table; pages it does not name are
  // free; the log after its position is replayed into the section logs.
  void recover() {
    const uint64_t head = log_.head();
    const Checkpoint& c = checkpoint_;
    check_positions(file_, header_, c, head);
    with_damage_note(c, [&] {
      SectionTableHeader counts;
      const std::vector<SectionEntry> table = read_section_table(file_, layout_, c, &counts);
      merges_before_ = counts.merges;
      splits_before_ = counts.splits;
      std::vector<bool> used(c.high_water, false);
      sections_.resize(table.size());
      for (size_t s = 0; s < table.size(); ++s) {
        sections_[s].entry = table[s];
        sections_[s].committed = true;
        if (table[s].page != 0) {
          used[table[s].page] = true;
          sections_[s].edges = packed_page_edges(file_.at<std::byte>(layout_.page_offset(table[s].page)));
        }
      }
      // Pages the checkpoint does not name: an older one may have, and a reader may hold it.
      std::vector<uint32_t> unnamed;
      for (uint32_t p = 1; p < c.high_water; ++p)
        if (!used[p]) unnamed.push_back(p);
      if (!unnamed.empty()) retired_batches_.emplace_back(c.seq, std::move(unnamed));
      high_water_ = c.high_water;
      index_keys();
      verify_log_lines(file_, layout_, c.flushed, head);
      replay(c.flushed, head);
    });
    replayed_ = head - c.flushed;
    repaired_input_slot_ = repair_inputs(file_, layout_, persister_);
  }

  std::vector<Section> sections_;
  static constexpr uint32_t kBucketShift = 8;  // 256 sources a bucket
  std::vector<uint64_t> keys_;            // sections_[s].entry.key, for routing
  std::vector<size_t> bucket_first_;      // index_keys()
  uint64_t pending_ = 0;                  // operations in the section logs
  uint64_t high_water_ = 1;               // pages [1, H) handed out
  std::vector<uint32_t> free_;            // no checkpoint a reader may hold names them (lowest last)
  std::vector<uint32_t> retired_;         // the checkpoint in force names them, the sections no longer
  std::deque<std::pair<uint64_t, std::vector<uint32_t>>> retired_batches_;  // by the checkpoint that retired them
  bool leases_checked_ = false;           // a reader held retired pages back this merge round
  std::vector<uint32_t> uncommitted_free_;  // written and replaced since the checkpoint in force
  uint64_t checkpoints_ = 0, replayed_ = 0, merges_ = 0, splits_ = 0, pages_written_ = 0;
  uint64_t merges_before_ = 0, splits_before_ = 0;
  mutable std::optional<std::vector<std::vector<std::pair<VertexId, Weight>>>> in_lists_;  // in-queries, until a change  // by earlier processes, as the checkpoint records them
};

}  // namespace

std::unique_ptr<StoreWriter> open_dgap_store(WriterLock lock, PmemFile file, const StoreHeader& header,
                                             const StoreOptions& options) {
  return std::make_unique<DgapStore>(std::move(lock), std::move(file), header, options);
}

}  // namespace graphso::store
