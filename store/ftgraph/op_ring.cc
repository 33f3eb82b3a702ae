#include "store/ftgraph/op_ring.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "base/error.h"

namespace graphso::store {

struct OpRing::Header {
  uint64_t magic;
  uint64_t store_id;
  uint64_t capacity;
  std::atomic<uint64_t> exact_from;
  uint64_t reserved[4];
};

namespace {

constexpr uint64_t kMagic = 0x474E4952534F4750ull;  // "PGOSRING"
constexpr uint64_t kBytes = 64 + kOpRingCapacity * sizeof(OpRecord);

std::string ring_name(const std::string& store_path) {
  struct stat st {};
  if (::stat(store_path.c_str(), &st) != 0) fail("{}: cannot stat the store: {}", store_path, errno_text(errno));
  return "/graphso-ftgraph-" + std::to_string(st.st_dev) + "-" + std::to_string(st.st_ino);
}

void* map_fd(int fd, int prot, const std::string& name) {
  void* map = ::mmap(nullptr, kBytes, prot, MAP_SHARED, fd, 0);
  const int error = errno;
  ::close(fd);
  if (map == MAP_FAILED) fail("/dev/shm{}: cannot map the operation ring: {}", name, errno_text(error));
  return map;
}

}  // namespace

OpRing::OpRing(std::string name, void* map, uint64_t bytes)
    : name_(std::move(name)),
      map_(map),
      bytes_(bytes),
      header_(static_cast<Header*>(map)),
      records_(reinterpret_cast<OpRecord*>(static_cast<std::byte*>(map) + 64)) {}

OpRing OpRing::create(const std::string& store_path, uint64_t store_id, uint64_t exact_from) {
  static_assert(sizeof(Header) == 64);
  const std::string name = ring_name(store_path);
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
    h.capacity = kOpRingCapacity;
    h.exact_from.store(exact_from, std::memory_order_release);
    std::atomic_thread_fence(std::memory_order_release);
    h.magic = kMagic;
  } else {
    // Released before this writer publishes anything over the records of the last one.
    h.exact_from.store(exact_from, std::memory_order_seq_cst);
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

uint64_t OpRing::exact_from() const { return header_->exact_from.load(std::memory_order_acquire); }

}  // namespace graphso::store
