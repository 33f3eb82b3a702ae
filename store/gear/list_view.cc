#include "store/gear/list_view.h"

#include <algorithm>
#include <vector>

#include "base/error.h"
#include "store/gear/gear_lists.h"

namespace graphso::store {

namespace {

class ListView final : public StoreView {
 public:
  ListView(ReaderLease lease, PmemFile file, const StoreHeader& header)
      : StoreView(std::move(lease), std::move(file), header) {}

  ReadCounts out_edges(VertexId begin, VertexId end, const EdgeSink& sink) const override {
    return read(AdjacencyList::Out, out_log_, begin, end, sink);
  }
  bool in_edges(const EdgeSink& sink, ReadCounts& counts) const override {
    counts = read(AdjacencyList::In, group_log(AdjacencyList::In), 0, static_cast<VertexId>(vertices()), sink);
    return true;
  }

  // Placement: lists per subpage size, how full their subpages are, what relocation rewrote (since
  // the store was created); wear: subpage writes per page, over the pages written at least once.
  std::vector<StatLine> stat_lines() const override {
    uint64_t lists[kGearMaxLevel + 1] = {};
    uint64_t list_bytes = 0, subpage_bytes = 0;
    for (uint64_t i = 0; i < lists_.size(); ++i) {
      if (lists_[i].unit == 0) continue;
      ++lists[levels_[i]];
      list_bytes += uint64_t{lists_[i].words} * sizeof(uint32_t);
      subpage_bytes += gear_level_bytes(levels_[i]);
    }
    uint64_t pages_written = 0, total_writes = 0, max_writes = 0;
    for (const GearPage& p : pages_) {
      if (p.writes == 0) continue;
      ++pages_written;
      total_writes += p.writes;
      max_writes = std::max<uint64_t>(max_writes, p.writes);
    }
    std::vector<StatLine> out;
    for (uint32_t level = 0; level <= kGearMaxLevel; ++level)
      if (lists[level]) out.push_back(stat_count(fmt::format("lists_{}_bytes", gear_level_bytes(level)), lists[level]));
    const double mean = pages_written ? static_cast<double>(total_writes) / pages_written : 0.0;
    out.insert(out.end(),
               {stat_ratio("reserved_utilisation", subpage_bytes ? static_cast<double>(list_bytes) / subpage_bytes : 0.0),
                stat_count("relocations", counts_.relocations), stat_count("relocated_bytes", counts_.relocated_bytes),
                stat_count("wear_moves", counts_.wear_moves), stat_count("wear_moved_bytes", counts_.wear_moved_bytes),
                stat_count("pages_written", pages_written), stat_count("page_writes_max", max_writes),
                stat_ratio("page_writes_mean", mean, 2),
                stat_ratio("page_writes_max_over_mean", mean > 0 ? max_writes / mean : 0.0, 2)});
    return out;
  }

 private:
  void copy_position() override {
    const GearTable t = checked_gear_table(file_, layout_, checkpoint_);
    counts_ = t.header;
    lists_.assign(t.lists.begin(), t.lists.end());  // empty: no checkpoint yet, every list empty
    pages_.assign(t.pages.begin(), t.pages.end());
    levels_.assign(lists_.size(), 0);
    for (uint64_t i = 0; i < lists_.size(); ++i) {
      const AdjacencyList d = i < vertices() ? AdjacencyList::Out : AdjacencyList::In;
      const auto v = static_cast<VertexId>(i < vertices() ? i : i - vertices());
      levels_[i] = static_cast<uint8_t>(checked_list_level(file_, layout_, pages_, checkpoint_.high_water, d, v, lists_[i]));
    }
    copy_log();
    out_log_ = group_log(AdjacencyList::Out);
  }

  // Direction d of the vertices [first, end): each list, then the records naming it.
  ReadCounts read(AdjacencyList d, const LogByVertex& log, VertexId first, VertexId end, const EdgeSink& sink) const {
    ReadCounts counts;
    PieceSink pieces(sink, counts, piece_buffers_);
    PagesTouched touched(layout_);
    for (uint64_t v = first; v < end; ++v) {
      const uint64_t i = list_index(vertices(), d, static_cast<VertexId>(v));
      std::span<const uint32_t> words;
      if (!lists_.empty() && lists_[i].unit != 0) {
        words = checked_list_words(file_, layout_, d, static_cast<VertexId>(v), lists_[i]);
        ++counts.blocks;
        counts.block_bytes += gear_level_bytes(levels_[i]);
        touched.note(layout_.block_offset(lists_[i].unit), words.size_bytes(), counts);
      }
      emit_vertex(d, static_cast<VertexId>(v), std::span<const std::span<const uint32_t>>(&words, 1), log, pieces);
    }
    pieces.flush();
    return counts;
  }

  GearTableHeader counts_{};
  std::vector<GearList> lists_;  // out-lists then in-lists, as the checkpoint's table copy holds them
  std::vector<uint8_t> levels_;
  std::vector<GearPage> pages_;
  LogByVertex out_log_;
};

}  // namespace

std::unique_ptr<StoreView> make_list_view(ReaderLease lease, PmemFile file, const StoreHeader& header) {
  return std::make_unique<ListView>(std::move(lease), std::move(file), header);
}

}  // namespace graphso::store
