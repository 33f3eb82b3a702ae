// CRC-32 (zlib's) over byte ranges, for meta, tables and block contents; CRC-32C (Castagnoli)
// with the SSE4.2 instruction where a hot path checks what it reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace graphso {

uint32_t crc32_of(std::span<const std::byte> bytes, uint32_t crc = 0);
uint32_t crc32c_of(std::span<const std::byte> bytes, uint32_t crc = 0);

}  // namespace graphso
