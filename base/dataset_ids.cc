#include "base/dataset_ids.h"

#include <algorithm>
#include <span>

#include "base/checked_file.h"
#include "base/error.h"

namespace graphso {
namespace {

constexpr FileFormat kFormat{"GSOIDS01", 1, "a graphso dataset id file", "dataset id format",
                             "convert the dataset again with `graphso convert`"};

struct Header {
  FormatTag tag;
  uint32_t reserved;
  uint64_t count;
};
static_assert(sizeof(Header) == 24);

Header header_of(const std::vector<uint64_t>& ids) {
  Header h{};
  h.tag = kFormat.tag();
  h.count = ids.size();
  return h;
}

}  // namespace

DatasetIds::DatasetIds(std::vector<uint64_t> ascending) : ids_(std::move(ascending)) {
  if (ids_.size() > kMaxVertexId + uint64_t{1}) fail("{} vertices exceed the maximum of 2^32-1", ids_.size());
  for (uint64_t v = 1; v < ids_.size(); ++v)
    if (ids_[v] <= ids_[v - 1]) fail("dataset ids are not strictly ascending at vertex {} ({} after {})", v, ids_[v], ids_[v - 1]);
}

DatasetIds DatasetIds::load(const std::string& path, uint64_t vertices, std::optional<uint32_t> recorded) {
  SealedFileReader file(kFormat, path, sizeof(Header));
  const Header h = file.header<Header>();
  if (h.count != vertices) fail("{}: {} dataset ids for a graph of {} vertices (a file of another graph?)", path, h.count, vertices);
  const uint32_t crc = file.check_size_and_crc(sizeof(Header) + vertices * sizeof(uint64_t) + sizeof(uint32_t), "dataset id file");
  if (recorded) check_crc(path, *recorded, crc, "or another graph's dataset ids");
  std::vector<uint64_t> ids(vertices);
  file.read(std::as_writable_bytes(std::span(ids)), sizeof(Header));
  try {
    return DatasetIds(std::move(ids));
  } catch (const Error& e) {
    fail("{}: corrupt: {}", path, e.what());
  }
}

uint32_t DatasetIds::save(const std::string& path) const {
  const Header h = header_of(ids_);
  AtomicOutputFile out(path);
  out.append(as_bytes_of(h));
  out.append(std::as_bytes(std::span(ids_)));
  const uint32_t sum = crc();
  out.append(as_bytes_of(sum));
  out.commit();
  return sum;
}

// Header then ids, without a second copy of them (a graph's ids may be gigabytes).
uint32_t DatasetIds::crc() const {
  const Header h = header_of(ids_);
  return crc32_of(std::as_bytes(std::span(ids_)), crc32_of(as_bytes_of(h)));
}

std::optional<DatasetIds> DatasetIds::beside(const std::string& edge_list, uint64_t vertices) {
  const std::string path = dataset_ids_path(edge_list);
  if (!path_exists(path)) return std::nullopt;
  return load(path, vertices);
}

std::optional<VertexId> DatasetIds::vertex_of(uint64_t id) const {
  const auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
  if (it == ids_.end() || *it != id) return std::nullopt;
  return static_cast<VertexId>(it - ids_.begin());
}

std::string dataset_ids_path(const std::string& edge_list) { return edge_list + ".ids"; }

}  // namespace graphso
