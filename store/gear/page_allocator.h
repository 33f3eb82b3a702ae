// GEAR's multilevel page allocation and dual-granularity wear levelling over a gear store's 4 KiB
// pages (docs/store.md, "gear"). A page in use is cut into equal subpages of one level (64 B to
// 4 KiB); a list above a page takes a run of 2^k pages. Available pages per level (a free
// subpage), free pages and free runs are kept in ordered sets.
//
// Wear levelling on: each set is ordered by the page's write count in exponential levels (0, 1,
// 2-3, 4-7, ...), so a new subpage goes to the healthiest page that has one and a new page is the
// healthiest free one (a page never used counts as healthiest); inside a page a subpage not written
// this round is taken first, and when none is left the round starts again (GEAR's write and
// empty flags). And a page written more than kWornFactor times the mean of the pages written is
// worn: it gets no new subpage, and the writer moves a list whose append would land there to a
// page below the mean instead (GEAR picks healthy pages only when it allocates, which leaves the
// pages of many small lists to wear). Off: first fit, lowest page and subpage first, nothing moved.
//
// Subpages are freed in two steps, as dgap pages are: one the checkpoint in force names is
// retired, and is reused once the next checkpoint commits and no reader holds an older one.
// Thread-safe: ingest threads allocate and count writes at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "store/gear/gear_format.h"

namespace graphso::store {

class PageAllocator {
 public:
  PageAllocator(uint64_t pages, bool wear_levelling);

  // --- recovery: the checkpoint's page table, then each list's subpage claimed ---
  // Every subpage no list claims is free once no reader holds a checkpoint before `seq`
  // (release_retired).
  void restore(std::span<const GearPage> table, uint64_t high_water, uint64_t seq);
  // Marks the subpage (or run) at `unit` of `level` in use (checked_list_level has checked it
  // against the page table); false when another list has it already.
  bool claim(uint64_t unit, uint32_t level);

  // A subpage (or run) of `level`; its unit. healthy: on a page written less than the mean (a
  // list moved off a worn page). Fails when the store is full.
  uint64_t allocate(uint32_t level, bool healthy = false);
  // A subpage no checkpoint names: free at once.
  void release(uint64_t unit, uint32_t level);
  // A subpage the checkpoint in force names: free after the next commit and its readers.
  void retire(uint64_t unit, uint32_t level);
  // Checkpoint `seq` committed: what was retired before it waits only for readers now.
  void committed(uint64_t seq);
  // Frees what no reader holds any more; `held(seq)` says whether one holds a checkpoint before seq.
  void release_retired(const std::function<bool(uint64_t)>& held);

  // A write of `bytes` at byte `offset` of the block region: one write to each page it touches.
  void note_write(uint64_t offset, uint64_t bytes);
  // Wear levelling on, and the page at byte `offset` is written more than kWornFactor times the
  // mean (and at least kWornMinimum times).
  bool worn(uint64_t offset) const;
  static constexpr double kWornFactor = 1.5;
  static constexpr uint32_t kWornMinimum = 16;

  uint64_t high_water() const { return high_water_; }
  uint64_t pages() const { return pages_; }
  bool has_retired() const;
  // The page table as a checkpoint records it (pages [0, pages)).
  void write_table(std::span<GearPage> out) const;

 private:
  using Key = std::pair<uint32_t, uint32_t>;  // (wear bucket or 0, page)
  uint32_t bucket(uint32_t page) const;
  bool worn_count(uint64_t writes) const;
  Key key(uint32_t page) const { return {wear_levelling_ ? bucket(page) : 0u, page}; }
  // Each page is in at most one set (its level's available pages, the free pages, or its level's
  // free runs), under the key it had when it went in; write counts only grow, so take_first
  // brings the first key up to date before trusting it.
  void insert(std::set<Key>& set, uint32_t page);
  void erase(std::set<Key>& set, uint32_t page);
  bool take_first(std::set<Key>& set, uint32_t& page);
  uint32_t take_page();
  uint64_t take_run(uint32_t level);
  uint64_t pick_subpage(uint32_t page, uint32_t level);
  void free_subpage(uint64_t unit, uint32_t level);
  [[noreturn]] void full(uint32_t level) const;

  uint64_t pages_;
  bool wear_levelling_;
  mutable std::mutex mutex_;
  uint64_t high_water_ = 1;  // pages [1, H) handed out
  std::vector<uint8_t> level_;
  std::vector<uint64_t> used_, written_;
  std::vector<std::atomic<uint32_t>> writes_;
  std::atomic<uint64_t> total_writes_ = 0, pages_written_ = 0;  // pages with a write, for the mean
  std::vector<uint32_t> set_key_;  // the key's first half a page is in its set under
  std::vector<uint8_t> in_set_;
  std::set<Key> available_[kGearPageLevel + 1];  // pages of the level with a free subpage
  std::set<Key> free_pages_;
  std::set<Key> free_runs_[kGearMaxLevel + 1];
  std::vector<std::pair<uint64_t, uint32_t>> retired_;  // (unit, level), named by the checkpoint in force
  std::deque<std::pair<uint64_t, std::vector<std::pair<uint64_t, uint32_t>>>> retired_batches_;  // by retiring checkpoint
  uint64_t restore_seq_ = 0;  // unclaimed space after recovery waits for readers before it
  bool restoring_ = false;
};

}  // namespace graphso::store
