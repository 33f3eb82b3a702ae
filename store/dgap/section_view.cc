#include "store/dgap/section_view.h"

#include <algorithm>
#include <bit>
#include <optional>

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
    PieceSink pieces(sink, counts, piece_buffers_);
    std::vector<WeightedEdge> content;
    for (size_t s = section_of(edge_key(begin, 0)); begin < end && s < table_.size() && table_[s].key < edge_key(end, 0);
         ++s) {
      content.clear();
      section_edges(s, content);
      if (table_[s].page != 0) {
        ++counts.blocks;
        counts.block_bytes += kStorePageBytes;
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

  std::optional<std::vector<ViewPage>> pages_in_place() const override {
    std::vector<ViewPage> out(table_.size());
    for (size_t s = 0; s < table_.size(); ++s) {
      const SectionEntry& e = table_[s];
      const auto ops = section_ops(s);
      out[s] = {e.key, next_key(s), e.page, e.crc, e.page ? layout_.page_offset(e.page) : 0,
                e.page ? packed_page_edges(file_.at<std::byte>(layout_.page_offset(e.page))) : 0u,
                ops.size()};
      for (size_t i = 0; i < ops.size(); ++i)
        if (ops[i].deleted) {
          out[s].first_deletion = ops_at_[ops_begin_[s] + i];
          break;
        }
    }
    return out;
  }

  void page_insertions(uint64_t s, std::vector<WeightedEdge>& out, uint64_t from, uint64_t to) const override {
    // In key order, copies of one edge by weight (so that a layout of them is one layout), sorted
    // as (key, weight) pairs.
    std::vector<std::pair<uint64_t, Weight>> keyed;
    const auto ops = section_ops(s);
    for (uint64_t i = section_logged_before(s, from); i < ops.size() && ops_at_[ops_begin_[s] + i] < to; ++i)
      if (!ops[i].deleted) keyed.emplace_back(ops[i].key(), ops[i].weight);
    std::sort(keyed.begin(), keyed.end());
    for (const auto& [key, weight] : keyed) out.push_back({static_cast<VertexId>(key >> 32), static_cast<VertexId>(key), weight});
  }

  uint64_t page_logged_before(uint64_t s, uint64_t position) const override { return section_logged_before(s, position); }

  // The edge array: sections, how full their pages are (bytes the edges take against the pages
  // in use), what waits in their logs (in all and in the fullest), merges and splits since the
  // store was created.
  std::vector<StatLine> stat_lines() const override {
    uint64_t empty = 0, page_bytes = 0, max_logged = 0;
    for (size_t s = 0; s < table_.size(); ++s) {
      max_logged = std::max(max_logged, ops_begin_[s + 1] - ops_begin_[s]);
      if (table_[s].page == 0) {
        ++empty;
        continue;
      }
      const PackedPageHeader h = packed_page_header(file_.at<std::byte>(layout_.page_offset(table_[s].page)));
      page_bytes += sizeof h + h.group_bytes + h.dst_bytes + uint64_t{h.edges} * h.weight_bytes;
    }
    const uint64_t pages = table_.size() - empty;
    return {stat_count("sections", table_.size()),
            stat_count("sections_empty", empty),
            stat_ratio("section_density", pages ? static_cast<double>(page_bytes) / (pages * 4096.0) : 0.0),
            stat_count("section_log_ops", ops_.size()),
            stat_count("section_log_max", max_logged),
            stat_count("section_merges", counts_.merges),
            stat_count("section_splits", counts_.splits)};
  }

  void page_edges(uint64_t s, std::vector<WeightedEdge>& out, uint64_t before) const override {
    section_edges(s, out, before);
  }

 private:
  // Section s's edges with the operations logged before `before` applied.
  void section_edges(uint64_t s, std::vector<WeightedEdge>& out, uint64_t before = UINT64_MAX) const {
    const size_t at = out.size();
    std::vector<WeightedEdge> content;
    read_section(file_, layout_, s, table_[s], next_key(s), content);
    apply_ops(content, section_ops(s).first(section_logged_before(s, before)));
    out.resize(at + content.size());
    std::copy(content.begin(), content.end(), out.begin() + static_cast<std::ptrdiff_t>(at));
  }

  void copy_position() override {
    table_ = read_section_table(file_, layout_, checkpoint_, &counts_);
    copy_log();
    // The records by section, in log order (a counting sort). A record's section is searched for
    // among those its source's bucket of sources spans, not among all: a tail of millions of
    // records searched whole took a third of a run's open (R-MAT 20, 4.2 M logged).
    const int shift = std::max(0, static_cast<int>(std::bit_width(vertices())) - static_cast<int>(std::bit_width(table_.size())));
    const uint64_t buckets = (vertices() >> shift) + 2;
    std::vector<uint32_t> bucket_first(buckets);
    for (uint64_t b = 0; b < buckets; ++b)
      bucket_first[b] = static_cast<uint32_t>(section_of(edge_key(static_cast<VertexId>(std::min<uint64_t>(b << shift, UINT32_MAX)), 0)));
    auto section_of_edge = [&](VertexId src, VertexId dst) {
      const uint64_t b = std::min<uint64_t>(src >> shift, buckets - 2);  // a source past the vertices: the last bucket
      const auto first = table_.begin() + bucket_first[b];
      const auto last = table_.begin() + std::min<uint64_t>(uint64_t{bucket_first[b + 1]} + 1, table_.size());
      auto it = std::upper_bound(first, last, edge_key(src, dst), [](uint64_t k, const SectionEntry& e) { return k < e.key; });
      return it == table_.begin() ? size_t{0} : static_cast<size_t>(it - table_.begin()) - 1;
    };
    std::vector<uint32_t> section(logged_.size());
    ops_begin_.assign(table_.size() + 1, 0);
    for (size_t i = 0; i < logged_.size(); ++i) {
      section[i] = static_cast<uint32_t>(section_of_edge(logged_[i].src, logged_[i].dst));
      ++ops_begin_[section[i] + 1];
    }
    for (size_t s = 0; s < table_.size(); ++s) ops_begin_[s + 1] += ops_begin_[s];
    ops_.resize(logged_.size());
    ops_at_.resize(logged_.size());
    std::vector<uint64_t> next(ops_begin_.begin(), ops_begin_.end() - 1);
    for (size_t i = 0; i < logged_.size(); ++i) {
      const LoggedEdge& e = logged_[i];
      ops_at_[next[section[i]]] = checkpoint_.flushed + i;
      ops_[next[section[i]]++] = {e.src, e.dst, weighted() ? e.weight : Weight{1}, e.deleted};
    }
    std::vector<LoggedEdge>().swap(logged_);  // ops_ holds the log now
  }

  // Section s's logged operations, in log order.
  std::span<const SectionOp> section_ops(size_t s) const {
    return std::span<const SectionOp>(ops_).subspan(ops_begin_[s], ops_begin_[s + 1] - ops_begin_[s]);
  }
  // How many of them were logged before `position`.
  uint64_t section_logged_before(size_t s, uint64_t position) const {
    const auto first = ops_at_.begin() + static_cast<std::ptrdiff_t>(ops_begin_[s]);
    const auto last = ops_at_.begin() + static_cast<std::ptrdiff_t>(ops_begin_[s + 1]);
    return static_cast<uint64_t>(std::lower_bound(first, last, position) - first);
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
  std::vector<uint64_t> ops_at_;       // per operation of ops_, its log position
};

}  // namespace

std::unique_ptr<StoreView> make_section_view(ReaderLease lease, PmemFile file, const StoreHeader& header) {
  return std::make_unique<SectionView>(std::move(lease), std::move(file), header);
}

}  // namespace graphso::store
