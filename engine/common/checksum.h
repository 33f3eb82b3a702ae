// CRC-32 (zlib's) over byte ranges, for meta, tables and block contents.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace graphso {

uint32_t crc32_of(std::span<const std::byte> bytes, uint32_t crc = 0);

}  // namespace graphso
