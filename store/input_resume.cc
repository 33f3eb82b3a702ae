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

namespace {
constexpr std::string_view kStreamPrefix = "stream:";
}

InputProgress identify_stream(const std::string& name) {
  InputProgress id;
  id.path = std::string(kStreamPrefix) + name;
  id.edges = UINT64_MAX;
  return id;
}

bool is_stream_input(const InputProgress& input) {
  return input.path.starts_with(kStreamPrefix) && input.size == 0 && input.edges == UINT64_MAX;
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

uint64_t resume_input(GraphStore& store, const InputProgress& input, std::optional<uint64_t> acknowledged) {
  const uint64_t head = store.status().head;
  if (acknowledged) {
    if (*acknowledged > input.edges)
      fail("{}: --acknowledged {} is more than the {} edges of {}", store.path(), *acknowledged, input.edges, input.path);
    store.begin_input(input, *acknowledged);
    return *acknowledged;
  }
  const InputRecords records = store.input();
  if (!records.current) {
    if (head > 0)
      fail("{}: corrupt store: both copies of the input record are damaged{}, and the log holds {} edges from inputs "
           "it can no longer name, so resuming could log an input twice; run `graphso store-check {}` to see what the "
           "store holds, then run this command again with --acknowledged N, N being how many of {}'s edges are "
           "already in the store (0 if it was not being ingested; at most {})",
           store.path(), records.damaged[0] || records.damaged[1] ? "" : " (zeroed)", head, store.path(), input.path,
           std::min(head, input.edges));
    store.begin_input(input);
    return 0;
  }
  const InputProgress& current = *records.current;
  if (current.start > head)
    fail("{}: corrupt store: the input record says {} began at log position {}, past the log head {}", store.path(),
         current.path, current.start, head);
  if (!current.same_input(input)) {
    // ftgraph: a batch of the current input is partly in the trees and only that input can finish
    // it (set semantics make its replay exact); any other would leave it half applied.
    const StoreStatus s = store.status();
    if (s.applying > head)
      fail("{}: operations {}..{} of {} are partly applied (its ingest stopped in a batch); run that ingest again to "
           "finish them before ingesting {}", store.path(), head, s.applying - 1, current.path, input.path);
    store.begin_input(input);
    return 0;
  }
  const uint64_t done = head - current.start;
  if (done > input.edges)
    fail("{}: the store logged {} edges since {} started, more than its {}", store.path(), done, input.path, input.edges);
  return done;
}

}  // namespace graphso::store
