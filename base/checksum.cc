#include "base/checksum.h"

#include <nmmintrin.h>
#include <zlib.h>

#include <cstring>

namespace graphso {

uint32_t crc32_of(std::span<const std::byte> bytes, uint32_t crc) {
  // zlib takes uInt lengths; feed large ranges in pieces.
  const auto* p = reinterpret_cast<const Bytef*>(bytes.data());
  uint64_t left = bytes.size();
  uLong c = crc;
  while (left > 0) {
    uInt piece = static_cast<uInt>(std::min<uint64_t>(left, 1u << 30));
    c = ::crc32(c, p, piece);
    p += piece;
    left -= piece;
  }
  return static_cast<uint32_t>(c);
}

uint32_t crc32_combine(uint32_t crc_a, uint32_t crc_b, uint64_t length_b) {
  return static_cast<uint32_t>(::crc32_combine64(crc_a, crc_b, static_cast<z_off64_t>(length_b)));
}

uint32_t crc32c_of(std::span<const std::byte> bytes, uint32_t crc) {
  // The build targets x86-64-v2, which has SSE4.2's crc32 instruction.
  uint64_t c = ~crc;
  const std::byte* p = bytes.data();
  uint64_t left = bytes.size();
  for (; left >= 8; p += 8, left -= 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    c = _mm_crc32_u64(c, word);
  }
  uint32_t c32 = static_cast<uint32_t>(c);
  for (; left > 0; ++p, --left) c32 = _mm_crc32_u8(c32, static_cast<uint8_t>(*p));
  return ~c32;
}

}  // namespace graphso
