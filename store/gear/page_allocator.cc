#include "store/gear/page_allocator.h"

#include <algorithm>

#include "base/error.h"
#include "base/progress.h"
#include "store/store_full.h"

namespace graphso::store {

namespace {

uint64_t level_mask(uint32_t level) {
  const uint32_t n = gear_subpages(level);
  return n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
}

}  // namespace

PageAllocator::PageAllocator(uint64_t pages, bool wear_levelling)
    : pages_(pages), wear_levelling_(wear_levelling), level_(pages, kGearPageFree), used_(pages, 0),
      written_(pages, 0), writes_(pages), set_key_(pages, 0), in_set_(pages, 0) {}

uint32_t PageAllocator::bucket(uint32_t page) const {
  const uint32_t w = writes_[page].load(std::memory_order_relaxed);
  return w == 0 ? 0 : 1 + static_cast<uint32_t>(63 - __builtin_clzll(w));
}

void PageAllocator::restore(std::span<const GearPage> table, uint64_t high_water, uint64_t seq) {
  high_water_ = high_water;
  restore_seq_ = seq;
  for (uint64_t p = 0; p < pages_ && p < table.size(); ++p) {
    level_[p] = p < high_water ? table[p].level : kGearPageFree;
    written_[p] = table[p].written;
    writes_[p].store(table[p].writes, std::memory_order_relaxed);
    total_writes_ += table[p].writes;
    pages_written_ += table[p].writes > 0 ? 1 : 0;
  }
  restoring_ = true;
}

bool PageAllocator::claim(uint64_t unit, uint32_t level) {
  const uint64_t page = unit / kUnitsPerPage;
  const uint64_t units = std::min<uint64_t>(gear_level_bytes(level) / kBlockUnitBytes, kUnitsPerPage);
  const uint64_t bit = uint64_t{1} << ((unit % kUnitsPerPage) / units);
  if (used_[page] & bit) return false;
  used_[page] |= bit;
  return true;
}

bool PageAllocator::has_retired() const {
  std::lock_guard lock(mutex_);
  return restoring_ || !retired_batches_.empty();
}

void PageAllocator::release_retired(const std::function<bool(uint64_t)>& held) {
  std::lock_guard lock(mutex_);
  if (restoring_) {
    if (held(restore_seq_)) return;
    restoring_ = false;
    // Pages without a claimed subpage are free (a run's later pages with its first); the others
    // offer their unclaimed subpages.
    for (uint64_t p = 1; p < high_water_; ++p) {
      const uint32_t page = static_cast<uint32_t>(p);
      if (level_[p] <= kGearMaxLevel && level_[p] > kGearPageLevel && used_[p]) {
        p += gear_run_pages(level_[p]) - 1;
        continue;
      }
      if (level_[p] <= kGearPageLevel && used_[p]) {
        if (used_[p] != level_mask(level_[p])) insert(available_[level_[p]], page);
        continue;
      }
      level_[p] = kGearPageFree;
      used_[p] = 0;
      insert(free_pages_, page);
    }
  }
  while (!retired_batches_.empty() && !held(retired_batches_.front().first)) {
    for (const auto& [unit, level] : retired_batches_.front().second) free_subpage(unit, level);
    retired_batches_.pop_front();
  }
}

void PageAllocator::insert(std::set<Key>& set, uint32_t page) {
  if (in_set_[page]) return;
  const Key k = key(page);
  set.insert(k);
  set_key_[page] = k.first;
  in_set_[page] = 1;
}

void PageAllocator::erase(std::set<Key>& set, uint32_t page) {
  if (!in_set_[page]) return;
  set.erase({set_key_[page], page});
  in_set_[page] = 0;
}

bool PageAllocator::take_first(std::set<Key>& set, uint32_t& page) {
  while (!set.empty()) {
    const uint32_t first = set.begin()->second;
    erase(set, first);
    if (key(first).first == set_key_[first]) {
      page = first;
      return true;
    }
    insert(set, first);  // under its key now
  }
  return false;
}

uint32_t PageAllocator::take_page() {
  uint32_t page = 0;
  const bool fresh = high_water_ < pages_;
  // Levelling: a page never used has no writes, as healthy as any free page can be.
  if (wear_levelling_ && fresh) {
    if (free_pages_.empty() || free_pages_.begin()->first > 0) return static_cast<uint32_t>(high_water_++);
  }
  if (take_first(free_pages_, page)) return page;
  if (fresh) return static_cast<uint32_t>(high_water_++);
  // Free runs give up their pages.
  for (uint32_t level = kGearPageLevel + 1; level <= kGearMaxLevel; ++level) {
    if (free_runs_[level].empty()) continue;
    const uint32_t first = free_runs_[level].begin()->second;
    erase(free_runs_[level], first);
    for (uint64_t p = first; p < first + gear_run_pages(level); ++p) {
      level_[p] = kGearPageFree;
      insert(free_pages_, static_cast<uint32_t>(p));
    }
    if (take_first(free_pages_, page)) return page;
  }
  full(0);
}

uint64_t PageAllocator::take_run(uint32_t level) {
  const uint64_t run = gear_run_pages(level);
  uint32_t page = 0;
  if (!take_first(free_runs_[level], page)) {
    if (high_water_ + run <= pages_) {
      page = static_cast<uint32_t>(high_water_);
      high_water_ += run;
    } else {
      // Consecutive free pages, lowest first.
      std::vector<uint32_t> ids;
      for (const Key& k : free_pages_) ids.push_back(k.second);
      std::sort(ids.begin(), ids.end());
      size_t start = 0;
      bool found = false;
      for (size_t i = 0; i < ids.size() && !found; ++i) {
        if (i > 0 && ids[i] != ids[i - 1] + 1) start = i;
        found = i - start + 1 == run;
      }
      if (!found) full(level);
      page = ids[start];
      for (uint64_t p = page; p < page + run; ++p) erase(free_pages_, static_cast<uint32_t>(p));
    }
  }
  level_[page] = static_cast<uint8_t>(level);
  for (uint64_t p = page + 1; p < page + run; ++p) level_[p] = kGearPageInRun;
  used_[page] = 1;
  written_[page] = 1;
  return uint64_t{page} * kUnitsPerPage;
}

uint64_t PageAllocator::pick_subpage(uint32_t page, uint32_t level) {
  const uint64_t free = ~used_[page] & level_mask(level);
  uint64_t candidates = free;
  if (wear_levelling_) {
    candidates = free & ~written_[page];
    if (candidates == 0) {  // every free subpage was written this round: a new round
      written_[page] = 0;
      candidates = free;
    }
  }
  const uint32_t s = static_cast<uint32_t>(__builtin_ctzll(candidates));
  used_[page] |= uint64_t{1} << s;
  written_[page] |= uint64_t{1} << s;
  if (used_[page] != level_mask(level)) insert(available_[level], page);
  return uint64_t{page} * kUnitsPerPage + s * (gear_level_bytes(level) / kBlockUnitBytes);
}

uint64_t PageAllocator::allocate(uint32_t level, bool healthy) {
  std::lock_guard lock(mutex_);
  if (level > kGearPageLevel) return take_run(level);
  // Levelling: the first pages with room that are not worn (below the mean for a wear move); a few
  // are looked at, then a new page is taken instead. Worn pages get no new subpage until the
  // mean catches up with them: the exponential order alone lets a page climb to the top of its
  // bucket, up to twice the mean.
  uint32_t page = 0;
  bool found = false;
  std::vector<uint32_t> passed;
  while (!found && passed.size() < 8 && take_first(available_[level], page)) {
    const uint64_t w = writes_[page].load(std::memory_order_relaxed);
    found = !wear_levelling_ || !(healthy ? w * pages_written_.load() >= total_writes_.load() : worn_count(w));
    if (!found) passed.push_back(page);
  }
  for (uint32_t p : passed) insert(available_[level], p);
  if (!found) {
    page = take_page();
    level_[page] = static_cast<uint8_t>(level);
    used_[page] = 0;
  }
  return pick_subpage(page, level);
}

void PageAllocator::free_subpage(uint64_t unit, uint32_t level) {
  const uint32_t page = static_cast<uint32_t>(unit / kUnitsPerPage);
  if (level > kGearPageLevel) {
    used_[page] = 0;
    insert(free_runs_[level], page);
    return;
  }
  const uint64_t units = gear_level_bytes(level) / kBlockUnitBytes;
  used_[page] &= ~(uint64_t{1} << ((unit % kUnitsPerPage) / units));
  if (used_[page] == 0) {
    erase(available_[level], page);
    level_[page] = kGearPageFree;
    insert(free_pages_, page);
  } else {
    insert(available_[level], page);
  }
}

void PageAllocator::release(uint64_t unit, uint32_t level) {
  std::lock_guard lock(mutex_);
  free_subpage(unit, level);
}

void PageAllocator::retire(uint64_t unit, uint32_t level) {
  std::lock_guard lock(mutex_);
  retired_.emplace_back(unit, level);
}

void PageAllocator::committed(uint64_t seq) {
  std::lock_guard lock(mutex_);
  if (!retired_.empty()) retired_batches_.emplace_back(seq, std::move(retired_));
  retired_.clear();
}

void PageAllocator::note_write(uint64_t offset, uint64_t bytes) {
  const uint64_t first = offset / kStorePageBytes;
  const uint64_t last = (offset + bytes - 1) / kStorePageBytes;
  for (uint64_t p = first; p <= last; ++p)
    if (writes_[p].fetch_add(1, std::memory_order_relaxed) == 0) ++pages_written_;
  total_writes_ += last - first + 1;
}

bool PageAllocator::worn(uint64_t offset) const {
  return wear_levelling_ && worn_count(writes_[offset / kStorePageBytes].load(std::memory_order_relaxed));
}

bool PageAllocator::worn_count(uint64_t writes) const {
  return writes >= kWornMinimum && static_cast<double>(writes) * static_cast<double>(pages_written_.load()) >
                                       kWornFactor * static_cast<double>(total_writes_.load());
}

void PageAllocator::write_table(std::span<GearPage> out) const {
  std::lock_guard lock(mutex_);
  for (uint64_t p = 0; p < pages_ && p < out.size(); ++p) {
    out[p] = GearPage{};
    out[p].written = written_[p];
    out[p].writes = writes_[p].load(std::memory_order_relaxed);
    out[p].level = level_[p];
  }
}

void PageAllocator::full(uint32_t level) const {
  fail_full("the store is full: no free {} for a level-{} list among its {} pages ({}){}",
       level > kGearPageLevel ? "run" : "page", level, pages_, human_bytes(static_cast<double>(pages_ * kStorePageBytes)),
       retired_batches_.empty() && !restoring_ ? "" : "; some are held by a reader of an older checkpoint");
}

}  // namespace graphso::store
