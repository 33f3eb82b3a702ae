#include "integrations/store_graph.h"

#include <omp.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>

#include <boost/sort/spreadsort/integer_sort.hpp>

#include "base/checksum.h"
#include "base/error.h"
#include "base/file.h"
#include "base/packed_pages.h"
#include "base/ranges_in_order.h"
#include "io/page_sums.h"
#include "store/store_format.h"

namespace graphso {

namespace {

// A page of the run's layout: where it is, and its outline (what the TChunk table is cut from).
struct PageRef {
  uint32_t file = 0;  // 0: the store, 1: the scratch file
  uint64_t offset = 0;
  PackedPageOutline outline;
  bool starts_partition = false;  // its sources start again (the logged insertions after the pages)
  uint64_t views = 1;             // the versions it is part of, a bit each
  uint32_t layer = 0;             // EngineLayout::partition_layer
};

constexpr uint32_t kStoreFile = 0, kScratchFile = 1;

// The scratch file's pages, appended in order, with their page sums.
class ScratchPages {
 public:
  explicit ScratchPages(const std::string& path) : file_(path, File::Mode::Write) {}
  // Appends whole packed pages; returns the offset of the first.
  uint64_t append(std::span<const std::byte> pages) {
    const uint64_t at = size_;
    file_.pwrite_all(pages, at);
    sums_->record(at, pages);
    size_ += pages.size();
    return at;
  }
  const std::string& path() const { return file_.path(); }
  std::shared_ptr<const PageSums> sums() const { return sums_; }

 private:
  File file_;
  uint64_t size_ = 0;
  std::shared_ptr<PageSums> sums_ = std::make_shared<PageSums>();
};

// A packed page of the store or the scratch file decoded into `into`, its structure and its
// sources checked: a page that breaks either is an error named by what(), as "page P (section K)".
template <typename What>
void decode_checked(const std::string& path, const std::byte* page, bool weighted, uint64_t vertices,
                    DecodedGroups& into, What&& what) {
  PackedPageProblem problem;
  if (decode_packed_groups({page, kPackedPageBytes}, weighted, into, &problem) < 0)
    fail("{}: corrupt store: {}: {}", path, what(), problem.what);
  for (uint64_t k = 0; k < into.groups; ++k)
    if (into.sources[k] >= vertices) fail("{}: corrupt store: {} names vertex {}", path, what(), into.sources[k]);
}

// The run's pages as they are laid out, each once: where it lies, its outline, the versions it is
// part of and its layer (EngineLayout::partition_layer); and the out-degrees they give the layout,
// each layer and each version.
class LayoutPages {
 public:
  LayoutPages(std::string path, uint64_t vertices, bool weighted, uint32_t versions, ScratchPages& scratch)
      : path_(std::move(path)), vertices_(vertices), weighted_(weighted), scratch_(scratch) {
    degrees.assign(vertices, 0);
    if (versions > 1) version_degrees.assign(versions, std::vector<uint32_t>(vertices, 0));
  }
  ScratchPages& scratch() { return scratch_; }
  // A layer's degrees, made when first asked for (so before threads count into it).
  std::vector<uint32_t>& layer(uint32_t layer) {
    if (layers.size() <= layer) layers.resize(layer + 1);
    if (!layers[layer]) layers[layer] = std::make_unique<std::vector<uint32_t>>(vertices_, 0);
    return *layers[layer];
  }
  // `edges` of src's in a page of these versions and this layer. Threads may count different
  // sources at once into a layer already made.
  void count(VertexId src, uint32_t edges, uint64_t views, uint32_t layer_index) {
    degrees[src] += edges;
    layer(layer_index)[src] += edges;
    for (uint32_t j = 0; j < version_degrees.size(); ++j)
      if (views >> j & 1) version_degrees[j][src] += edges;
  }
  void add_outlined(uint32_t file, uint64_t offset, const PackedPageOutline& outline, uint64_t views, uint32_t layer,
                    bool starts_partition = false) {
    pages.push_back({file, offset, outline, starts_partition, views, layer});
  }
  // A page decoded for its sources' out-degrees and its outline.
  void add_decoded(uint32_t file, uint64_t offset, const std::byte* page, const std::string& what, uint64_t views,
                   uint32_t layer, bool starts_partition = false) {
    decode_checked(path_, page, weighted_, vertices_, decoded_, [&] { return what; });
    for (uint64_t k = 0; k < decoded_.groups; ++k)
      count(decoded_.sources[k], decoded_.offsets[k + 1] - decoded_.offsets[k], views, layer);
    add_outlined(file, offset, outline_of(decoded_), views, layer, starts_partition);
  }
  // Edges in key order, encoded into the scratch file as pages of these versions and this layer;
  // returns how many pages.
  uint64_t write(std::span<const WeightedEdge> edges, uint64_t views, uint32_t layer, bool starts_partition = false) {
    std::vector<std::byte> encoded;
    PackedPageWriter writer(weighted_, encoded);
    for (const WeightedEdge& e : edges) writer.add(e);
    writer.finish();
    const uint64_t at = scratch_.append(encoded);
    for (uint64_t p = 0; p * kPackedPageBytes < encoded.size(); ++p)
      add_decoded(kScratchFile, at + p * kPackedPageBytes, encoded.data() + p * kPackedPageBytes, "a rewritten page",
                  views, layer, starts_partition && p == 0);
    return encoded.size() / kPackedPageBytes;
  }

