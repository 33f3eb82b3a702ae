// The Stream VByte decoder against the library that writes the streams (and whose own decoder it
// replaces, base/stream_vbyte_decoder.h): value for value on both codings, on every length of
// value, on counts that end mid-control-byte, with the vector loads allowed and not; and a stream
// whose control bytes disagree with its length is refused before anything is written.
#include <catch2/catch.hpp>

#include <streamvbyte.h>

#include <random>
#include <vector>

#include "base/stream_vbyte_decoder.h"

using namespace graphso;

namespace {

// Values of every encoded length: 0, one to four bytes.
std::vector<uint32_t> mixed_values(std::mt19937& rng, uint32_t count) {
  std::vector<uint32_t> values(count);
  for (uint32_t& v : values) {
    const uint32_t bits = rng() % 33;  // 0..32 significant bits
    v = bits == 0 ? 0 : static_cast<uint32_t>(rng()) >> (32 - bits);
  }
  return values;
}

std::vector<uint8_t> library_encode(VByteCoding coding, const std::vector<uint32_t>& values) {
  std::vector<uint8_t> stream(streamvbyte_max_compressedbytes(static_cast<uint32_t>(values.size())) + 16);
  const uint32_t n = static_cast<uint32_t>(values.size());
  const size_t bytes = coding == VByteCoding::k1234 ? streamvbyte_encode(values.data(), n, stream.data())
                                                    : streamvbyte_encode_0124(values.data(), n, stream.data());
  stream.resize(bytes);
  return stream;
}

}  // namespace

TEST_CASE("stream vbyte decoder: equals the library's decoder on both codings, any count, any readable margin") {
  std::mt19937 rng(11);
  for (VByteCoding coding : {VByteCoding::k1234, VByteCoding::k0124})
    for (uint32_t count : {0u, 1u, 2u, 3u, 4u, 5u, 7u, 8u, 63u, 64u, 65u, 1000u, 4099u}) {
      const std::vector<uint32_t> values = mixed_values(rng, count);
      const std::vector<uint8_t> stream = library_encode(coding, values);
      std::vector<uint32_t> expected(count + 4, 0xDEADBEEF);
      if (coding == VByteCoding::k1234) streamvbyte_decode(stream.data(), expected.data(), count);
      else streamvbyte_decode_0124(stream.data(), expected.data(), count);
      expected.resize(count);
      REQUIRE(expected == values);  // the library round-trips: the reference is sound
      // Exactly the stream readable (the last values go byte by byte), then a page's worth beyond.
      for (uint64_t margin : {uint64_t{0}, uint64_t{15}, uint64_t{4096}}) {
        INFO("coding " << static_cast<int>(coding) << ", " << count << " values, " << margin << " bytes readable beyond");
        std::vector<uint8_t> buffer(stream);
        buffer.resize(stream.size() + margin, 0xAB);  // what follows a stream is not zero in a page
        std::vector<uint32_t> got(count, 0xDEADBEEF);
        REQUIRE(decode_stream_vbyte(coding, buffer.data(), stream.size(), buffer.size(), count, got.data()));
        CHECK(got == values);
      }
    }
}

TEST_CASE("stream vbyte decoder: a length the control bytes disagree with is refused, nothing written") {
  std::mt19937 rng(12);
  const std::vector<uint32_t> values = mixed_values(rng, 100);
  for (VByteCoding coding : {VByteCoding::k1234, VByteCoding::k0124}) {
    std::vector<uint8_t> stream = library_encode(coding, values);
    std::vector<uint32_t> got(values.size(), 7);
    const uint64_t bytes = stream.size();
    stream.resize(bytes + 64, 0);
    CHECK_FALSE(decode_stream_vbyte(coding, stream.data(), bytes - 1, stream.size(), 100, got.data()));
    CHECK_FALSE(decode_stream_vbyte(coding, stream.data(), bytes + 1, stream.size(), 100, got.data()));
    CHECK_FALSE(decode_stream_vbyte(coding, stream.data(), 10, stream.size(), 100, got.data()));  // not even the control
    stream[0] ^= 0x03;  // the first value's length changes: the data no longer ends where the stream does
    CHECK_FALSE(decode_stream_vbyte(coding, stream.data(), bytes, stream.size(), 100, got.data()));
    CHECK(got == std::vector<uint32_t>(values.size(), 7));
  }
}
