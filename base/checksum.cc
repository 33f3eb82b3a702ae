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

void crc32c_of_pages(std::span<const std::byte> bytes, uint64_t page_bytes, std::span<uint32_t> crcs) {
  const uint64_t pages = bytes.size() / page_bytes;
  const std::byte* base = bytes.data();
  auto word = [](const std::byte* p) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
  };
  uint64_t page = 0;
  for (; page + 4 <= pages; page += 4) {
    const std::byte* p0 = base + page * page_bytes;
    const std::byte* p1 = p0 + page_bytes;
    const std::byte* p2 = p1 + page_bytes;
    const std::byte* p3 = p2 + page_bytes;
    uint64_t c0 = 0xffffffffu, c1 = 0xffffffffu, c2 = 0xffffffffu, c3 = 0xffffffffu;
    for (uint64_t at = 0; at < page_bytes; at += 8) {
      c0 = _mm_crc32_u64(c0, word(p0 + at));
      c1 = _mm_crc32_u64(c1, word(p1 + at));
      c2 = _mm_crc32_u64(c2, word(p2 + at));
      c3 = _mm_crc32_u64(c3, word(p3 + at));
    }
    crcs[page] = ~static_cast<uint32_t>(c0);
    crcs[page + 1] = ~static_cast<uint32_t>(c1);
    crcs[page + 2] = ~static_cast<uint32_t>(c2);
    crcs[page + 3] = ~static_cast<uint32_t>(c3);
  }
  for (; page < pages; ++page) crcs[page] = crc32c_of(bytes.subspan(page * page_bytes, page_bytes));
}

}  // namespace graphso
