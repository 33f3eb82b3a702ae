#include "base/stream_vbyte_decoder.h"

#include <tmmintrin.h>

#include <array>
#include <cstring>

namespace graphso {
namespace {

// A coding's byte length per two-bit code; per control byte, the data bytes of its four values and
// the pshufb mask that moves them into four 32-bit lanes (0x80: a zero byte).
struct ControlTables {
  std::array<uint8_t, 4> code_length{};
  std::array<uint8_t, 256> length{};
  std::array<std::array<uint8_t, 16>, 256> shuffle{};
};

constexpr ControlTables make_tables(std::array<uint8_t, 4> lengths) {
  ControlTables t;
  t.code_length = lengths;
  for (int c = 0; c < 256; ++c) {
    uint8_t at = 0;
    for (int v = 0; v < 4; ++v) {
      const uint8_t n = lengths[(c >> (2 * v)) & 3];
      for (int b = 0; b < 4; ++b) t.shuffle[c][4 * v + b] = b < n ? static_cast<uint8_t>(at + b) : 0x80;
      at = static_cast<uint8_t>(at + n);
    }
    t.length[c] = at;
  }
  return t;
}

constexpr ControlTables k1234 = make_tables({1, 2, 3, 4});
constexpr ControlTables k0124 = make_tables({0, 1, 2, 4});

}  // namespace

bool decode_stream_vbyte(VByteCoding coding, const uint8_t* in, uint64_t bytes, uint64_t readable, uint32_t count,
                         uint32_t* out) {
  const ControlTables& tables = coding == VByteCoding::k1234 ? k1234 : k0124;
  const std::array<uint8_t, 4>& lengths = tables.code_length;
  const uint64_t whole = count / 4, rest = count % 4, control = (uint64_t{count} + 3) / 4;
  if (control > bytes) return false;

  // The lengths first, so that no value is read from outside the stream.
  uint64_t data = 0;
  for (uint64_t k = 0; k < whole; ++k) data += tables.length[in[k]];
  for (uint64_t v = 0; v < rest; ++v) data += lengths[(in[whole] >> (2 * v)) & 3];
  if (control + data != bytes) return false;

  const uint8_t* at = in + control;
  const uint8_t* const vector_end = readable >= 16 ? in + readable - 16 : in;  // a 16-byte load from here is readable
  uint64_t k = 0;
  for (; k < whole && at <= vector_end; ++k) {
    const uint8_t c = in[k];
    const __m128i raw = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
    const __m128i mask = _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.shuffle[c].data()));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 4 * k), _mm_shuffle_epi8(raw, mask));
    at += tables.length[c];
  }
  // The last values, byte by byte: near the end of what is readable, and a partial control byte.
  for (uint64_t v = 4 * k; v < count; ++v) {
    const uint8_t n = lengths[(in[v / 4] >> (2 * (v % 4))) & 3];
    uint32_t value = 0;
    std::memcpy(&value, at, n);  // little-endian: the low bytes
    out[v] = value;
    at += n;
  }
  return true;
}

}  // namespace graphso
