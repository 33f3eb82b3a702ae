#include "store/dgap/sections.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "base/checksum.h"
#include "base/error.h"
#include "base/packed_pages.h"
#include "store/store_full.h"

namespace graphso::store {

namespace {

uint64_t table_capacity(const StoreLayout& layout) { return region_pages(layout.geometry); }

uint32_t used_table_crc(const std::byte* table, uint64_t sections) {
  return crc32c_of(std::span<const std::byte>(table, (sections + 1) * sizeof(SectionEntry)));
}

}  // namespace

std::vector<SectionEntry> read_section_table(const PmemFile& file, const StoreLayout& layout, const Checkpoint& c,
                                             SectionTableHeader* counts) {
  if (counts) *counts = {1, 0, 0};
  if (c.seq == 0) return {SectionEntry{0, 0, 0}};
  const auto* table = file.at<const std::byte>(layout.tables[c.slot]);
  SectionTableHeader header;
  std::memcpy(&header, table, sizeof header);
  const std::string where = fmt::format("{}: corrupt store: {}the section table copy {} of checkpoint {}", file.path(),
                                        damage_note(c), c.slot, c.seq);
  if (header.sections == 0 || header.sections > table_capacity(layout))
    fail("{} counts {} sections (it holds 1 to {})", where, header.sections, table_capacity(layout));
  if (used_table_crc(table, header.sections) != c.table_crc) fail("{} does not match its checksum", where);
  if (counts) *counts = header;
  std::vector<SectionEntry> sections(header.sections);
  std::memcpy(sections.data(), table + sizeof(SectionEntry), sections.size() * sizeof(SectionEntry));
  std::vector<bool> seen(c.high_water, false);
  for (uint64_t i = 0; i < sections.size(); ++i) {
    const SectionEntry& s = sections[i];
    // A checksummed table that breaks these was written wrong, not damaged; still never trusted.
    if ((i == 0 && s.key != 0) || (i > 0 && s.key < sections[i - 1].key))
      fail("{}: section {}'s key is out of order", where, i);
    if (s.page == 0 && s.crc != 0) fail("{}: empty section {} has a checksum", where, i);
    if (s.page != 0 && (s.page >= c.high_water || seen[s.page]))
      fail("{}: section {} names page {} (below {} and once only)", where, i, s.page, c.high_water);
    if (s.page != 0) seen[s.page] = true;
  }
  return sections;
}

uint32_t write_section_table(const PmemFile& file, const StoreLayout& layout, Persister& persister, uint32_t slot,
                             std::span<const SectionEntry> sections, SectionTableHeader header) {
  if (sections.size() > table_capacity(layout))
    fail_full("{}: the store is full: {} sections, its table holds {}", file.path(), sections.size(), table_capacity(layout));
  auto* table = file.at<std::byte>(layout.tables[slot]);
  header.sections = sections.size();
  std::memcpy(table, &header, sizeof header);
  std::memcpy(table + sizeof(SectionEntry), sections.data(), sections.size_bytes());
  persister.persist(layout.tables[slot], (sections.size() + 1) * sizeof(SectionEntry));
  return used_table_crc(table, sections.size());
}

void read_section(const PmemFile& file, const StoreLayout& layout, uint64_t index, const SectionEntry& entry,
                  uint64_t next_key, std::vector<WeightedEdge>& out) {
  if (entry.page == 0) return;
  const std::span<const std::byte> page(file.at<const std::byte>(layout.page_offset(entry.page)), kStorePageBytes);
  if (crc32c_of(page) != entry.crc)
    fail("{}: corrupt store: page {} (section {}) does not match its checksum", file.path(), entry.page, index);
  const bool weighted = layout.geometry.weighted;
  PackedPageProblem problem;
  std::vector<std::byte> records;
  if (decode_packed_pages(page, weighted, records, &problem) < 0)
    fail("{}: corrupt store: page {} (section {}): {}", file.path(), entry.page, index, problem.what);
  const uint64_t edges = records.size() / edge_bytes(weighted);
  const size_t at = out.size();
  out.resize(at + edges);
  for (uint64_t k = 0; k < edges; ++k) {
    WeightedEdge& e = out[at + k];
    if (weighted) {
      std::memcpy(&e, records.data() + k * sizeof(WeightedEdge), sizeof(WeightedEdge));
    } else {
      Edge plain;
      std::memcpy(&plain, records.data() + k * sizeof(Edge), sizeof(Edge));
      e = {plain.src, plain.dst, 1};
    }
    const uint64_t key = edge_key(e.src, e.dst);
    if (key < entry.key || key >= next_key || e.src >= layout.geometry.vertices || e.dst >= layout.geometry.vertices)
      fail("{}: corrupt store: page {} (section {}) holds edge {} -> {}, outside the section", file.path(), entry.page,
           index, e.src, e.dst);
  }
}

void apply_ops(std::vector<WeightedEdge>& edges, std::span<const SectionOp> ops) {
  if (ops.empty()) return;
  auto key_less = [](const WeightedEdge& a, const WeightedEdge& b) { return edge_key(a.src, a.dst) < edge_key(b.src, b.dst); };
  std::vector<bool> dead(edges.size(), false);
  std::vector<WeightedEdge> added;  // log order
  std::vector<bool> added_dead;
  for (const SectionOp& op : ops) {
    if (!op.deleted) {
      added.push_back({op.src, op.dst, op.weight});
      added_dead.push_back(false);
      continue;
    }
    // The earliest live occurrence: the section's own edges are older than any added since.
    const WeightedEdge probe{op.src, op.dst, 0};
    bool done = false;
    for (auto it = std::lower_bound(edges.begin(), edges.end(), probe, key_less);
         it != edges.end() && it->src == op.src && it->dst == op.dst; ++it)
      if (!dead[it - edges.begin()]) {
        dead[it - edges.begin()] = done = true;
        break;
      }
    for (size_t k = 0; k < added.size() && !done; ++k)
      if (!added_dead[k] && added[k].src == op.src && added[k].dst == op.dst) added_dead[k] = done = true;
  }
  std::vector<WeightedEdge> fresh;
  fresh.reserve(added.size());
  for (size_t k = 0; k < added.size(); ++k)
    if (!added_dead[k]) fresh.push_back(added[k]);
  std::stable_sort(fresh.begin(), fresh.end(), key_less);
  std::vector<WeightedEdge> merged;
  merged.reserve(edges.size() + fresh.size());
  size_t f = 0;
  for (size_t k = 0; k < edges.size(); ++k) {
    if (dead[k]) continue;
    // Older first among equals: an added edge goes after the section's own equal edges.
    while (f < fresh.size() && key_less(fresh[f], edges[k])) merged.push_back(fresh[f++]);
    merged.push_back(edges[k]);
  }
  while (f < fresh.size()) merged.push_back(fresh[f++]);
  edges = std::move(merged);
}

namespace {

// The edges of one page, encoded (they must fit).
std::vector<std::byte> encode_page(std::span<const WeightedEdge> edges, bool weighted) {
  std::vector<std::byte> out;
  PackedPageWriter writer(weighted, out);
  for (const WeightedEdge& e : edges) writer.add(e);
  writer.finish();
  return out;
}

}  // namespace

std::vector<EncodedSection> encode_section(std::span<const WeightedEdge> edges, bool weighted, uint64_t key) {
  if (edges.empty()) return {EncodedSection{key, 0, {}}};
  {
    // Most merges still fit their page: one encode.
    std::vector<std::byte> out;
    PackedPageWriter writer(weighted, out);
    for (const WeightedEdge& e : edges) writer.add(e);
    writer.finish();
    if (writer.pages() == 1) return {EncodedSection{key, static_cast<uint32_t>(edges.size()), std::move(out)}};
  }
  // How many pages a writer filling them to kSectionFillBytes needs, and where it starts each.
  std::vector<size_t> starts{0};
  {
    std::vector<std::byte> scratch;
    PackedPageWriter writer(weighted, scratch, kSectionFillBytes);
    for (size_t i = 0; i < edges.size(); ++i) {
      const uint64_t before = writer.pages();
      writer.add(edges[i]);
      if (writer.pages() > before) starts.push_back(i);
    }
  }
  // That many parts, cut at equal shares of the edges. A filled writer's last page takes only what
  // is left over (a few edges when a full page splits), and every pass over the store reads each
  // page whole (the engine reads sections in place). A share that does not fit one page (its
  // edges take more bytes than the others') falls back to the writer's cuts.
  auto same = [&](size_t i) { return edges[i].src == edges[i - 1].src && edges[i].dst == edges[i - 1].dst; };
  auto cut_at = [&](const std::vector<size_t>& at) {
    // Each cut moves back to where its edge's run of equals begins (forward past it when the run
    // began before the previous cut: equals that alone fill a page).
    std::vector<size_t> cuts{0};
    for (size_t k = 1; k < at.size(); ++k) {
      size_t cut = at[k];
      while (cut > cuts.back() && same(cut)) --cut;
      if (cut == cuts.back()) {
        cut = at[k];
        while (cut < edges.size() && same(cut)) ++cut;
      }
      if (cut > cuts.back() && cut < edges.size()) cuts.push_back(cut);
    }
    return cuts;
  };
  // Each part's pages; a part longer than a page holds equal edges only, and each of its pages
  // is a section of its own.
  auto encode_parts = [&](const std::vector<size_t>& cuts, bool one_page_each) {
    std::vector<EncodedSection> parts;
    for (size_t k = 0; k < cuts.size(); ++k) {
      const size_t end = k + 1 < cuts.size() ? cuts[k + 1] : edges.size();
      std::span<const WeightedEdge> part = edges.subspan(cuts[k], end - cuts[k]);
      std::vector<std::byte> pages = encode_page(part, weighted);
      if (one_page_each && pages.size() > kStorePageBytes) return std::vector<EncodedSection>{};
      size_t first = 0;
      for (uint64_t p = 0; p * kStorePageBytes < pages.size(); ++p) {
        EncodedSection s;
        s.edges = packed_page_edges(pages.data() + p * kStorePageBytes);
        s.key = parts.empty() ? key : edge_key(part[first].src, part[first].dst);
        s.page.assign(pages.begin() + static_cast<std::ptrdiff_t>(p * kStorePageBytes),
                      pages.begin() + static_cast<std::ptrdiff_t>((p + 1) * kStorePageBytes));
        first += s.edges;
        parts.push_back(std::move(s));
      }
    }
    return parts;
  };
  std::vector<size_t> shares{0};
  for (size_t k = 1; k < starts.size(); ++k) shares.push_back(edges.size() * k / starts.size());
  std::vector<EncodedSection> parts = encode_parts(cut_at(shares), true);
  if (parts.empty()) parts = encode_parts(cut_at(starts), false);
  return parts;
}

}  // namespace graphso::store
