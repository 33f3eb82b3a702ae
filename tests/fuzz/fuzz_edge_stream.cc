// Edge streams (`ingest --input -`): the first byte picks the piece size the parser is fed in (a
// pipe hands out any split), whether text weights are reals, and a vertex limit; the rest is the
// stream, text or binary. Parsed whole, or refused with one line naming where; the operations
// handed out are the same whatever the split.
#include <vector>

#include "datasets/edge_stream.h"
#include "tests/fuzz/fuzz_target.h"

GRAPHSO_FUZZ_TARGET(edge_stream) {
  if (size < 1) return 0;
  const uint8_t how = data[0];
  const size_t piece = 1 + (how & 0x3f) * 4;
  graphso::EdgeStreamOptions options{"in", (how & 0x40) != 0, (how & 0x80) ? 1000 : graphso::kMaxVertexId + 1};
  const auto* stream = reinterpret_cast<const std::byte*>(data + 1);
  const size_t length = size - 1;
  auto parse = [&](size_t step, std::vector<graphso::StreamOp>& out) {
    graphso::EdgeStreamParser parser(options);
    try {
      for (size_t at = 0; at < length; at += step)
        parser.feed(std::span(stream + at, std::min(step, length - at)), out);
      parser.finish(out);
    } catch (const graphso::Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  std::vector<graphso::StreamOp> split, whole;
  const std::string error = parse(piece, split);
  // The same stream in one piece: the same operations and the same verdict.
  if (parse(length + 1, whole) != error || split.size() != whole.size()) std::abort();
  for (size_t i = 0; i < split.size(); ++i)
    if (split[i].deletion != whole[i].deletion || split[i].edge.src != whole[i].edge.src ||
        split[i].edge.dst != whole[i].edge.dst || split[i].edge.weight != whole[i].edge.weight)
      std::abort();
  if (error.empty()) graphso::fuzz::accepted();
  else graphso::fuzz::rejected(graphso::Error(error));
  return 0;
}
