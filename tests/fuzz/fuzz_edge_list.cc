// Foreign edge lists: the first byte picks the format (text, weighted text, Matrix Market, raw)
// and whether the rest is gzip-compressed by the harness (so mutations reach the parser through
// the decompressor) or handed over as a .gz as it is (so they reach the decompressor). Read, then
// transformed, or refused with one line naming the file.
#include <zlib.h>

#include <string>
#include <vector>

#include "datasets/edge_input.h"
#include "tests/fuzz/fuzz_target.h"

namespace {

std::vector<uint8_t> gzip(const uint8_t* data, size_t size) {
  std::vector<uint8_t> out(compressBound(static_cast<uLong>(size)) + 64);
  z_stream z{};
  if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) std::abort();
  z.next_in = const_cast<Bytef*>(data);
  z.avail_in = static_cast<uInt>(size);
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) std::abort();
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

}  // namespace

GRAPHSO_FUZZ_TARGET(edge_list) {
  if (size < 1) return 0;
  static const char* const kNames[] = {"in.el", "in.wel", "in.mtx", "in.raw"};
  const uint8_t how = data[0];
  std::string name = kNames[how % 4];
  const int compression = (how >> 2) % 3;  // 0 plain, 1 gzip made here, 2 bytes as a .gz
  graphso::fuzz::clear_scratch_directory();
  std::string path;
  if (compression == 1) {
    const std::vector<uint8_t> packed = gzip(data + 1, size - 1);
    path = graphso::fuzz::write_scratch_file(name + ".gz", packed.data(), packed.size());
  } else {
    path = graphso::fuzz::write_scratch_file(compression == 2 ? name + ".gz" : name, data + 1, size - 1);
  }
  graphso::EdgeInputOptions options;
  options.weighted = (how >> 4) & 1;
  try {
    graphso::EdgeSet set = graphso::read_edge_input(path, options);
    graphso::EdgeTransforms transforms;
    transforms.symmetrize = (how >> 5) & 1;
    transforms.drop_self_loops = (how >> 6) & 1;
    transforms.dedup = (how >> 7) & 1;
    if (set.edges.size() < (1u << 20)) graphso::apply_transforms(set, transforms);
    graphso::fuzz::accepted();
  } catch (const graphso::Error& e) {
    graphso::fuzz::rejected(e);
  }
  return 0;
}
