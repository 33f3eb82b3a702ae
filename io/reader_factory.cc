#include <cstdio>

#include "base/error.h"
#include "io/chunk_reader.h"

namespace graphso {

IoBackend parse_io_backend(const std::string& name) {
  if (name == "uring") return IoBackend::Uring;
  if (name == "pmem") return IoBackend::Pmem;
  if (name == "pread") return IoBackend::Pread;
  fail("unknown I/O backend '{}' (expected uring, pmem or pread)", name);
}

const char* io_backend_name(IoBackend backend) {
  switch (backend) {
    case IoBackend::Uring: return "uring";
    case IoBackend::Pmem: return "pmem";
    case IoBackend::Pread: return "pread";
  }
  return "?";
}

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
