// CRC-32 (zlib's) over byte ranges, for meta, tables and block contents; CRC-32C (Castagnoli)
// with the SSE4.2 instruction where a hot path checks what it reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace graphso {

uint32_t crc32_of(std::span<const std::byte> bytes, uint32_t crc = 0);
// The CRC-32 of A followed by B from crc32_of(A), crc32_of(B) and B's length (zlib's
// crc32_combine64): a file whose head is written last is checksummed without reading it back.
uint32_t crc32_combine(uint32_t crc_a, uint32_t crc_b, uint64_t length_b);
uint32_t crc32c_of(std::span<const std::byte> bytes, uint32_t crc = 0);
// CRC-32C of each page_bytes-long page of `bytes` (whose size is a multiple of page_bytes, and of
// 8) into crcs[0..pages): pages are independent, so four are computed at once and the crc32
// instruction's three-cycle latency is hidden (about 3x crc32c_of's speed).
void crc32c_of_pages(std::span<const std::byte> bytes, uint64_t page_bytes, std::span<uint32_t> crcs);

}  // namespace graphso
