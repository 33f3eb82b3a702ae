#include "datasets/rmat.h"

#include <vector>

#include "datasets/edge_list.h"
#include "base/mix.h"
#include "base/error.h"
#include "base/progress.h"

namespace graphso {
namespace {

// A bijection on [0, 2^scale): odd multiplications and xor-shifts, each invertible mod 2^scale.
class IdScrambler {
 public:
  IdScrambler(uint32_t scale, uint64_t seed)
      : mask_(scale >= 64 ? ~0ull : (1ull << scale) - 1),
        shift_(std::max<uint32_t>(1, scale / 2)),
        k1_(mix64(seed) | 1),
        k2_(mix64(seed + 1) | 1),
        add_(mix64(seed + 2)) {}
  uint64_t operator()(uint64_t v) const {
    v = (v * k1_ + add_) & mask_;
    v ^= v >> shift_;
    v = (v * k2_) & mask_;
    v ^= v >> shift_;
    return v;
  }

 private:
  uint64_t mask_;
  uint32_t shift_;
  uint64_t k1_, k2_, add_;
};

}  // namespace

void check_rmat_options(const RmatOptions& o) {
  if (o.scale < 1 || o.scale > 31) fail("--scale {} is outside 1..31", o.scale);
  if (o.edge_factor < 1) fail("--edge-factor must be at least 1");
  if (o.weighted && o.max_weight < 1) fail("--max-weight must be at least 1");
}

void generate_rmat(const RmatOptions& o, const std::string& out_path) {
  check_rmat_options(o);
  const uint64_t vertices = 1ull << o.scale;
  const uint64_t edges = uint64_t{o.edge_factor} << o.scale;
  // Quadrant thresholds in 16-bit fixed point: each random 64-bit word serves four levels.
  const uint32_t ta = static_cast<uint32_t>(o.a * 65536);
  const uint32_t tab = static_cast<uint32_t>((o.a + o.b) * 65536);
  const uint32_t tabc = static_cast<uint32_t>((o.a + o.b + o.c) * 65536);
  const IdScrambler scramble(o.scale, o.seed);
  const uint64_t seed = mix64(o.seed ^ 0x6772617068736f00ull);

  EdgeListWriter writer(out_path, o.weighted);
  Progress progress("generate", edges, "edges");
  constexpr uint64_t kBatch = 1 << 22;
  std::vector<WeightedEdge> batch;
  for (uint64_t first = 0; first < edges; first += kBatch) {
    uint64_t count = std::min(kBatch, edges - first);
    batch.resize(count);
#pragma omp parallel for schedule(static)
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t index = first + i;
      uint64_t src = 0, dst = 0, random = 0;
      for (uint32_t level = 0; level < o.scale; ++level) {
        if (level % 4 == 0) random = mix64(seed ^ mix64(index * 8 + level / 4));
        uint32_t r = static_cast<uint32_t>(random & 0xFFFF);
        random >>= 16;
        uint64_t src_bit = r >= tab, dst_bit = (r >= ta && r < tab) || r >= tabc;
        src = (src << 1) | src_bit;
        dst = (dst << 1) | dst_bit;
      }
      Weight w = 1;
      if (o.weighted) w = 1 + static_cast<Weight>(mix64(seed ^ mix64(~index)) % o.max_weight);
      batch[i] = {static_cast<VertexId>(scramble(src)), static_cast<VertexId>(scramble(dst)), w};
    }
    writer.append(batch);
    progress.update(first + count);
  }
  writer.finish(vertices);
}

}  // namespace graphso
