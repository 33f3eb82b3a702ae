#include "integrations/store_graph.h"

#include <omp.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstring>

#include "base/checksum.h"
#include "base/error.h"
#include "base/file.h"
#include "base/packed_pages.h"
#include "io/page_sums.h"
#include "store/store_format.h"

namespace graphso {

namespace {

// A page of the run's layout: where it is, and what its sources are.
struct PageRef {
  uint32_t file = 0;  // 0: the store, 1: the scratch file
  uint64_t offset = 0;
  uint32_t edges = 0;
  VertexId first_src = 0, last_src = 0;
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
    const PackedPageHeader h = packed_page_header(page);
    pages.push_back({file, offset, h.edges, h.first_src, h.last_src});
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
    // The chain modes: every source's edges through the view, a piece at a time. Sources come
    // in increasing order (StoreView::out_edges), each source's destinations in no particular
    // order (as its chain, list or tree holds them): each source's edges are sorted on their own,
    // not the piece (which took a third of an xpgraph store's open on R-MAT 20).
    std::vector<WeightedEdge> piece;
    std::vector<std::pair<size_t, size_t>> sources;  // [first, last) of each source in the piece
    auto flush = [&](size_t end) {
      sources.clear();
      for (size_t first = 0; first < end;) {
        size_t last = first + 1;
        while (last < end && piece[last].src == piece[first].src) ++last;
        sources.emplace_back(first, last);
        first = last;
      }
      const int64_t count = static_cast<int64_t>(sources.size());
#pragma omp parallel for num_threads(threads) schedule(dynamic, 256) if (threads > 1)
      for (int64_t k = 0; k < count; ++k)
        std::sort(piece.begin() + static_cast<long>(sources[k].first), piece.begin() + static_cast<long>(sources[k].second),
                  [](const WeightedEdge& a, const WeightedEdge& b) { return a.dst < b.dst; });
      rewrite(std::span<const WeightedEdge>(piece).first(end));
      piece.erase(piece.begin(), piece.begin() + static_cast<long>(end));
    };
    double in_sink = 0;
    const auto traversal_start = std::chrono::steady_clock::now();
    const store::ReadCounts counts = view.out_edges(0, static_cast<VertexId>(vertices), [&](std::span<const WeightedEdge> edges) {
      const auto sink_start = std::chrono::steady_clock::now();
      piece.insert(piece.end(), edges.begin(), edges.end());
      if (piece.size() >= (1u << 20)) {
        // A piece ends between two sources, so the pages stay sorted across pieces: the last
        // source's edges wait for the next.
        size_t end = piece.size();
        while (end > 0 && piece[end - 1].src == piece.back().src) --end;
        if (end > 0) flush(end);
      }
      in_sink += std::chrono::duration<double>(std::chrono::steady_clock::now() - sink_start).count();
    });
    g->info_.traversal_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - traversal_start).count() - in_sink;
    g->info_.lists_read = counts.blocks;
    g->info_.store_pages_read = counts.pages;
    if (!piece.empty()) flush(piece.size());
  }

  if (pages.empty())
    fail("{}: the store holds no edges at log position {}: there is nothing to run on yet", path, view.version());
  // Static partitions: runs of pages that follow each other in one file.
  EngineLayout& layout = g->layout_;
  for (const PageRef& p : pages) {
    g->info_.edges += p.edges;
    if (!layout.partitions.empty()) {
      StaticPartition& last = layout.partitions.back();
      if (last.file == p.file && last.offset + last.packed_bytes == p.offset) {
        last.edges += p.edges;
        last.src_end = p.last_src + 1;
        last.packed_bytes += kPackedPageBytes;
        continue;
      }
    }
    layout.partitions.push_back({p.file, p.offset, p.edges, p.first_src, p.last_src + 1, 0,
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
