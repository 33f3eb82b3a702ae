// The I/O backends: correct bytes, accounting, merging, failed or short reads as errors, and
// every page verified against its checksum.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>

#include "base/error.h"
#include "base/file.h"
#include "io/chunk_reader.h"
#include "tests/test_graphs.h"

using namespace graphso;
using graphso::testing::TempDir;

namespace {

std::string make_file(const TempDir& dir, uint64_t bytes) {
  std::string path = dir.file("data");
  AtomicOutputFile out(path);
  std::vector<std::byte> content(bytes);
  for (uint64_t i = 0; i < bytes; ++i) content[i] = static_cast<std::byte>((i * 131) ^ (i >> 12));
  out.append(content);
  out.commit();
  write_page_sums(path);
  return path;
}

std::unique_ptr<ChunkReader> open_backend(IoBackend backend, const std::string& path, bool direct = true,
                                          bool verify = true) {
  ReaderOptions o;
  o.backend = backend;
  o.direct = direct;
  o.verify_reads = verify;
  o.max_request_bytes = 64 * 1024;
  return ReaderFactory(o).open(path);
}

}  // namespace

TEST_CASE("every backend reads the right bytes and counts them") {
  TempDir dir;
  const uint64_t size = 1 << 20;
  std::string path = make_file(dir, size);
  std::string want = read_small_file(path);
  for (IoBackend backend : {IoBackend::Uring, IoBackend::Pread, IoBackend::Pmem}) {
    INFO(io_backend_name(backend));
    auto reader = open_backend(backend, path);
    AlignedBuffer buffer(size);
    // Three adjacent requests (merged by uring) and one apart, submitted out of order.
    std::vector<ReadRequest> requests = {{8192, 4096, buffer.data() + 8192},
                                         {0, 8192, buffer.data()},
                                         {12288, 200704, buffer.data() + 12288},
                                         {512 * 1024, 256 * 1024, buffer.data() + 512 * 1024}};
    reader->read(requests);
    REQUIRE(std::memcmp(buffer.data(), want.data(), 212992) == 0);
    REQUIRE(std::memcmp(buffer.data() + 512 * 1024, want.data() + 512 * 1024, 256 * 1024) == 0);
    REQUIRE(reader->stats().bytes_read == 212992 + 256 * 1024);
    if (backend == IoBackend::Uring) REQUIRE(reader->stats().requests == 4 + 4);  // 212992 -> 4 x 64K pieces, 256K -> 4
  }
}

TEST_CASE("a short read is an error in every backend") {
  TempDir dir;
  std::string path = make_file(dir, 256 * 1024);
  for (IoBackend backend : {IoBackend::Uring, IoBackend::Pread, IoBackend::Pmem}) {
    INFO(io_backend_name(backend));
    auto reader = open_backend(backend, path);
    AlignedBuffer buffer(64 * 1024);
    ReadRequest past_end{240 * 1024, 64 * 1024, buffer.data()};
    REQUIRE_THROWS_WITH(reader->read(std::span<const ReadRequest>(&past_end, 1)), Catch::Contains("short read"));
  }
  // The file shrinking under an open reader (the data vanished after open) is caught too.
  auto reader = open_backend(IoBackend::Uring, path);
  File(path, File::Mode::ReadWrite).truncate(64 * 1024);
  AlignedBuffer buffer(128 * 1024);
  ReadRequest request{0, 128 * 1024, buffer.data()};
  REQUIRE_THROWS_WITH(reader->read(std::span<const ReadRequest>(&request, 1)), Catch::Contains("short read"));
}

TEST_CASE("io_uring continues a short count with a read of the rest, on real completions") {
  TempDir dir;
  const uint64_t size = 1 << 20;
  std::string path = make_file(dir, size);
  const std::string want = read_small_file(path);
  for (bool direct : {true, false})
    for (uint32_t every : {1u, 3u}) {
      INFO((direct ? "O_DIRECT" : "buffered") << ", every " << every << " reads asked for half");
      ReaderOptions o;
      o.direct = direct;
      o.max_request_bytes = 64 * 1024;
      o.short_read_every = every;
      auto reader = ReaderFactory(o).open(path);
      AlignedBuffer buffer(size);
      std::vector<ReadRequest> requests = {{0, 200704, buffer.data()}, {262144, 786432, buffer.data() + 262144}};
      reader->read(requests);
      REQUIRE(std::memcmp(buffer.data(), want.data(), 200704) == 0);
      REQUIRE(std::memcmp(buffer.data() + 262144, want.data() + 262144, 786432) == 0);
      // Every byte once, whatever the pieces it took.
      REQUIRE(reader->stats().bytes_read == 200704 + 786432);
      REQUIRE(reader->stats().retries > 0);
      REQUIRE(reader->stats().requests == 4 + 12 + reader->stats().retries);
      // The end of the file is still an error after the retries, naming the whole request.
      ReadRequest past_end{size - 8192, 64 * 1024, buffer.data()};
      REQUIRE_THROWS_WITH(reader->read(std::span<const ReadRequest>(&past_end, 1)),
                          Catch::Contains("short read: 8192 of 65536 bytes at offset 1040384"));
    }
  // A whole batch through readers that answer short: the results are the reference's.
  EdgeSet set = graphso::testing::rmat_edges(10, 8, true, 4, dir);
  const std::string graph = graphso::testing::prepare_graph(dir, set);
  ReaderOptions o;
  o.max_request_bytes = 16 * 1024;
  o.short_read_every = 2;
  ReaderFactory shortened(o);
  graphso::testing::RunOptions run;
  run.readers = &shortened;
  const std::vector<std::string> jobs = {"sssp:source=" + std::to_string(set.edges[0].src), "wcc"};
  for (Sharing mode : {Sharing::Independent, Sharing::Chunk}) {
    auto batch = graphso::testing::run_batch_on(graph, jobs, mode, graphso::testing::budget_for(graph, jobs, 0.25), run);
    REQUIRE(batch.report.io.retries > 0);
    for (size_t j = 0; j < jobs.size(); ++j) graphso::testing::check_against_reference(batch.specs[j], *batch.jobs[j], set);
  }
}