  std::vector<PageRef> pages;
  std::vector<uint32_t> degrees;                             // over every page: the layout's
  std::vector<std::vector<uint32_t>> version_degrees;        // per version, when there are several
  std::vector<std::unique_ptr<std::vector<uint32_t>>> layers;  // per layer (null: none of its pages)

 private:
  std::string path_;
  uint64_t vertices_;
  bool weighted_;
  ScratchPages& scratch_;
  DecodedGroups decoded_;
};

// Versions [a, b) as a set of bits.
uint64_t versions_from(uint32_t a, uint32_t b) {
  return (b >= 64 ? ~uint64_t{0} : (uint64_t{1} << b) - 1) & ~((uint64_t{1} << a) - 1);
}

// A mode that keeps sorted packed pages (layers: 0..m-1 pages as the versions from that one on
// have them, layer 0 the pages in place; m..2m-1 the insertions logged after the checkpoint, by
// the first version that sees them). A page is read in place for the versions before its first
// logged deletion, with the insertions logged into it before each of those versions laid out
// apart; for the later versions it is laid out again with its logged operations applied, once
// for the versions that see the same operations. The insertions go after every page, in key
// order, as partitions of their own per first version that sees them: a run's open writes what
// the log added, not every page the log touched (an ingest leaves its tail on most pages), and
// versions that differ by insertions share every page.
void lay_out_in_place(const store::StoreView& view, std::span<const store::ViewPage> in_place,
                      std::span<const uint64_t> versions, int threads, LayoutPages& out, PageSums& store_sums,
                      StoreRunInfo& info) {
  const auto m = static_cast<uint32_t>(versions.size());
  // The versions before each section's first logged deletion read its page in place.
  std::vector<uint32_t> before_deletions(in_place.size());
  for (uint64_t k = 0; k < in_place.size(); ++k)
    before_deletions[k] = static_cast<uint32_t>(
        std::upper_bound(versions.begin(), versions.end(), in_place[k].first_deletion) - versions.begin());
  // The pages read in place, each checked against its checksum now (and at every read) and
  // decoded for its outline and its sources' out-degrees: on `threads` threads over ranges of
  // sections (one thread had been most of a checkpointed store's open). Sources never decrease
  // from one section to the next, so a range shares at most its first source with the ranges
  // before it: that source's counts are added after the threads, every other one by its range.
  struct Deferred {
    VertexId src;
    uint32_t edges;
    uint64_t views;
  };
  out.layer(0);  // made before the threads count into it
  std::vector<PackedPageOutline> outlines(in_place.size());
  const uint64_t ranges = std::min<uint64_t>(in_place.size(), uint64_t{64} * static_cast<uint64_t>(threads));
  std::vector<std::vector<Deferred>> deferred(ranges);
  std::vector<DecodedGroups> decoded(static_cast<size_t>(threads));
  for_ranges_in_order(ranges, threads, [&](uint64_t r) {
    DecodedGroups& groups = decoded[static_cast<size_t>(omp_get_thread_num())];
    bool any = false;
    VertexId first_src = 0;
    for (uint64_t k = in_place.size() * r / ranges; k < in_place.size() * (r + 1) / ranges; ++k) {
      const store::ViewPage& s = in_place[k];
      if (before_deletions[k] == 0 || s.page == 0) continue;
      const std::byte* page = view.file().at<const std::byte>(s.offset);
      if (crc32c_of({page, store::kStorePageBytes}) != s.crc)
        fail("{}: corrupt store: page {} (section {}) does not match its checksum", view.path(), s.page, k);
      decode_checked(view.path(), page, view.weighted(), view.vertices(), groups,
                     [&] { return fmt::format("page {} (section {})", s.page, k); });
      const uint64_t views = versions_from(0, before_deletions[k]);
      for (uint64_t g = 0; g < groups.groups; ++g) {
        const VertexId src = groups.sources[g];
        const uint32_t edges = groups.offsets[g + 1] - groups.offsets[g];
        if (!any) {
          any = true;
          first_src = src;
        }
        if (src == first_src) deferred[r].push_back({src, edges, views});
        else out.count(src, edges, views, 0);
      }
      outlines[k] = outline_of(groups);
    }
  });
  for (const std::vector<Deferred>& range : deferred)
    for (const Deferred& d : range) out.count(d.src, d.edges, d.views, 0);
  std::vector<WeightedEdge> edges;
  std::vector<std::vector<WeightedEdge>> inserted(m);             // per first version that sees them
  // Room for every logged operation among the first version's insertions (most of a tail is
  // insertions seen by every version): grown by doubling, 4.2 M were copied and faulted in twice.
  if (m > 0) inserted[0].reserve(view.version() - view.checkpoint().flushed);
  std::vector<std::vector<std::pair<size_t, uint64_t>>> runs(m);  // where their version sets change
  for (uint64_t k = 0; k < in_place.size(); ++k) {
    const store::ViewPage& s = in_place[k];
    const uint32_t before_deletion = before_deletions[k];
    if (before_deletion > 0 && s.page != 0) {
      store_sums.expect(s.offset, s.crc);
      out.add_outlined(kStoreFile, s.offset, outlines[k], versions_from(0, before_deletion), 0);
      ++info.pages_in_place;
    }
    for (uint32_t j = before_deletion; j < m;) {
      const uint64_t logged = view.page_logged_before(k, versions[j]);
      uint32_t b = j + 1;
      while (b < m && view.page_logged_before(k, versions[b]) == logged) ++b;
      edges.clear();
      view.page_edges(k, edges, versions[j]);
      info.pages_rewritten += out.write(edges, versions_from(j, b), j);
      j = b;
    }
    if (s.logged == 0) continue;
    for (uint32_t first = 0; first < before_deletion; ++first) {
      const size_t before = inserted[first].size();
      view.page_insertions(k, inserted[first], first == 0 ? 0 : versions[first - 1], versions[first]);
      const uint64_t seen_by = versions_from(first, before_deletion);
      if (inserted[first].size() > before && (runs[first].empty() || runs[first].back().second != seen_by))
        runs[first].push_back({before, seen_by});
    }
  }
  for (uint32_t first = 0; first < m; ++first) {
    info.edges_inserted_apart += inserted[first].size();
    for (size_t r = 0; r < runs[first].size(); ++r) {
      const size_t from = runs[first][r].first;
      const size_t to = r + 1 < runs[first].size() ? runs[first][r + 1].first : inserted[first].size();
      info.insertion_pages += out.write(std::span<const WeightedEdge>(inserted[first]).subspan(from, to - from),
                                        runs[first][r].second, m + first, true);
    }
  }
}

// The other modes (chains, lists and trees are no sorted pages): each version's every source's
// edges through a view at that version (`current` when it is that one), a layer of its own, laid
// out by `threads` threads over ranges of sources (each range read, sorted and encoded by one
// thread; the view is read concurrently), the ranges' pages appended in source order as they
// come: a range finished early waits in memory for the ones before it, and its thread goes on to
// the next.
void lay_out_through_views(const store::StoreView& current, std::span<const uint64_t> versions, int threads,
                           LayoutPages& out, StoreRunInfo& info) {
  const uint64_t vertices = current.vertices();
  const bool weighted = current.weighted();
  for (uint32_t j = 0; j < versions.size(); ++j) {
    std::unique_ptr<store::StoreView> other;
    if (versions[j] != current.version()) other = store::StoreView::open(current.path(), versions[j]);
    const store::StoreView& view = other ? *other : current;
    out.layer(j);  // made before the threads count into it
    const uint64_t ranges = std::min<uint64_t>(vertices, uint64_t{64} * static_cast<uint64_t>(threads));
    std::vector<std::vector<std::byte>> encoded(ranges);
    std::vector<std::vector<PackedPageOutline>> outlines(ranges);  // per range, its pages'
    std::vector<bool> ready(ranges, false);
    uint64_t next = 0;  // the first range not yet appended
    std::mutex appending;
    std::vector<double> traversal(static_cast<size_t>(threads), 0.0);
    std::vector<store::ReadCounts> counts(static_cast<size_t>(threads));
    // Each thread's edges, kept across its ranges: a fresh vector per range faulted in zeroed
    // pages for every edge (a fifth of the open's time on R-MAT 20).
    std::vector<std::vector<WeightedEdge>> edges_of(static_cast<size_t>(threads));
    std::vector<std::vector<uint64_t>> keys_of(static_cast<size_t>(threads));
    // Ranges' page buffers, back from the scratch file for the next range (under `appending`):
    // fresh ones faulted in zeroed pages for every page written.
    std::vector<std::vector<std::byte>> spare_pages;
    // An error is the first in source order, as one thread would meet it.
    for_ranges_in_order(ranges, threads, [&](uint64_t r) {
      const int t = omp_get_thread_num();
      const auto begin = static_cast<VertexId>(vertices * r / ranges);
      const auto end = static_cast<VertexId>(vertices * (r + 1) / ranges);
      std::vector<WeightedEdge>& edges = edges_of[static_cast<size_t>(t)];
      edges.clear();
      double in_sink = 0;
      const auto read_start = std::chrono::steady_clock::now();
      const store::ReadCounts c = view.out_edges(begin, end, [&](std::span<const WeightedEdge> piece) {
        const auto sink_start = std::chrono::steady_clock::now();
        edges.insert(edges.end(), piece.begin(), piece.end());
        in_sink += std::chrono::duration<double>(std::chrono::steady_clock::now() - sink_start).count();
      });
      traversal[t] += std::chrono::duration<double>(std::chrono::steady_clock::now() - read_start).count() - in_sink;
      counts[t].blocks += c.blocks;
      counts[t].pages += c.pages;
      // Sources come in increasing order, each one's destinations as its list holds them: each
      // source's run sorted on its own (most are already, or short), as (destination, weight)
      // keys of 8 bytes rather than 12-byte edges, and counted for its degree. (The whole range
      // sorted at once, by one spreadsort of (source, destination) keys, took 1.05-1.10x as long.)
      std::vector<uint64_t>& keys = keys_of[static_cast<size_t>(t)];
      for (size_t first = 0; first < edges.size();) {
        size_t last = first + 1;
        while (last < edges.size() && edges[last].src == edges[first].src) ++last;
        auto by_destination = [](const WeightedEdge& x, const WeightedEdge& y) { return x.dst < y.dst; };
        const auto from = edges.begin() + static_cast<long>(first), to = edges.begin() + static_cast<long>(last);
        if (!std::is_sorted(from, to, by_destination)) {
          keys.clear();
          for (auto e = from; e != to; ++e) keys.push_back(uint64_t{e->dst} << 32 | e->weight);
          boost::sort::spreadsort::integer_sort(keys.begin(), keys.end());
          for (size_t k = 0; k < keys.size(); ++k)
            edges[first + k] = {edges[first].src, static_cast<VertexId>(keys[k] >> 32), static_cast<Weight>(keys[k])};
        }
        if (edges[first].src < begin || edges[first].src >= end)
          fail("{}: corrupt store: the out-lists of vertices {}..{} name source {}", view.path(), begin, end - 1, edges[first].src);
        out.count(edges[first].src, static_cast<uint32_t>(last - first), uint64_t{1} << j, j);  // its sources are this range's alone
        first = last;
      }
      // Room up front for about the most the edges can take (a destination of 4 bytes and its
      // control bits, a weight of 4, a group's share): grown page by page, the buffer was copied
      // again at every doubling. Reserved pages that are never written are never touched.
      std::vector<std::byte> pages_of_range;
      {
        std::lock_guard<std::mutex> lock(appending);
        if (!spare_pages.empty()) {
          pages_of_range = std::move(spare_pages.back());
          spare_pages.pop_back();
        }
      }
      const uint64_t worst = edges.size() * (weighted ? 11 : 7);
      pages_of_range.reserve((worst / (kPackedPageBytes - sizeof(PackedPageHeader)) + 2) * kPackedPageBytes);
      PackedPageWriter writer(weighted, pages_of_range);
      for (const WeightedEdge& e : edges) writer.add(e);
      writer.finish();
      // Each page's outline, from the edges it holds (the writer fills pages in edge order).
      std::vector<PackedPageOutline> outlines_of_range;
      for (uint64_t p = 0, first = 0; p * kPackedPageBytes < pages_of_range.size(); ++p) {
        const uint32_t held = packed_page_header(pages_of_range.data() + p * kPackedPageBytes).edges;
        outlines_of_range.push_back(outline_of(std::span<const WeightedEdge>(edges).subspan(first, held)));
        first += held;
      }
      // Append every range that is ready, in order.
      std::lock_guard<std::mutex> lock(appending);
      encoded[r] = std::move(pages_of_range);
      outlines[r] = std::move(outlines_of_range);
      ready[r] = true;
      for (; next < ranges && ready[next]; ++next) {
        const std::vector<std::byte>& bytes = encoded[next];
        const uint64_t at = out.scratch().append(bytes);
        for (uint64_t p = 0; p * kPackedPageBytes < bytes.size(); ++p)
          out.add_outlined(kScratchFile, at + p * kPackedPageBytes, outlines[next][p], uint64_t{1} << j, j);
        info.pages_rewritten += bytes.size() / kPackedPageBytes;
        spare_pages.push_back(std::move(encoded[next]));
        spare_pages.back().clear();
        encoded[next] = {};
        outlines[next] = {};
      }
    });
    for (int t = 0; t < threads; ++t) {
      info.traversal_seconds += traversal[static_cast<size_t>(t)];
      info.lists_read += counts[static_cast<size_t>(t)].blocks;
      info.store_pages_read += counts[static_cast<size_t>(t)].pages;
    }
  }
}

}  // namespace

bool StoreGraph::replaced() const {
  struct stat st {};
  if (::stat(info_.path.c_str(), &st) != 0) return true;
  return store::FileIdentity{static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)} !=
         view_->file().identity();
}

