#include "store/ftgraph/op_ring.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

#include "base/error.h"

namespace graphso::store {

struct OpRing::Header {
  uint64_t magic;
  uint64_t store_id;
  uint64_t capacity;
  std::atomic<uint64_t> exact_from;
  char store_path[480];  // absolute: a later writer removes the ring when it names no store any more
};

namespace {

// The header as plain bytes, for a ring this process does not map.
struct OpRecordHeaderView {
  uint64_t magic, store_id, capacity, exact_from;
  char store_path[480];
};

constexpr uint64_t kMagic = 0x32474E4952534750ull;  // "PGSRING2": the header of 512 bytes, with the path
constexpr uint64_t kHeaderBytes = 512;
constexpr uint64_t kBytes = kHeaderBytes + kOpRingCapacity * sizeof(OpRecord);
constexpr char kPrefix[] = "graphso-ftgraph-";

std::string name_of(const struct stat& st) {
  return std::string("/") + kPrefix + std::to_string(st.st_dev) + "-" + std::to_string(st.st_ino);
}

std::string ring_name(const std::string& store_path) {
  struct stat st {};
  if (::stat(store_path.c_str(), &st) != 0) fail("{}: cannot stat the store: {}", store_path, errno_text(errno));
  return name_of(st);
}

// Rings whose store is gone (deleted, or its name now another file): left by writers that were
// killed, or whose store was removed while a batch was under way. Each holds up to 64 MiB of RAM.
void remove_stale_rings(const std::string& own) {
  DIR* dir = ::opendir("/dev/shm");
  if (!dir) return;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = std::string("/") + entry->d_name;
    if (std::string_view(entry->d_name).substr(0, sizeof kPrefix - 1) != kPrefix || name == own) continue;
    const int fd = ::shm_open(name.c_str(), O_RDONLY, 0);
    if (fd < 0) continue;
    OpRecordHeaderView header{};
    const bool read = ::pread(fd, &header, sizeof header, 0) == static_cast<ssize_t>(sizeof header);
    ::close(fd);
    if (!read) continue;
    header.store_path[sizeof header.store_path - 1] = '\0';
    struct stat st {};
    // A ring whose path did not fit names no store: it is left alone.
    if (header.store_path[0] == '/' && (::stat(header.store_path, &st) != 0 || name_of(st) != name))
      ::shm_unlink(name.c_str());
  }
  ::closedir(dir);
}

void* map_fd(int fd, int prot, const std::string& name) {
  void* map = ::mmap(nullptr, kBytes, prot, MAP_SHARED, fd, 0);
  const int error = errno;
  ::close(fd);
  if (map == MAP_FAILED) fail("/dev/shm{}: cannot map the operation ring: {}", name, errno_text(error));
  return map;
}

void set_store_path(char (&to)[480], const char* path) {
  const size_t n = std::strlen(path);
  std::memset(to, 0, sizeof to);
  if (n < sizeof to) std::memcpy(to, path, n);
}

}  // namespace

OpRing::OpRing(std::string name, void* map, uint64_t bytes)
    : name_(std::move(name)),
      map_(map),
      bytes_(bytes),
      header_(static_cast<Header*>(map)),
      records_(reinterpret_cast<OpRecord*>(static_cast<std::byte*>(map) + kHeaderBytes)) {}

OpRing OpRing::create(const std::string& store_path, uint64_t store_id, uint64_t exact_from) {
  static_assert(sizeof(Header) == kHeaderBytes && sizeof(OpRecordHeaderView) == kHeaderBytes);
  const std::string name = ring_name(store_path);
  remove_stale_rings(name);
  char absolute[PATH_MAX];
  if (!::realpath(store_path.c_str(), absolute)) fail("{}: cannot resolve the store's path: {}", store_path, errno_text(errno));
  const int fd = ::shm_open(name.c_str(), O_RDWR | O_CREAT, 0644);
  if (fd < 0) fail("/dev/shm{}: cannot create the operation ring: {}", name, errno_text(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || (static_cast<uint64_t>(st.st_size) != kBytes && ::ftruncate(fd, kBytes) != 0)) {
    const int error = errno;
    ::close(fd);
    fail("/dev/shm{}: cannot size the operation ring: {}", name, errno_text(error));
  }
  OpRing ring(name, map_fd(fd, PROT_READ | PROT_WRITE, name), kBytes);
  Header& h = *ring.header_;
  if (h.magic != kMagic || h.store_id != store_id || h.capacity != kOpRingCapacity) {
    // Another store's (an inode reused) or none yet: nothing in it describes this store.
    h.magic = 0;
    h.store_id = store_id;
    set_store_path(h.store_path, absolute);
    h.capacity = kOpRingCapacity;
    h.exact_from.store(exact_from, std::memory_order_release);
    std::atomic_thread_fence(std::memory_order_release);
    h.magic = kMagic;
  } else {
    // Released before this writer publishes anything over the records of the last one.
    h.exact_from.store(exact_from, std::memory_order_seq_cst);
    set_store_path(h.store_path, absolute);
  }
  return ring;
}

std::optional<OpRing> OpRing::open(const std::string& store_path, uint64_t store_id) {
  const std::string name = ring_name(store_path);
  const int fd = ::shm_open(name.c_str(), O_RDONLY, 0);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    fail("/dev/shm{}: cannot open the operation ring: {}", name, errno_text(errno));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || static_cast<uint64_t>(st.st_size) != kBytes) {
    ::close(fd);
    return std::nullopt;  // being created, or not ours
  }
  OpRing ring(name, map_fd(fd, PROT_READ, name), kBytes);
  const Header& h = *ring.header_;
  if (h.magic != kMagic || h.store_id != store_id || h.capacity != kOpRingCapacity) return std::nullopt;
  return ring;
}