TEST_CASE("a failed read (the device returns an error) is an error, with the reason") {
  TempDir dir;
  std::filesystem::create_directory(dir.file("d"));
  // Reading a directory fails with EISDIR inside the kernel: a real error completion.
  for (IoBackend backend : {IoBackend::Uring, IoBackend::Pread}) {
    INFO(io_backend_name(backend));
    auto reader = open_backend(backend, dir.file("d"), false, false);
    AlignedBuffer buffer(4096);
    ReadRequest request{0, 4096, buffer.data()};
    REQUIRE_THROWS_WITH(reader->read(std::span<const ReadRequest>(&request, 1)), Catch::Contains("Is a directory"));
  }
}

TEST_CASE("O_DIRECT requests must be aligned") {
  TempDir dir;
  std::string path = make_file(dir, 64 * 1024);
  auto reader = open_backend(IoBackend::Uring, path);
  AlignedBuffer buffer(8192);
  ReadRequest request{100, 4096, buffer.data()};
  REQUIRE_THROWS_WITH(reader->read(std::span<const ReadRequest>(&request, 1)), Catch::Contains("unaligned"));
}

TEST_CASE("a page that differs from its checksum is an error in every backend, naming file, page and read") {
  TempDir dir;
  const uint64_t size = 256 * 1024;
  std::string path = make_file(dir, size);
  {
    File f(path, File::Mode::ReadWrite);
    const std::byte x{0x5a};
    f.pwrite_all(std::span<const std::byte>(&x, 1), 5 * 4096 + 77);  // page 5
  }
  for (IoBackend backend : {IoBackend::Uring, IoBackend::Pread, IoBackend::Pmem}) {
    INFO(io_backend_name(backend));
    auto reader = open_backend(backend, path);
    AlignedBuffer buffer(size);
    // Pages before the damaged one read fine; any read covering it fails.
    ReadRequest clean{0, 5 * 4096, buffer.data()};
    reader->read(std::span<const ReadRequest>(&clean, 1));
    ReadRequest whole{0, size, buffer.data()};
    REQUIRE_THROWS_WITH(reader->read(std::span<const ReadRequest>(&whole, 1)),
                        Catch::Contains(path + ": checksum mismatch in the page at offset 20480 (page 5, in a read of "));
    // Reading on after the error works: the reader is not left with a read in flight.
    reader->read(std::span<const ReadRequest>(&clean, 1));
  }
  // Without verification (--verify-reads off) the damaged page is handed out as it is.
  ReaderOptions off;
  off.verify_reads = false;
  AlignedBuffer buffer(4096);
  ReadRequest page5{5 * 4096, 4096, buffer.data()};
  ReaderFactory(off).open(path)->read(std::span<const ReadRequest>(&page5, 1));
  REQUIRE(buffer.data()[77] == std::byte{0x5a});
  // A sidecar for another size of the file, or none, is refused when the reader opens.
  File(path, File::Mode::ReadWrite).truncate(size - 4096);
  REQUIRE_THROWS_WITH(open_backend(IoBackend::Uring, path), Catch::Contains("data.sums: describes 262144 bytes, the file has 258048"));
  std::filesystem::remove(page_sums_path(path));
  REQUIRE_THROWS_WITH(open_backend(IoBackend::Uring, path), Catch::Contains("data.sums: missing"));
}

TEST_CASE("a missing file is an error, not a reason to fall back") {
  TempDir dir;
  REQUIRE_THROWS_WITH(open_backend(IoBackend::Uring, dir.file("missing")), Catch::Contains("cannot open"));
  REQUIRE_THROWS_WITH(open_backend(IoBackend::Pmem, dir.file("missing")), Catch::Contains("pmem_map_file failed"));
}