bool StoreGraph::is_store(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  File file(path, File::Mode::Read);
  if (file.size() < sizeof(store::kStoreFormat.magic)) return false;
  char magic[8];
  file.pread_exact(std::as_writable_bytes(std::span(magic)), 0);
  return std::memcmp(magic, store::kStoreFormat.magic, sizeof magic) == 0;
}

std::unique_ptr<StoreGraph> StoreGraph::open(const std::string& path, const std::string& scratch_parent,
                                             ReaderFactory& readers, int threads, std::vector<uint64_t> pinned,
                                             bool current) {
  threads = threads > 0 ? threads : omp_get_max_threads();
  const auto started = std::chrono::steady_clock::now();
  std::unique_ptr<StoreGraph> g(new StoreGraph());
  g->view_ = store::StoreView::open(path);
  const store::StoreView& view = *g->view_;
  const bool weighted = view.weighted();
  const uint64_t vertices = view.vertices();
  // The run's graphs: the versions its jobs pin, and the current one for the others.
  std::vector<uint64_t>& versions = g->versions_;
  versions = std::move(pinned);
  if (current || versions.empty()) versions.push_back(view.version());
  std::sort(versions.begin(), versions.end());
  versions.erase(std::unique(versions.begin(), versions.end()), versions.end());
  if (versions.size() > kMostVersions)
    fail("{}: the jobs pin {} versions; one run takes at most {}", path, versions.size(), kMostVersions);
  for (uint64_t v : versions) view.require_kept(v);
  const auto m = static_cast<uint32_t>(versions.size());
  g->scratch_.emplace(scratch_parent.empty() ? default_scratch_parent() : scratch_parent);
  ScratchPages scratch(g->scratch_->path() + "/store.pages");
  auto store_sums = std::make_shared<PageSums>();
  LayoutPages out(path, vertices, weighted, m, scratch);
  if (const std::optional<std::vector<store::ViewPage>> in_place = view.pages_in_place())
    lay_out_in_place(view, *in_place, versions, threads, out, *store_sums, g->info_);
  else
    lay_out_through_views(view, versions, threads, out, g->info_);
  const std::vector<PageRef>& pages = out.pages;

  if (pages.empty())
    fail("{}: the store holds no edges at log position {}: there is nothing to run on yet", path, view.version());
  // Static partitions: runs of pages that follow each other in one file, of one layer and one set
  // of versions.
  EngineLayout& layout = g->layout_;
  // Every page's outline, in the partitions' order: the TChunk table is cut from them, and no
  // page is read again before the rounds read it.
  layout.page_outlines.reserve(pages.size());
  for (const PageRef& p : pages) {
    const PackedPageOutline& o = p.outline;
    g->info_.edges += o.edges;
    layout.page_outlines.push_back(o);
    if (!layout.partitions.empty() && !p.starts_partition && layout.partition_layer.back() == p.layer &&
        layout.partition_views.back() == p.views) {
      StaticPartition& last = layout.partitions.back();
      if (last.file == p.file && last.offset + last.packed_bytes == p.offset) {
        last.edges += o.edges;
        last.src_end = o.last_src + 1;
        last.packed_bytes += kPackedPageBytes;
        continue;
      }
    }
    layout.partitions.push_back({p.file, p.offset, o.edges, o.first_src, o.last_src + 1, 0,
                                 static_cast<VertexId>(vertices), kPackedPageBytes});
    layout.partition_layer.push_back(p.layer);
    layout.partition_views.push_back(p.views);
  }
  // One layer: the layout's out-degrees are its; one version: every partition is in it.
  if (out.layers.size() > 1) {
    g->layer_degrees_ = std::move(out.layers);
    for (const auto& d : g->layer_degrees_) layout.layer_degrees.push_back(d.get());  // null: a layer without pages
  } else {
    layout.partition_layer.clear();
  }
  if (m == 1) layout.partition_views.clear();
  GridMeta meta;
  meta.vertices = vertices;
  meta.edges = g->info_.edges;
  meta.weighted = weighted;
  meta.real_weights = view.real_weights();
  meta.encoding = EdgeEncoding::Packed;
  meta.partitions = default_partitions(vertices);
  meta.range_size = align_up((vertices + meta.partitions - 1) / meta.partitions, 64);
  g->graph_.emplace(GridGraph::in_memory(path, std::move(meta), std::move(out.degrees)));
  g->version_degrees_ = std::move(out.version_degrees);
  for (const std::vector<uint32_t>& d : g->version_degrees_) {
    uint64_t edges = 0;
    for (uint32_t x : d) edges += x;
    g->version_edges_.push_back(edges);
  }
  if (m == 1) g->version_edges_ = {g->info_.edges};

  // layout.name is the engine's: make_engine names the layout it runs (engine/engine.h).
  layout.dir = g->scratch_->path();  // where the chunk middleware keeps its TChunk table
  layout.files = {path, scratch.path()};
  layout.vertices = vertices;
  layout.edges = g->info_.edges;
  layout.weighted = weighted;
  layout.encoding = EdgeEncoding::Packed;
  layout.out_degrees = &g->graph_->out_degrees();
  std::vector<uint64_t> identity = {view.header().store_id};
  identity.insert(identity.end(), versions.begin(), versions.end());
  layout.identity = crc32_of(std::as_bytes(std::span(identity)));
  layout.page_sums = {store_sums, scratch.sums()};
  for (uint32_t f = 0; f < layout.files.size(); ++f) readers.use_page_sums(layout.files[f], layout.page_sums[f]);

  g->info_.path = path;
  g->info_.mode = store::store_mode_name(view.header().mode);
  g->info_.version = view.version();
  g->info_.versions = versions;
  g->info_.checkpoint_seq = view.checkpoint().seq;
  g->info_.open_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return g;
}

