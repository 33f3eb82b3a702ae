#include "middleware/tchunk.h"

#include <algorithm>
#include <bit>
#include <omp.h>

#include <cstring>
#include <fstream>

#include "base/checked_file.h"
#include "base/graph_files.h"
#include "base/error.h"
#include "base/file.h"
#include "base/progress.h"
#include "io/page_sums.h"
#include "io/read_plan.h"

namespace graphso {
namespace {

constexpr FileFormat kFormat{"GSOTCHK", 1, "a TChunk table", "TChunk format", "re-run `graphso prep`"};

// The index is written to the file in pieces of this size while it is built.
constexpr uint64_t kIndexWritePiece = 1 << 20;

// Chunks end at the first edge boundary at or after each multiple of chunk_bytes in the file,
// not every chunk_bytes from the partition's start: a chunk read alone then starts and ends on
// (or one record past) a page boundary instead of straddling two extra pages. Returns the end
// (exclusive, in edges) of the chunk that starts at edge `first` of the partition.
uint64_t chunk_end(const StaticPartition& part, uint64_t first, uint64_t chunk_bytes, uint32_t record) {
  const uint64_t chunk_edges = chunk_bytes / record;
  uint64_t at = part.offset + first * record;
  uint64_t grid_line = (at / chunk_bytes + 1) * chunk_bytes;
  uint64_t last = std::min(part.edges, (grid_line - part.offset + record - 1) / record);
  if (last - first > chunk_edges + 1 || last <= first) last = std::min(part.edges, first + chunk_edges);
  return last;
}

// Packed partitions are cut on page boundaries instead (a page is the smallest decodable unit):
// the end (exclusive, in bytes of the partition) of the chunk that starts at byte `first`, at the
// next multiple of chunk_bytes in the file rounded up to a page, and at least one page on.
uint64_t packed_chunk_end(const StaticPartition& part, uint64_t first, uint64_t chunk_bytes) {
  const uint64_t at = part.offset + first;
  const uint64_t grid_line = align_up((at / chunk_bytes + 1) * chunk_bytes, kPackedPageBytes);
  return std::min(part.packed_bytes, std::max(grid_line - part.offset, first + kPackedPageBytes));
}

// Every chunk of a partition, as (byte offset in the partition, bytes, first edge, edges); the
// edges of a packed chunk are known only once it is decoded (0 here).
template <typename F>
void for_each_chunk_span(const EngineLayout& layout, const StaticPartition& part, uint64_t chunk_bytes, F&& f) {
  const uint32_t record = layout.edge_size();
  if (layout.packed()) {
    for (uint64_t first = 0; first < part.packed_bytes;) {
      const uint64_t last = packed_chunk_end(part, first, chunk_bytes);
      f(first, last - first, uint64_t{0}, uint64_t{0});
      first = last;
    }
    return;
  }
  for (uint64_t first = 0; first < part.edges;) {
    const uint64_t last = chunk_end(part, first, chunk_bytes, record);
    f(first * record, (last - first) * record, first, last - first);
    first = last;
  }
}

// A read buffer for index entries of up to `entry` bytes: an entry read alone can start mid-page
// and cross one more page boundary.
// A chunk's bytes against its edges: records back to back, or whole pages from a page boundary.
bool chunk_size_fits(const EngineLayout& layout, const ChunkInfo& c) {
  if (!layout.packed()) return c.bytes == uint64_t{c.edges} * layout.edge_size();
  return packed_size_fits(c.edges, c.bytes) && c.offset % kPackedPageBytes == 0;
}

uint64_t read_buffer_for(uint64_t entry) { return align_up(entry, kDirectAlignment) + kDirectAlignment; }

void put_varint(std::vector<uint8_t>& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<uint8_t>(value | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<uint8_t>(value));
}

// put_varint's number at p, read without passing end: false when it does not end before end
// (read_index_varint, for the hot path, trusts the entries instead).
bool read_varint_within(const uint8_t*& p, const uint8_t* end, uint64_t& value) {
  value = 0;
  for (int shift = 0; p < end && shift < 64; shift += 7) {
    const uint8_t byte = *p++;
    value |= uint64_t{byte & 0x7Fu} << shift;
    if (!(byte & 0x80)) return true;
  }
  return false;
}

}  // namespace

struct TChunkTable::Header {
  FormatTag tag;
  uint32_t identity;  // EngineLayout::identity
  uint64_t chunk_bytes;
  uint64_t chunks;
  uint64_t index_bytes;
  uint64_t edges;
  uint64_t vertices;
  char layout[16];
};

std::string TChunkTable::path(const EngineLayout& layout, uint64_t chunk_bytes) {
  return GraphFiles(layout.dir).tchunk(layout.name, chunk_bytes);
}

uint64_t TChunkTable::memory_bytes() const {
  uint64_t bytes = records_bytes() + resident_index_bytes();
  for (const Reader& r : readers_) bytes += r.buffer.size();
  return bytes;
}

uint64_t TChunkTable::index_memory_bytes() const {
  uint64_t skip_points = 0;
  for (const ChunkInfo& c : chunks_) skip_points += skip_points_of(c);
  return index_total_ + skip_points * sizeof(SkipPoint);
}

uint64_t TChunkTable::index_bytes_read() const {
  uint64_t bytes = 0;
  for (const Reader& r : readers_) bytes += r.bytes_read;
  return bytes;
}

uint64_t TChunkTable::index_reads() const {
  uint64_t reads = 0;
  for (const Reader& r : readers_) reads += r.reads;
  return reads;
}

TChunkTable::Shape TChunkTable::shape(const EngineLayout& layout, uint64_t chunk_bytes) {
  const uint32_t record = layout.edge_size();
  if (chunk_bytes < record) fail("chunk size {} is smaller than one edge ({} bytes)", chunk_bytes, record);
  Shape s;
  for (const StaticPartition& part : layout.partitions)
    for_each_chunk_span(layout, part, chunk_bytes, [&](uint64_t at, uint64_t bytes, uint64_t, uint64_t) {
      s.largest_span = std::max(s.largest_span, aligned_span({part.file, part.offset + at, bytes}));
      ++s.chunks;
    });
  return s;
}

namespace {

// A chunk's record and source index as its sources come, in increasing order, each with its edges
// in the chunk (a source may come in parts: a packed page's last source goes on in the next).
class ChunkIndexBuilder {
 public:
  ChunkIndexBuilder(ChunkInfo& chunk, std::vector<uint8_t>& entries, const std::vector<uint32_t>& degrees)
      : c_(chunk), entries_(entries), degrees_(degrees) {
    entries_.clear();
  }
  void add(VertexId source, uint64_t edges) {
    if (run_ > 0 && source == source_) {
      run_ += edges;
      return;
    }
    if (run_ > 0) close();
    else c_.first_src = previous_ = source;
    source_ = source;
    run_ = edges;
  }
  void finish() {
    close();
    c_.last_src = source_;
    c_.index_bytes = static_cast<uint32_t>(entries_.size());
  }

