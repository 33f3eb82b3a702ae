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
                                             ReaderFactory& readers, int threads) {
  threads = threads > 0 ? threads : omp_get_max_threads();
  const auto started = std::chrono::steady_clock::now();
  std::unique_ptr<StoreGraph> g(new StoreGraph());
  g->view_ = store::StoreView::open(path);
  const store::StoreView& view = *g->view_;
  const bool weighted = view.weighted();
  const uint64_t vertices = view.vertices();
  g->scratch_.emplace(scratch_parent.empty() ? default_scratch_parent() : scratch_parent);
  ScratchPages scratch(g->scratch_->path() + "/store.pages");
  auto store_sums = std::make_shared<PageSums>();

  std::vector<PageRef> pages;
  std::vector<uint32_t> degrees(vertices, 0);
  DecodedGroups decoded;
  // A page of the layout: its sources and their out-degrees from its groups.
  auto add_page = [&](uint32_t file, uint64_t offset, const std::byte* page, const std::string& what) {
    PackedPageProblem problem;
    if (decode_packed_groups({page, kPackedPageBytes}, weighted, decoded, &problem) < 0)
      fail("{}: corrupt store: {}: {}", path, what, problem.what);
    for (uint64_t k = 0; k < decoded.groups; ++k) {
      if (decoded.sources[k] >= vertices) fail("{}: corrupt store: {} names vertex {}", path, what, decoded.sources[k]);
      degrees[decoded.sources[k]] += decoded.offsets[k + 1] - decoded.offsets[k];
    }
    pages.push_back({file, offset, outline_of(decoded)});
  };
  // Edges in key order, encoded into the scratch file.
  auto rewrite = [&](std::span<const WeightedEdge> edges) {
    std::vector<std::byte> encoded;
    PackedPageWriter writer(weighted, encoded);
    for (const WeightedEdge& e : edges) writer.add(e);
    writer.finish();
    const uint64_t at = scratch.append(encoded);
    for (uint64_t p = 0; p * kPackedPageBytes < encoded.size(); ++p)
      add_page(kScratchFile, at + p * kPackedPageBytes, encoded.data() + p * kPackedPageBytes, "a rewritten page");
    g->info_.pages_rewritten += encoded.size() / kPackedPageBytes;
  };

  if (const std::optional<std::vector<store::ViewPage>> in_place = view.pages_in_place()) {
    // A mode that keeps sorted packed pages: each unchanged page read in place, the others laid
    // out again with their logged operations applied.
    std::vector<WeightedEdge> edges;
    for (uint64_t k = 0; k < in_place->size(); ++k) {
      const store::ViewPage& s = (*in_place)[k];
      if (s.logged > 0) {
        edges.clear();
        view.page_edges(k, edges);
        rewrite(edges);
      } else if (s.page != 0) {
        // In place: checked now (the out-degrees are read from it) and at every read.
        const std::byte* page = view.file().at<const std::byte>(s.offset);
        if (crc32c_of({page, store::kStorePageBytes}) != s.crc)
          fail("{}: corrupt store: page {} (section {}) does not match its checksum", path, s.page, k);
        store_sums->expect(s.offset, s.crc);
        add_page(kStoreFile, s.offset, page, fmt::format("page {} (section {})", s.page, k));
        ++g->info_.pages_in_place;
      }
    }
  } else {
    // The other modes: every source's edges through the view, laid out by `threads` threads over
    // ranges of sources (each range read, sorted and encoded by one thread; the view is read
    // concurrently), the ranges' pages appended in source order as they come: a range finished
    // early waits in memory for the ones before it, and its thread goes on to the next.
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
      // keys of 8 bytes rather than 12-byte edges, and counted for its degree.
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
          fail("{}: corrupt store: the out-lists of vertices {}..{} name source {}", path, begin, end - 1, edges[first].src);
        degrees[edges[first].src] += static_cast<uint32_t>(last - first);
        first = last;
      }
      // Room up front for about the most the edges can take (a destination of 4 bytes and its
      // control bits, a weight of 4, a group's share): grown page by page, the buffer was copied
      // again at every doubling. Reserved pages that are never written are never touched.
      std::vector<std::byte> pages_of_range;
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
        const uint64_t at = scratch.append(bytes);
        for (uint64_t p = 0; p * kPackedPageBytes < bytes.size(); ++p)
          pages.push_back({kScratchFile, at + p * kPackedPageBytes, outlines[next][p]});
        g->info_.pages_rewritten += bytes.size() / kPackedPageBytes;
        encoded[next] = {};
        outlines[next] = {};
      }
    });
    for (int t = 0; t < threads; ++t) {
      g->info_.traversal_seconds += traversal[static_cast<size_t>(t)];
      g->info_.lists_read += counts[static_cast<size_t>(t)].blocks;
      g->info_.store_pages_read += counts[static_cast<size_t>(t)].pages;
    }
  }

  if (pages.empty())
    fail("{}: the store holds no edges at log position {}: there is nothing to run on yet", path, view.version());
  // Static partitions: runs of pages that follow each other in one file.
  EngineLayout& layout = g->layout_;
  // Every page's outline, in the partitions' order: the TChunk table is cut from them, and no
  // page is read again before the rounds read it.
  layout.page_outlines.reserve(pages.size());
  for (const PageRef& p : pages) {
    const PackedPageOutline& o = p.outline;
    g->info_.edges += o.edges;
    layout.page_outlines.push_back(o);
    if (!layout.partitions.empty()) {
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
  }
  GridMeta meta;
  meta.vertices = vertices;
  meta.edges = g->info_.edges;
  meta.weighted = weighted;
  meta.real_weights = view.real_weights();
  meta.encoding = EdgeEncoding::Packed;
  meta.partitions = default_partitions(vertices);
  meta.range_size = align_up((vertices + meta.partitions - 1) / meta.partitions, 64);
  g->graph_.emplace(GridGraph::in_memory(path, std::move(meta), std::move(degrees)));

  // layout.name is the engine's: make_engine names the layout it runs (engine/engine.h).
  layout.dir = g->scratch_->path();  // where the chunk middleware keeps its TChunk table
  layout.files = {path, scratch.path()};
  layout.vertices = vertices;
  layout.edges = g->info_.edges;
  layout.weighted = weighted;
  layout.encoding = EdgeEncoding::Packed;
  layout.out_degrees = &g->graph_->out_degrees();
  const uint64_t identity[2] = {view.header().store_id, view.version()};
  layout.identity = crc32_of(std::as_bytes(std::span(identity)));
  layout.page_sums = {store_sums, scratch.sums()};
  for (uint32_t f = 0; f < layout.files.size(); ++f) readers.use_page_sums(layout.files[f], layout.page_sums[f]);

  g->info_.path = path;
  g->info_.mode = store::store_mode_name(view.header().mode);
  g->info_.version = view.version();
  g->info_.checkpoint_seq = view.checkpoint().seq;
  g->info_.open_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return g;
}

ReferenceGraph StoreGraph::reference() const {
  std::vector<WeightedEdge> edges;
  view_->out_edges(0, static_cast<VertexId>(view_->vertices()),
                   [&](std::span<const WeightedEdge> piece) { edges.insert(edges.end(), piece.begin(), piece.end()); });
  return make_reference_graph(view_->vertices(), std::move(edges), view_->real_weights());
}

}  // namespace graphso