uint32_t StoreGraph::view_of(uint64_t version) const {
  const auto it = std::lower_bound(versions_.begin(), versions_.end(), version);
  if (it == versions_.end() || *it != version) fail("internal: version {} is not one of the run's", version);
  return static_cast<uint32_t>(it - versions_.begin());
}

void StoreGraph::give_versions(std::span<const JobSpec> specs, BatchConfig& config) const {
  for (const JobSpec& spec : specs) config.job_views.push_back(view_of(spec.version ? *spec.version : info_.version));
  for (uint32_t v = 0; v < versions_.size(); ++v) config.views.push_back({&out_degrees(v), edges(v), versions_[v]});
}

const std::vector<uint32_t>& StoreGraph::out_degrees(uint32_t view) const {
  return version_degrees_.empty() ? graph_->out_degrees() : version_degrees_.at(view);
}

ReferenceGraph StoreGraph::reference(uint32_t view) const {
  // Through the store's view at that version, not through the layout.
  std::unique_ptr<store::StoreView> other;
  if (versions_.at(view) != view_->version()) other = store::StoreView::open(view_->path(), versions_[view]);
  const store::StoreView& at = other ? *other : *view_;
  std::vector<WeightedEdge> edges;
  at.out_edges(0, static_cast<VertexId>(at.vertices()),
               [&](std::span<const WeightedEdge> piece) { edges.insert(edges.end(), piece.begin(), piece.end()); });
  return make_reference_graph(at.vertices(), std::move(edges), at.real_weights());
}

}  // namespace graphso
