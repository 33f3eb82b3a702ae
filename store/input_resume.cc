#include "store/input_resume.h"

#include <algorithm>
#include <filesystem>
#include <vector>

#include "base/checksum.h"
#include "base/error.h"
#include "base/file.h"

namespace graphso::store {

InputProgress identify_input(const std::string& path, const EdgeListInfo& info, bool deletes) {
  InputProgress id;
  id.path = std::filesystem::absolute(path).lexically_normal().string();
  File file(path, File::Mode::Read);
  id.size = file.size();
  std::vector<std::byte> head(std::min<uint64_t>(id.size, 4096));
  file.pread_exact(head, 0);
  id.head_crc = crc32_of(head);
  id.edges = info.edges;
  id.deletes = deletes;
  return id;
}

void check_input_ids(EdgeListReader& reader, uint64_t vertices, const std::string& path) {
  std::vector<Edge> batch;
  uint64_t at = 0;
  reader.rewind();
  while (reader.next_batch(batch, 1 << 20)) {
    for (const Edge& e : batch) {
      if (e.src >= vertices || e.dst >= vertices)
        fail("{}: edge {} ({} -> {}) names a vertex outside the store's {} vertices", path, at, e.src, e.dst, vertices);
      ++at;
    }
  }
}

uint64_t resume_input(GraphStore& store, const InputProgress& input) {
  std::optional<InputProgress> current = store.input();
  if (!current || !current->same_input(input)) {
    store.begin_input(input);
    return 0;
  }
  const uint64_t done = store.status().head - current->start;
  if (done > input.edges)
    fail("{}: the store logged {} edges since {} started, more than its {}", store.path(), done, input.path, input.edges);
  return done;
}

}  // namespace graphso::store
