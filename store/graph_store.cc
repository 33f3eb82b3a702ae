#include "store/graph_store.h"

#include <omp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <functional>
#include <random>
#include <type_traits>

#include "base/error.h"
#include "store/edge_log.h"
#include "store/pmem_file.h"
#include "store/store_mode.h"
#include "store/store_writer.h"

namespace graphso::store {

void check_store_options(const StoreOptions& options) {
  if (options.threads == 0 || options.threads > 256) fail("--threads {} is out of range (1-256)", options.threads);
  check_mode_options(options.tuning);
  check_power_cut(options.power_cut, mode_crash_points());
}

StoreGeometry default_geometry(uint64_t vertices, uint64_t edges, uint64_t log_slots, bool weighted, StoreMode mode) {
  StoreGeometry g;
  g.vertices = vertices;
  g.log_slots = log_slots;
  g.weighted = weighted;
  g.mode = mode;
  store_mode(mode).size(g, edges);
  return g;
}

// --- GraphStore: the face ---

GraphStore::GraphStore(std::unique_ptr<StoreWriter> impl, const StoreOptions& options)
    : impl_(std::move(impl)), path_(impl_->path()), options_(options) {}
GraphStore::GraphStore(std::string path, const StoreOptions& options) : path_(std::move(path)), options_(options) {}
GraphStore::~GraphStore() = default;

StoreWriter& GraphStore::writer() const {
  if (!impl_) fail("{}: an earlier error left this store without its writer: open it again", path_);
  return *impl_;
}

std::unique_ptr<GraphStore> GraphStore::create(const std::string& path, const StoreGeometry& geometry, StoreMode mode,
                                               const StoreOptions& options) {
  std::unique_ptr<GraphStore> store = create_if_missing(path, geometry, mode, options);
  if (!store) fail("{}: cannot create the store: it exists", path);
  return store;
}

std::unique_ptr<GraphStore> GraphStore::create_if_missing(const std::string& path, const StoreGeometry& geometry,
                                                          StoreMode mode, const StoreOptions& options) {
  check_store_options(options);
  if (geometry.vertices == 0 || geometry.vertices > kMaxStoreVertices)
    fail("{}: a store holds 1 to 2^31 vertices, not {}", path, geometry.vertices);
  if (geometry.log_slots < kMinLogSlots) fail("{}: the log needs at least {} slots, not {}", path, kMinLogSlots, geometry.log_slots);
  if (geometry.block_units < 8 || geometry.block_units > (uint64_t{1} << 32))
    fail("{}: {} block units is out of range (8 to 2^32)", path, geometry.block_units);
  if (store_mode(mode).paged && (geometry.block_units % kUnitsPerPage != 0 || region_pages(geometry) < 2))
    fail("{}: a {} store's block region is whole 4 KiB pages, at least 2, not {} block units", path,
         store_mode_name(mode), geometry.block_units);
  StoreGeometry g = geometry;
  g.mode = mode;
  StoreHeader header{g, mode, std::random_device{}() * uint64_t{0x9E3779B97F4A7C15ull} ^ static_cast<uint64_t>(::getpid())};
  if (path_exists(path)) return nullptr;
  // Written under another name and renamed into place once its superblock is persisted: a crash
  // while creating leaves no half-made store behind, only a ".new" file the next create replaces.
  // The lock is taken on that file first, so it is already held on the store when it appears.
  const std::string temp = path + ".new";
  WriterLock lock = WriterLock::take(temp, path, true);
  if (path_exists(path)) {  // another process created it meanwhile
    ::unlink(temp.c_str());
    return nullptr;
  }
  try {
    format_file(lock, temp, path, header, options);
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
  publish_file(temp, path);
  return open_locked(std::move(lock), path, options);
}

void GraphStore::format_file(const WriterLock& lock, const std::string& file, const std::string& store,
                             const StoreHeader& header, const StoreOptions& options) {
  const StoreLayout layout(header.geometry);
  if (::ftruncate(lock.fd(), 0) != 0 || ::ftruncate(lock.fd(), static_cast<off_t>(layout.file_bytes)) != 0)
    fail("{}: cannot size the store to {} bytes: {}", store, layout.file_bytes, errno_text(errno));
  lock.reserve(store, layout.file_bytes);
  PmemFile mapped = PmemFile::open(file);
  Persister persister(mapped, options.power_cut, true);
  write_superblock(mapped, persister, header);
  write_initial_log_head(mapped, layout, persister);
}

std::unique_ptr<GraphStore> GraphStore::open(const std::string& path, const StoreOptions& options) {
  check_store_options(options);
  if (!path_exists(path)) fail("{}: no such store", path);
  return open_locked(WriterLock::take(path, path, false), path, options);
}

std::unique_ptr<GraphStore> GraphStore::open_locked(WriterLock lock, const std::string& path, const StoreOptions& options) {
  {
    // A store made sparse by an earlier graphso gets its space now, before anything is mapped.
    struct stat st {};
    if (::fstat(lock.fd(), &st) != 0) fail("{}: cannot stat the store: {}", path, errno_text(errno));
    lock.reserve(path, static_cast<uint64_t>(st.st_size));
  }
  // A growth that stopped before its rename leaves its new file behind: nothing names it.
  const std::string unpublished = path + ".new";
  if (path_exists(unpublished)) {
    try {
      WriterLock stale = WriterLock::take(unpublished, path, false);
      ::unlink(unpublished.c_str());
    } catch (const Error&) {
      // held: a process creating the store first, which finds it exists and removes its file
    }
  }
  try {
    return std::unique_ptr<GraphStore>(new GraphStore(open_writer(std::move(lock), path, options), options));
  } catch (const StoreFull&) {
    // Its log holds more than its blocks have room for (a growth that failed, on a full device say,
    // after the log took part of a batch): recovering it is a growth, from what a view reads.
    std::unique_ptr<GraphStore> store(new GraphStore(path, options));
    WriterLock again = WriterLock::take(path, path, false);
    store->grow_locked(again, Growth{0, true});
    store->impl_ = open_writer(std::move(again), path, options);
    return store;
  }
}

std::unique_ptr<StoreWriter> GraphStore::open_writer(WriterLock lock, const std::string& path, const StoreOptions& options) {
  PmemFile file = PmemFile::open(path);
  StoreHeader header = read_superblock(file);
  return store_mode(header.mode).open_writer(std::move(lock), std::move(file), header, options);
}

namespace {

std::vector<VertexId> neighbours_of(const std::vector<std::pair<VertexId, Weight>>& edges) {
  std::vector<VertexId> ids;
  ids.reserve(edges.size());
  for (const auto& [n, w] : edges) ids.push_back(n);
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace

void GraphStore::add_edges(std::span<const WeightedEdge> edges) { write(edges, false); }
void GraphStore::add_edges(std::span<const Edge> edges) { write(edges, false); }
void GraphStore::add_edge(VertexId src, VertexId dst, Weight weight) {
  WeightedEdge e{src, dst, weight};
  write(std::span<const WeightedEdge>(&e, 1), false);
}
void GraphStore::del_edges(std::span<const WeightedEdge> edges) { write(edges, true); }
void GraphStore::del_edges(std::span<const Edge> edges) { write(edges, true); }
void GraphStore::del_edge(VertexId src, VertexId dst) {
  WeightedEdge e{src, dst, 1};
  write(std::span<const WeightedEdge>(&e, 1), true);
}
std::vector<VertexId> GraphStore::out_neighbours(VertexId v) const { return neighbours_of(writer().edges(AdjacencyList::Out, v)); }
std::vector<VertexId> GraphStore::in_neighbours(VertexId v) const { return neighbours_of(writer().edges(AdjacencyList::In, v)); }
std::vector<std::pair<VertexId, Weight>> GraphStore::out_edges(VertexId v) const { return writer().edges(AdjacencyList::Out, v); }
std::vector<std::pair<VertexId, Weight>> GraphStore::in_edges(VertexId v) const { return writer().edges(AdjacencyList::In, v); }
void GraphStore::buffer_all_edges() { with_room([&] { writer().buffer_all(); }); }
void GraphStore::flush_to_blocks() { with_room([&] { writer().checkpoint(); }); }
void GraphStore::compact() { with_room([&] { writer().compact(); }); }
void GraphStore::close() { writer().close(); }
InputRecords GraphStore::input() const { return writer().input(); }
void GraphStore::begin_input(InputProgress input, uint64_t already_logged) {
  writer().begin_input(std::move(input), already_logged);
}
StoreStatus GraphStore::status() const {
  StoreStatus s = writer().status();
  s.persisted += retired_persisted_;
  s.checkpoints += retired_checkpoints_;
  s.growths = growths_;
  s.growth_edges = growth_edges_;
  s.growth_seconds = growth_seconds_;
  return s;
}
const StoreHeader& GraphStore::header() const { return writer().header(); }
const std::string& GraphStore::path() const { return path_; }

}  // namespace graphso::store
