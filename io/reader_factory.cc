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
  switch (options_.backend) {
    case IoBackend::Pmem: return open_pmem_reader(path);
    case IoBackend::Pread: return open_pread_reader(path, options_);
    case IoBackend::Uring:
      try {
        return open_uring_reader(path, options_);
      } catch (const UringUnavailable& e) {
        if (!fallback_noted_) {
          std::fprintf(stderr, "graphso: %s; using pread instead\n", e.what());
          fallback_noted_ = true;
        }
        return open_pread_reader(path, options_);
      }
  }
  fail("unknown I/O backend");
}

}  // namespace graphso
