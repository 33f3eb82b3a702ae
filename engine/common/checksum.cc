#include "engine/common/checksum.h"

#include <zlib.h>

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

}  // namespace graphso
