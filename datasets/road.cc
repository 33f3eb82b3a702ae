#include "datasets/road.h"

#include <algorithm>
#include <vector>

#include "datasets/edge_list.h"
#include "base/mix.h"
#include "base/error.h"

namespace graphso {
namespace {

// Interleaves the bits of x and y (x in the even bits).
uint64_t morton(uint32_t x, uint32_t y) {
  uint64_t code = 0;
  for (int bit = 0; bit < 32; ++bit)
    code |= (uint64_t{(x >> bit) & 1u} << (2 * bit)) | (uint64_t{(y >> bit) & 1u} << (2 * bit + 1));
  return code;
}

}  // namespace

void check_road_options(const RoadOptions& o) {
  if (o.width < 1 || o.height < 1) fail("--width and --height must be at least 1");
  if (uint64_t{o.width} * o.height > kMaxVertexId + 1)
    fail("{} x {} intersections exceed the vertex id space", o.width, o.height);
  if (o.drop < 0 || o.drop >= 1) fail("--drop {} is outside [0, 1)", o.drop);
  if (o.weighted && o.max_weight < 1) fail("--max-weight must be at least 1");
}

VertexId generate_road(const RoadOptions& o, const std::string& out_path) {
  check_road_options(o);
  const uint64_t n = uint64_t{o.width} * o.height;

  // Id of (x, y) = its rank in Z-order among the grid's points (no gaps when not a power of two).
  std::vector<std::pair<uint64_t, uint64_t>> order(n);
  for (uint32_t y = 0; y < o.height; ++y)
    for (uint32_t x = 0; x < o.width; ++x) order[uint64_t{y} * o.width + x] = {morton(x, y), uint64_t{y} * o.width + x};
  std::sort(order.begin(), order.end());
  std::vector<VertexId> id(n);
  for (uint64_t rank = 0; rank < n; ++rank) id[order[rank].second] = static_cast<VertexId>(rank);

  EdgeListWriter writer(out_path, o.weighted);
  const uint64_t keep = static_cast<uint64_t>((1 - o.drop) * 18446744073709551615.0);
  std::vector<WeightedEdge> batch;
  for (uint32_t y = 0; y < o.height; ++y)
    for (uint32_t x = 0; x < o.width; ++x) {
      uint64_t cell = uint64_t{y} * o.width + x;
      for (int direction = 0; direction < 2; ++direction) {
        bool right = direction == 0;
        if (right ? x + 1 == o.width : y + 1 == o.height) continue;
        uint64_t random = mix64(o.seed ^ mix64(cell * 2 + direction));
        if (random > keep) continue;
        uint64_t other = right ? cell + 1 : cell + o.width;
        Weight w = o.weighted ? 1 + static_cast<Weight>(mix64(random) % o.max_weight) : 1;
        batch.push_back({id[cell], id[other], w});
        batch.push_back({id[other], id[cell], w});
      }
      if (batch.size() > (1u << 20)) {
        writer.append(batch);
        batch.clear();
      }
    }
  writer.append(batch);
  writer.finish(n);
  return id[uint64_t{o.height / 2} * o.width + o.width / 2];
}

}  // namespace graphso