OpRing::~OpRing() {
  if (map_) ::munmap(map_, bytes_);
}

OpRing::OpRing(OpRing&& other) noexcept
    : name_(std::move(other.name_)),
      map_(std::exchange(other.map_, nullptr)),
      bytes_(other.bytes_),
      header_(std::exchange(other.header_, nullptr)),
      records_(std::exchange(other.records_, nullptr)) {}

OpRing& OpRing::operator=(OpRing&& other) noexcept {
  if (this != &other) {
    if (map_) ::munmap(map_, bytes_);
    name_ = std::move(other.name_);
    map_ = std::exchange(other.map_, nullptr);
    bytes_ = other.bytes_;
    header_ = std::exchange(other.header_, nullptr);
    records_ = std::exchange(other.records_, nullptr);
  }
  return *this;
}

void OpRing::remove() {
  if (map_) ::shm_unlink(name_.c_str());
}

std::optional<PublishedOp> OpRing::read(uint64_t position, bool& overrun) const {
  const OpRecord& r = records_[position % kOpRingCapacity];
  const auto want = static_cast<uint32_t>(position + 1);
  const uint32_t stamp = r.stamp.load(std::memory_order_acquire);
  overrun = false;
  if (stamp != want) {
    // A later lap's record: the writer has gone on past it.
    overrun = static_cast<int32_t>(stamp - want) > 0;
    return std::nullopt;
  }
  const PublishedOp op{r.src & 0x7FFFFFFFu, r.dst & 0x7FFFFFFFu, (r.src >> 31) != 0, (r.dst >> 31) != 0, r.weight};
  std::atomic_thread_fence(std::memory_order_acquire);
  if (r.stamp.load(std::memory_order_relaxed) != want) {
    overrun = true;
    return std::nullopt;
  }
  return op;
}

std::optional<std::unordered_map<uint64_t, OpRing::EdgeBefore>> OpRing::states_before(uint64_t from, uint64_t to,
                                                                                      bool out_trees,
                                                                                      std::string& why) const {
  std::unordered_map<uint64_t, EdgeBefore> before;  // per edge, its earliest operation read
  std::vector<uint64_t> unpublished;
  // Reads position p into `before`; false when it is not published yet.
  auto take = [&](uint64_t p, bool& overrun) {
    const std::optional<PublishedOp> op = read(p, overrun);
    if (!op) return false;
    const uint64_t key = out_trees ? uint64_t{op->src} << 32 | op->dst : uint64_t{op->dst} << 32 | op->src;
    const EdgeBefore state{op->present_before, op->weight_before, p};
    auto [at, inserted] = before.try_emplace(key, state);
    if (!inserted && p < at->second.position) at->second = state;
    return true;
  };
  bool overrun = false;
  for (uint64_t p = from; p < to && !overrun; ++p)
    if (!take(p, overrun)) unpublished.push_back(p);
  // Again until a whole pass finds none of them published: then no operation read (all before
  // that pass) came after one of them.
  std::vector<uint64_t> still;
  while (!unpublished.empty() && !overrun) {
    still.clear();
    for (size_t k = 0; k < unpublished.size() && !overrun; ++k)
      if (!take(unpublished[k], overrun)) still.push_back(unpublished[k]);
    if (still.size() == unpublished.size()) break;
    unpublished.swap(still);
  }
  if (overrun) {
    why = fmt::format("the writer went more than {} operations past version {} during the read", kOpRingCapacity, from);
    return std::nullopt;
  }
  return before;
}

uint64_t OpRing::exact_from() const { return header_->exact_from.load(std::memory_order_acquire); }

}  // namespace graphso::store
