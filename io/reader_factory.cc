#include <cstdio>

#include "base/enum_names.h"
#include "base/error.h"
#include "io/chunk_reader.h"

namespace graphso {

namespace {
constexpr EnumName<IoBackend> kBackendNames[] = {
    {IoBackend::Uring, "uring"}, {IoBackend::Pmem, "pmem"}, {IoBackend::Pread, "pread"}};
}  // namespace

IoBackend parse_io_backend(const std::string& name) { return parse_enum<IoBackend>(kBackendNames, name, "I/O backend"); }
const char* io_backend_name(IoBackend backend) { return enum_name<IoBackend>(kBackendNames, backend); }

std::unique_ptr<ChunkReader> ReaderFactory::open(const std::string& path) {
  std::unique_ptr<ChunkReader> reader;
  switch (options_.backend) {
    case IoBackend::Pmem: reader = open_pmem_reader(path); break;
    case IoBackend::Pread: reader = open_pread_reader(path, options_); break;
    case IoBackend::Uring:
      try {
        reader = open_uring_reader(path, options_);
      } catch (const UringUnavailable& e) {
        if (!fallback_noted_) {
          std::fprintf(stderr, "graphso: %s; using pread instead\n", e.what());
          fallback_noted_ = true;
        }
        reader = open_pread_reader(path, options_);
      }
      break;
  }
  if (!reader) fail("unknown I/O backend");
  reader->verify_with(page_sums(path), options_.verify_threads);
  return reader;
}

std::shared_ptr<const PageSums> ReaderFactory::page_sums(const std::string& path) {
  if (!options_.verify_reads) return nullptr;
  auto found = sums_.find(path);
  if (found != sums_.end()) return found->second;
  auto sums = std::make_shared<const PageSums>(PageSums::load(path, File(path, File::Mode::Read).size()));
  sums_.emplace(path, sums);
  return sums;
}

void ReaderFactory::use_page_sums(const std::string& path, std::shared_ptr<const PageSums> sums) {
  sums_[path] = std::move(sums);
}

}  // namespace graphso
