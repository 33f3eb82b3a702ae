// Decoding of Stream VByte streams (the format libstreamvbyte writes: the control bytes, two bits
// a value giving its length, then the values' little-endian data bytes), with one SSSE3 shuffle
// per control byte.
//
// Why not the library's decoder: Debian 12's libstreamvbyte0 (0.4.1-4) is built without
// optimisation and without its SIMD path (no pshufb in the .so; its decode takes about 12 ns a
// value here), which made decoding the packed graph cost more than reading the raw one. The
// library still writes every stream (base/packed_pages.cc) and is the reference the unit tests
// hold this decoder to, value for value, on both codings.
#pragma once

#include <cstdint>

namespace graphso {

// Which lengths the two control bits select: 1, 2, 3 or 4 bytes (streamvbyte_encode) or 0, 1, 2
// or 4 bytes (streamvbyte_encode_0124, where a zero takes no data byte).
enum class VByteCoding { k1234, k0124 };

// Decodes `count` values from the stream at `in`, which takes exactly `bytes` bytes (control bytes
// included), into `out`. `readable` (>= bytes) is how many bytes from `in` may be read: a vector
// load reads up to 15 bytes past a value's data, and is used only where those bytes are readable.
// Returns false, having written nothing, when the control bytes do not describe exactly `bytes`.
bool decode_stream_vbyte(VByteCoding coding, const uint8_t* in, uint64_t bytes, uint64_t readable, uint32_t count,
                         uint32_t* out);

}  // namespace graphso