 private:
  void close() {
    put_varint(entries_, source_ - previous_);
    put_varint(entries_, run_ - 1);
    previous_ = source_;
    ++c_.distinct_sources;
    c_.source_degree_sum += degrees_[source_];
  }
  ChunkInfo& c_;
  std::vector<uint8_t>& entries_;
  const std::vector<uint32_t>& degrees_;
  VertexId previous_ = 0, source_ = 0;
  uint64_t run_ = 0;
};

}  // namespace

template <typename IndexSink>
TChunkTable TChunkTable::cut(const EngineLayout& layout, uint64_t chunk_bytes, IndexSink&& sink, ProgressStep step) {
  const uint32_t record = layout.edge_size();
  if (chunk_bytes < record) fail("chunk size {} is smaller than one edge ({} bytes)", chunk_bytes, record);
  TChunkTable table;
  table.chunk_bytes_ = chunk_bytes;
  table.path_ = path(layout, chunk_bytes);
  const bool outlined = layout.packed() && !layout.page_outlines.empty();
  // Read in whole pages, each verified: a table cut from corrupt edges would hide chunks from
  // the jobs, which no later check of the chunks themselves could notice. (Outlined pages were
  // decoded, and checked, by whoever outlined them; each load verifies them again.)
  std::vector<File> files;
  std::vector<std::shared_ptr<const PageSums>> sums = layout.page_sums;
  if (!outlined)
    for (const auto& f : layout.files) {
      files.emplace_back(f, File::Mode::Read);
      if (layout.page_sums.empty()) sums.push_back(std::make_shared<const PageSums>(PageSums::load(f, files.back().size())));
    }
  std::vector<std::byte> pages, decoded;
  const auto& degrees = *layout.out_degrees;
  std::vector<uint8_t> entries;  // one chunk's index entries
  Progress progress("building TChunk table", layout.stored_bytes(), "bytes", step);
  uint64_t done = 0;
  uint64_t outline = 0;  // the next page's outline
  for (uint32_t p = 0; p < layout.partitions.size(); ++p) {
    const StaticPartition& part = layout.partitions[p];
    uint64_t next_edge = 0;  // packed: the first edge of the next chunk
    VertexId last_src = part.src_begin;  // outlined: the last source so far, for their order
    // Outlined: v's edges within this partition's layer (EngineLayout::layer_degrees).
    const std::vector<uint32_t>& layer_degrees =
        layout.layer_degrees.empty() ? degrees : *layout.layer_degrees.at(layout.partition_layer.at(p));
    auto degree_here = [&](VertexId v) { return layer_degrees[v]; };
    auto outside = [&](VertexId src, VertexId dst) {
      return src < part.src_begin || src >= part.src_end || dst < part.dst_begin || dst >= part.dst_end;
    };
    for_each_chunk_span(layout, part, chunk_bytes, [&](uint64_t at, uint64_t bytes, uint64_t first, uint64_t edges) {
      ChunkInfo c;
      c.partition = p;
      c.file = part.file;
      c.offset = part.offset + at;
      c.bytes = bytes;
      c.min_dst = UINT32_MAX;
      ChunkIndexBuilder index(c, entries, degrees);
      if (outlined) {
        // The pages' outlines: a page's first and last sources with their edges in it, and every
        // source between with all of its edges (its out-degree).
        edges = 0;
        for (uint64_t page = 0; page < bytes / kPackedPageBytes; ++page, ++outline) {
          if (outline >= layout.page_outlines.size())
            fail("internal: {} page outlines for a layout of more pages", layout.page_outlines.size());
          const PackedPageOutline& o = layout.page_outlines[outline];
          const uint64_t page_offset = c.offset + page * kPackedPageBytes;
          if (outside(o.first_src, o.min_dst) || outside(o.last_src, o.max_dst))
            fail("{}: the page at offset {} holds edges outside its partition (corrupt graph file)",
                 layout.files[part.file], page_offset);
          if (o.first_src < last_src || o.last_src < o.first_src)
            fail("{}: partition {} is not sorted by source (corrupt graph file)", layout.files[part.file], p);
          uint64_t counted = o.first_src_edges;
          index.add(o.first_src, o.first_src_edges);
          if (o.last_src != o.first_src) {
            for (VertexId v = o.first_src + 1; v < o.last_src; ++v)
              if (const uint32_t d = degree_here(v); d != 0) {
                index.add(v, d);
                counted += d;
              }
            index.add(o.last_src, o.last_src_edges);
            counted += o.last_src_edges;
          }
          if (counted != o.edges || o.edges == 0)
            fail("{}: the page at offset {} holds {} edges, its sources' out-degrees {} (corrupt graph file)",
                 layout.files[part.file], page_offset, o.edges, counted);
          c.min_dst = std::min(c.min_dst, o.min_dst);
          c.max_dst = std::max(c.max_dst, o.max_dst);
          last_src = o.last_src;
          edges += o.edges;
        }
        first = next_edge;
        next_edge += edges;
      } else {
        const uint64_t begin = align_down(c.offset, PageSums::kPageBytes);
        pages.resize(align_up(c.offset + c.bytes, PageSums::kPageBytes) - begin);
        files[part.file].pread_exact(pages, begin);
        sums[part.file]->verify(files[part.file].path(), begin, pages);
        const std::byte* raw = pages.data() + (c.offset - begin);
        if (layout.packed()) {
          PackedPageProblem problem;
          edges = packed_edges_in({raw, bytes});
          if (decode_packed_pages({raw, bytes}, layout.weighted, decoded, &problem) < 0)
            fail("{}: the page at offset {} is malformed: {} (corrupt graph file)", layout.files[part.file],
                 c.offset + problem.page * kPackedPageBytes, problem.what);
          raw = decoded.data();
          first = next_edge;
          next_edge += edges;
        }
        if (edges <= UINT32_MAX) {
          VertexId run_source = 0;
          uint64_t run = 0;
          for (uint64_t e = 0; e < edges; ++e) {
            Edge edge;
            std::memcpy(&edge, raw + e * record, sizeof(edge));
            if (outside(edge.src, edge.dst))
              fail("{}: edge {} -> {} in the chunk at offset {} lies outside its partition (corrupt graph file)",
                   layout.files[part.file], edge.src, edge.dst, c.offset);
            if (e != 0 && edge.src != run_source) {
              if (edge.src < run_source)
                fail("{}: partition {} is not sorted by source (corrupt graph file)", layout.files[part.file], p);
              index.add(run_source, run);
              run = 0;
            }
            run_source = edge.src;
            ++run;
            c.min_dst = std::min(c.min_dst, edge.dst);
            c.max_dst = std::max(c.max_dst, edge.dst);
          }
          if (run > 0) index.add(run_source, run);
        }
      }
      if (edges == 0 || edges > UINT32_MAX)
        fail("{}: a chunk of {} edges at offset {} (corrupt graph file)", layout.files[part.file], edges, c.offset);
      c.first_edge = first;
      c.edges = static_cast<uint32_t>(edges);
      c.index_offset = table.index_total_;
      index.finish();
      table.index_total_ += entries.size();
      sink(std::span<const uint8_t>(entries));
      table.chunks_.push_back(c);
      progress.update(done += c.bytes);
    });
    if (layout.packed() && next_edge != part.edges)
      fail("{}: partition {} holds {} edges, its meta says {} (corrupt graph file)", layout.files[part.file], p, next_edge,
           part.edges);
  }
  if (outlined && outline != layout.page_outlines.size())
    fail("internal: {} page outlines for a layout of {} pages", layout.page_outlines.size(), outline);
  table.index_file_offset_ = sizeof(Header) + table.chunks_.size() * sizeof(ChunkInfo);
  return table;
}

TChunkTable TChunkTable::build(const EngineLayout& layout, uint64_t chunk_bytes) {
  std::vector<uint8_t> index;
  TChunkTable table = cut(layout, chunk_bytes, [&](std::span<const uint8_t> entries) {
    index.insert(index.end(), entries.begin(), entries.end());
  });
  table.index_ = std::move(index);
  table.keep_index(kWholeIndex, 1);  // its skip points
  return table;
}

TChunkTable TChunkTable::build_and_save(const EngineLayout& layout, uint64_t chunk_bytes, uint64_t index_capacity,
                                        ProgressStep step) {
  // The records go before the index in the file; their count is known from the partitions, so
  // their place is reserved and the index streamed after it, never held whole.
  const Shape expected = shape(layout, chunk_bytes);
  SealedFileWriter out(path(layout, chunk_bytes), sizeof(Header) + expected.records_bytes());
  std::vector<uint8_t> pending;
  auto flush = [&]() {
    out.append(std::as_bytes(std::span(pending)));
    pending.clear();
  };
  TChunkTable table = cut(
      layout, chunk_bytes,
      [&](std::span<const uint8_t> entries) {
        pending.insert(pending.end(), entries.begin(), entries.end());
        if (pending.size() >= kIndexWritePiece) flush();
      },
      step);
  flush();
  if (table.chunks_.size() != expected.chunks)
    fail("internal: {} chunks cut where the partitions give {}", table.chunks_.size(), expected.chunks);
  std::vector<std::byte> head(sizeof(Header) + table.records_bytes());
  const Header h = table.header(layout);
  std::memcpy(head.data(), &h, sizeof h);
  std::memcpy(head.data() + sizeof h, table.chunks_.data(), table.records_bytes());
  out.finish(head);
  table.keep_index(index_capacity, 1);
  return table;
}

TChunkTable::ActiveCounts TChunkTable::active_in(uint32_t id, const Bitmap& frontier) const {
  const BitmapRank rank(frontier);
  ActiveCounts a;
  active_in(id, std::span(&rank, 1), std::span(&a, 1));
  return a;
}

void TChunkTable::active_in(uint32_t id, std::span<const BitmapRank> frontiers, std::span<ActiveCounts> out) const {
  const ChunkInfo& c = chunks_[id];
  const uint64_t range = uint64_t{c.last_src} - c.first_src + 1;
  // A frontier that covers none or all of the source range is answered from the record.
  constexpr size_t kMostPartial = 64;
  size_t partial[kMostPartial];
  const uint64_t* words[kMostPartial];  // each partial frontier's bits, looked up once, not per source
  size_t partials = 0;
  const uint64_t* thin_words[kMostPartial];  // frontiers with few ids here: found from the skip points
  ActiveCounts* thin_out[kMostPartial];
  size_t thins = 0;
  for (size_t k = 0; k < frontiers.size(); ++k) {
    const uint64_t in_range = frontiers[k].count_in(c.first_src, uint64_t{c.last_src} + 1);
    out[k] = in_range == range ? ActiveCounts{c.distinct_sources, c.edges} : ActiveCounts{};
    if (in_range != 0 && in_range != range) {
      if (resident(id) && in_range * kLookupBelowOneIn < c.distinct_sources) {
        if (thins == kMostPartial) {  // a batch this large: walk these together, then the rest
          sparse_active_in(id, {thin_words, thins}, {thin_out, thins});
          thins = 0;
        }
        thin_words[thins] = frontiers[k].bitmap().words();
        thin_out[thins++] = &out[k];
        continue;
      }
      if (partials == kMostPartial) {  // a batch this large: decode once more for the rest
        active_in(id, frontiers.subspan(k), out.subspan(k));
        break;
      }
      words[partials] = frontiers[k].bitmap().words();
      partial[partials++] = k;
    }
  }
  if (thins != 0) sparse_active_in(id, {thin_words, thins}, {thin_out, thins});
  if (partials == 0) return;
  // Counted without a branch: a frontier holding about half of a chunk's sources would
  // mispredict one test in two.
  uint64_t sources[kMostPartial] = {}, edges_of[kMostPartial] = {};
  for_each_source(id, [&](VertexId source, uint64_t edges) {
    for (size_t p = 0; p < partials; ++p) {
      const uint64_t in = Bitmap::test(words[p], source);
      sources[p] += in;
      edges_of[p] += edges & (0 - in);
    }
  });
  for (size_t p = 0; p < partials; ++p) out[partial[p]] = {sources[p], edges_of[p]};
}

void TChunkTable::sparse_active_in(uint32_t id, std::span<const uint64_t* const> words,
                                   std::span<ActiveCounts* const> out) const {
  const ChunkInfo& c = chunks_[id];
  const uint8_t* entries = index_.data() + c.index_offset;
  const SkipPoint* skips = skips_.data() + skip_begin_[id];
  const SkipPoint* skips_end = skips_.data() + skip_begin_[id + 1];
  // A cursor over the entries: `next` decoded so far, the last of them `source` with `edges`.
  const uint8_t* p = entries;
  uint64_t next = 0, edges = 0;
  VertexId source = 0;
  auto credit = [&](VertexId v) {
    for (size_t t = 0; t < words.size(); ++t)
      if (Bitmap::test(words[t], v)) out[t]->sources += 1, out[t]->edges += edges;
  };
  auto look_up = [&](VertexId v) {
    if (next != 0 && source >= v) {  // the cursor is already at or past v
      if (source == v) credit(v);
      return;
    }
    // The last skip point at or before v (skips[0] is the chunk's first source, never after v);
    // jump to it when the cursor is behind it. Ids of a frontier often come in runs: when the
    // next skip point is past v, the cursor just walks on.
    const SkipPoint* ahead = skips + next / kSkipEvery + 1;
    if (next == 0 || (ahead < skips_end && ahead->source <= v)) {
      const SkipPoint* at = std::upper_bound(skips + next / kSkipEvery, skips_end, v,
                                             [](uint64_t x, const SkipPoint& s) { return x < s.source; }) - 1;
      const uint64_t k = static_cast<uint64_t>(at - skips) * kSkipEvery;
      // (the skip point ahead or one after it, or the first: never behind the cursor)
      p = entries + at->offset;
      read_index_varint(p);  // the delta to the source before: the skip point has it whole
      source = at->source;
      edges = read_index_varint(p) + 1;
      next = k + 1;
    }
    while (source < v && next < c.distinct_sources) {
      source += static_cast<VertexId>(read_index_varint(p));
      edges = read_index_varint(p) + 1;
      ++next;
    }
    if (source == v) credit(v);
  };
  // The union's bits of [first_src, last_src], word by word.
  const uint64_t begin = c.first_src, end = uint64_t{c.last_src} + 1;
  for (uint64_t w = begin >> 6; w < (end + 63) >> 6; ++w) {
    uint64_t word = 0;
    for (const uint64_t* bits : words) word |= bits[w];
    if (w == begin >> 6) word &= ~uint64_t{0} << (begin & 63);
    if (w == (end - 1) >> 6 && (end & 63)) word &= (uint64_t{1} << (end & 63)) - 1;
    for (; word; word &= word - 1) look_up(static_cast<VertexId>(w * 64 + static_cast<uint64_t>(std::countr_zero(word))));
  }
}

TChunkTable::Header TChunkTable::header(const EngineLayout& layout) const {
  static_assert(sizeof(Header) == 72);  // the file format
  Header h{};
  h.tag = kFormat.tag();
  h.identity = layout.identity;
  h.chunk_bytes = chunk_bytes_;
  h.chunks = chunks_.size();
  h.index_bytes = index_total_;
  h.edges = layout.edges;
  h.vertices = layout.vertices;
  std::strncpy(h.layout, layout.name.c_str(), sizeof(h.layout) - 1);
  return h;
}

void TChunkTable::save(const EngineLayout& layout) const {
  if (index_.size() != index_total_) fail("internal: saving a TChunk table whose index is not resident whole");
  const Header h = header(layout);
  std::string bytes(reinterpret_cast<const char*>(&h), sizeof h);
  bytes.append(reinterpret_cast<const char*>(chunks_.data()), chunks_.size() * sizeof(ChunkInfo));
  bytes.append(reinterpret_cast<const char*>(index_.data()), index_.size());
  write_sealed_file(path(layout, chunk_bytes_), bytes);
}

TChunkTable TChunkTable::load(const EngineLayout& layout, uint64_t chunk_bytes, uint64_t index_capacity) {
  const std::string file = path(layout, chunk_bytes);
  // Checked whole (size, CRC) in bounded pieces: loading never holds the index.
  SealedFileReader sealed(kFormat, file, sizeof(Header));
  const Header h = sealed.header<Header>();
  if (h.chunks > (uint64_t{1} << 40) || h.index_bytes > (uint64_t{1} << 48))  // the size below cannot overflow
    fail("{}: corrupt: {} chunks, {} index bytes", file, h.chunks, h.index_bytes);
  const uint64_t records = h.chunks * sizeof(ChunkInfo);
  sealed.check_size_and_crc(sizeof(h) + records + h.index_bytes + sizeof(uint32_t), "TChunk table");
  if (h.identity != layout.identity || h.edges != layout.edges || h.vertices != layout.vertices ||
      h.chunk_bytes != chunk_bytes || layout.name != h.layout)
    fail("{}: belongs to another graph or layout (re-run `graphso prep`)", file);
  TChunkTable table;
  table.chunk_bytes_ = chunk_bytes;
  table.path_ = file;
  table.index_total_ = h.index_bytes;
  table.index_file_offset_ = sizeof(h) + records;
  table.chunks_.resize(h.chunks);
  sealed.read(std::as_writable_bytes(std::span(table.chunks_)), sizeof(h));
  // The checksum guards against accidents; these guard the decoder against a wrong table.
  uint64_t edges = 0, index_end = 0;
  for (const ChunkInfo& c : table.chunks_) {
    if (c.partition >= layout.partitions.size() || c.index_offset != index_end || c.index_offset + c.index_bytes > h.index_bytes ||
        c.edges == 0 || !chunk_size_fits(layout, c) || c.distinct_sources == 0 || c.distinct_sources > c.edges || c.first_src > c.last_src ||
        c.index_bytes < 2 * c.distinct_sources)
      fail("{}: corrupt chunk record", file);
    index_end += c.index_bytes;
    edges += c.edges;
  }
  if (edges != layout.edges) fail("{}: chunks hold {} edges, the graph {} (corrupt)", file, edges, layout.edges);
  table.keep_index(index_capacity, 1);
  return table;
}

void TChunkTable::keep_index(uint64_t capacity, int threads) {
  // The resident prefix ends where the last chunk whose entries and skip points fit wholly ends.
  uint64_t end = 0, skip_points = 0;
  uint32_t resident_chunks = 0;
  uint64_t largest_on_disk = 0;
  for (const ChunkInfo& c : chunks_) {
    const uint64_t with = end + c.index_bytes + (skip_points + skip_points_of(c)) * sizeof(SkipPoint);
    if (resident_chunks == &c - chunks_.data() && c.index_offset == end && with <= capacity) {
      end += c.index_bytes;
      skip_points += skip_points_of(c);
      ++resident_chunks;
    } else {
      largest_on_disk = std::max<uint64_t>(largest_on_disk, c.index_bytes);
    }
  }
  if (end < index_.size()) {
    index_.resize(end);
    index_.shrink_to_fit();
  } else if (end > index_.size()) {
    const uint64_t have = index_.size();
    index_.resize(end);
    File(path_, File::Mode::Read).pread_exact(std::as_writable_bytes(std::span(index_)).subspan(have), index_file_offset_ + have);
  }
  skips_.clear();
  skips_.shrink_to_fit();
  skips_.reserve(skip_points);
  skip_begin_.assign(1, 0);
  for (uint32_t m = 0; m < resident_chunks; ++m) {
    const ChunkInfo& c = chunks_[m];
    const uint8_t* entries = index_.data() + c.index_offset;
    const uint8_t* end = entries + c.index_bytes;
    // The file's checksum guards the entries; this guards the lookups against a wrong table, so
    // it reads no byte past the chunk's entries.
    auto wrong = [&]() { fail("{}: the source index of chunk {} does not match its record (corrupt)", path_, m); };
    const uint8_t* p = entries;
    uint64_t source = c.first_src;
    for (uint32_t s = 0; s < c.distinct_sources; ++s) {
      const uint8_t* entry = p;
      uint64_t delta = 0, run = 0;
      if (!read_varint_within(p, end, delta) || !read_varint_within(p, end, run)) wrong();
      source += delta;
      if (source > c.last_src) wrong();
      if (s % kSkipEvery == 0) skips_.push_back({static_cast<VertexId>(source), static_cast<uint32_t>(entry - entries)});
    }
    if (p != end || source != c.last_src) wrong();
    skip_begin_.push_back(skips_.size());
  }
  readers_.clear();
  file_ = File();
  if (end == index_total_) return;
  for (int t = 0; t < std::max(1, threads); ++t) readers_.push_back({AlignedBuffer(read_buffer_for(largest_on_disk)), 0, 0});
  file_ = File(path_, File::Mode::ReadDirect);
}

uint64_t TChunkTable::index_read_buffer_bytes(int threads) const {
  uint64_t largest = 0;
  for (const ChunkInfo& c : chunks_) largest = std::max<uint64_t>(largest, c.index_bytes);
  return uint64_t(std::max(1, threads)) * read_buffer_for(largest);
}

const uint8_t* TChunkTable::index_of(uint32_t id) const {
  const ChunkInfo& c = chunks_[id];
  if (c.index_offset + c.index_bytes <= index_.size()) return index_.data() + c.index_offset;
  const size_t thread = static_cast<size_t>(omp_get_thread_num());
  if (thread >= readers_.size()) fail("internal: TChunk index read from thread {} of {}", thread, readers_.size());
  Reader& r = readers_[thread];
  const uint64_t at = index_file_offset_ + c.index_offset;
  const uint64_t begin = align_down(at, kDirectAlignment);
  const uint64_t length = align_up(at + c.index_bytes, kDirectAlignment) - begin;
  // The file's last page is short: O_DIRECT reads what there is, which must cover the entries.
  const uint64_t got = file_.pread_to_end(std::span(r.buffer.data(), length), begin);
  if (begin + got < at + c.index_bytes)
    fail("{}: short read of the source index of chunk {} ({} of {} bytes; truncated?)", path_, id, got, length);
  r.bytes_read += got;
  ++r.reads;
  return reinterpret_cast<const uint8_t*>(r.buffer.data()) + (at - begin);
}

TChunkTable TChunkTable::load_or_build(const EngineLayout& layout, uint64_t chunk_bytes, bool* built,
                                       uint64_t index_capacity) {
  if (built) *built = false;
  if (path_exists(path(layout, chunk_bytes))) return load(layout, chunk_bytes, index_capacity);
  TChunkTable table = build_and_save(layout, chunk_bytes, index_capacity);
  if (built) *built = true;
  return table;
}

uint64_t read_llc_bytes() {
  uint64_t size_of_highest = 0;
  int highest = 0;
  for (int index = 0; index < 8; ++index) {
    std::string base = fmt::format("/sys/devices/system/cpu/cpu0/cache/index{}/", index);
    std::ifstream level(base + "level"), size(base + "size"), type(base + "type");
    int lvl = 0;
    std::string text, kind;
    if (!(level >> lvl) || !(size >> text) || text.empty()) continue;
    type >> kind;
    if (kind == "Instruction" || lvl <= highest) continue;
    uint64_t value = std::stoull(text);
    if (text.back() == 'K') value <<= 10;
    else if (text.back() == 'M') value <<= 20;
    highest = lvl;
    size_of_highest = value;
  }
  return size_of_highest;
}

uint64_t formula_chunk_bytes(uint64_t edge_bytes, uint64_t vertices, int cores, uint64_t llc_bytes) {
  if (llc_bytes == 0) llc_bytes = read_llc_bytes();
  if (llc_bytes == 0) llc_bytes = 8ull << 20;
  const double reserved = static_cast<double>(llc_bytes) / 4;
  const double n = std::max(1, cores);
  const double vertex_bytes = 8.0 * static_cast<double>(vertices);
  // |C| N (1 + N_v |V| / |G|) <= LLC - s
  double c = (static_cast<double>(llc_bytes) - reserved) /
             (n * (1 + vertex_bytes / std::max(1.0, static_cast<double>(edge_bytes))));
  uint64_t bytes = std::clamp<uint64_t>(static_cast<uint64_t>(c), 64 << 10, 8 << 20);
  return std::bit_floor(bytes);
}

}  // namespace graphso
