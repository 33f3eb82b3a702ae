#include "datasets/skewed_stream.h"

#include <vector>

#include "base/error.h"
#include "base/mix.h"
#include "base/progress.h"
#include "datasets/edge_list.h"

namespace graphso {

void check_skewed_stream_options(const SkewedStreamOptions& o) {
  if (o.scale < 1 || o.scale > 31) fail("--scale {} is outside 1..31", o.scale);
  if (o.edge_factor < 1) fail("--edge-factor must be at least 1");
  if (!(o.hot_fraction > 0 && o.hot_fraction <= 1)) fail("--hot {} is outside (0, 1]", o.hot_fraction);
  if (!(o.hot_share >= 0 && o.hot_share <= 1)) fail("--hot-share {} is outside [0, 1]", o.hot_share);
  if (o.weighted && o.max_weight < 1) fail("--max-weight must be at least 1");
}

void generate_skewed_stream(const SkewedStreamOptions& o, const std::string& out_path) {
  check_skewed_stream_options(o);
  const uint64_t vertices = 1ull << o.scale;
  const uint64_t edges = uint64_t{o.edge_factor} << o.scale;
  const uint64_t hot = std::max<uint64_t>(1, static_cast<uint64_t>(o.hot_fraction * static_cast<double>(vertices)));
  const uint64_t range = vertices / hot;
  const uint64_t seed = mix64(o.seed ^ 0x736b657765640000ull);
  const auto share = static_cast<uint64_t>(o.hot_share * 65536.0);
  auto hot_vertex = [&](uint64_t k) { return k * range + mix64(seed + k) % range; };
  // One end of edge `index` (end 0: source, 1: destination).
  auto end = [&](uint64_t index, uint64_t which) {
    const uint64_t r = mix64(seed ^ mix64(index * 2 + which));
    return static_cast<VertexId>((r & 0xFFFF) < share ? hot_vertex((r >> 16) % hot) : (r >> 16) % vertices);
  };

  EdgeListWriter writer(out_path, o.weighted);
  Progress progress("generate", edges, "edges");
  constexpr uint64_t kBatch = 1 << 22;
  std::vector<WeightedEdge> batch;
  for (uint64_t first = 0; first < edges; first += kBatch) {
    const uint64_t count = std::min(kBatch, edges - first);
    batch.resize(count);
#pragma omp parallel for schedule(static)
    for (uint64_t i = 0; i < count; ++i) {
      const uint64_t index = first + i;
      Weight w = 1;
      if (o.weighted) w = 1 + static_cast<Weight>(mix64(seed ^ mix64(~index)) % o.max_weight);
      batch[i] = {end(index, 0), end(index, 1), w};
    }
    writer.append(batch);
    progress.update(first + count);
  }
  writer.finish(vertices);
}

}  // namespace graphso
