#include "store/dgap/section_view.h"

#include <algorithm>

#include "base/packed_pages.h"
#include "store/dgap/sections.h"

namespace graphso::store {

namespace {

class SectionView final : public StoreView {
 public:
  SectionView(ReaderLease lease, PmemFile file, const StoreHeader& header)
      : StoreView(std::move(lease), std::move(file), header) {}

  ReadCounts out_edges(VertexId begin, VertexId end, const EdgeSink& sink) const override {
    ReadCounts counts;
    PieceSink pieces(sink, counts);
    std::vector<WeightedEdge> content;
    for (size_t s = section_of(edge_key(begin, 0)); begin < end && s < table_.size() && table_[s].key < edge_key(end, 0);
         ++s) {
      content.clear();
      section_edges(s, content);
      if (table_[s].page != 0) {
        ++counts.blocks;
        counts.block_bytes += kSectionPageBytes;
        ++counts.pages;  // each section its own page
      }
      for (const WeightedEdge& e : content)
        if (e.src >= begin && e.src < end) pieces.pending().push_back(e);
      pieces.boundary();
    }
    pieces.flush();
    return counts;
  }

  bool in_edges(const EdgeSink&, ReadCounts&) const override { return false; }  // dgap keeps out-edges only

  std::vector<ViewSection> sections() const override {
    std::vector<ViewSection> out(table_.size());
    for (size_t s = 0; s < table_.size(); ++s) {
      const SectionEntry& e = table_[s];
      out[s] = {e.key, next_key(s), e.page, e.crc, e.page ? layout_.page_offset(e.page) : 0,
                e.page ? packed_page_edges(file_.at<std::byte>(layout_.page_offset(e.page))) : 0u,
                ops_begin_[s + 1] - ops_begin_[s]};
    }
    return out;
  }

  SectionStats section_stats() const override {
    SectionStats stats;
    stats.sections = table_.size();
    stats.merges = counts_.merges;
    stats.splits = counts_.splits;
    stats.logged = ops_.size();
    for (size_t s = 0; s < table_.size(); ++s) {
      stats.max_logged = std::max(stats.max_logged, ops_begin_[s + 1] - ops_begin_[s]);
      if (table_[s].page == 0) {
        ++stats.empty;
        continue;
      }
      const PackedPageHeader h = packed_page_header(file_.at<std::byte>(layout_.page_offset(table_[s].page)));
      stats.page_bytes += sizeof h + h.group_bytes + h.dst_bytes + uint64_t{h.edges} * h.weight_bytes;
    }
    return stats;
  }

  void section_edges(uint64_t s, std::vector<WeightedEdge>& out) const override {
    const size_t at = out.size();
    std::vector<WeightedEdge> content;
    read_section(file_, layout_, s, table_[s], next_key(s), content);
    apply_ops(content, std::span<const SectionOp>(ops_).subspan(ops_begin_[s], ops_begin_[s + 1] - ops_begin_[s]));
    out.resize(at + content.size());
    std::copy(content.begin(), content.end(), out.begin() + static_cast<std::ptrdiff_t>(at));
  }

 private:
  void copy_position() override {
    table_ = read_section_table(file_, layout_, checkpoint_, &counts_);
    copy_log();
    // The records by section, in log order (a counting sort).
    std::vector<uint32_t> section(logged_.size());
    ops_begin_.assign(table_.size() + 1, 0);
    for (size_t i = 0; i < logged_.size(); ++i) {
      section[i] = static_cast<uint32_t>(section_of(edge_key(logged_[i].src, logged_[i].dst)));
      ++ops_begin_[section[i] + 1];
    }
    for (size_t s = 0; s < table_.size(); ++s) ops_begin_[s + 1] += ops_begin_[s];
    ops_.resize(logged_.size());
    std::vector<uint64_t> next(ops_begin_.begin(), ops_begin_.end() - 1);
    for (size_t i = 0; i < logged_.size(); ++i) {
      const LoggedEdge& e = logged_[i];
      ops_[next[section[i]]++] = {e.src, e.dst, weighted() ? e.weight : Weight{1}, e.deleted};
    }
    std::vector<LoggedEdge>().swap(logged_);  // ops_ holds the log now
  }

  size_t section_of(uint64_t key) const {
    auto it = std::upper_bound(table_.begin(), table_.end(), key,
                               [](uint64_t k, const SectionEntry& e) { return k < e.key; });
    return it == table_.begin() ? 0 : static_cast<size_t>(it - table_.begin()) - 1;
  }
  uint64_t next_key(size_t s) const { return s + 1 < table_.size() ? table_[s + 1].key : kNoNextKey; }

  std::vector<SectionEntry> table_;
  SectionTableHeader counts_{};
  std::vector<SectionOp> ops_;         // the log after the checkpoint, by section, in log order
  std::vector<uint64_t> ops_begin_;    // where each section's operations start in ops_
};

}  // namespace

std::unique_ptr<StoreView> make_section_view(ReaderLease lease, PmemFile file, const StoreHeader& header) {
  return std::make_unique<SectionView>(std::move(lease), std::move(file), header);
}

}  // namespace graphso::store
