// A chunk of packed pages kept decoded (issue 68): the source groups the engine's edge loops read
// (base/edge_run.h, SourceGroups), laid out in one block of memory so the chunk cache can hold it
// as it holds bytes. A chunk served this way costs a round no decode: on R-MAT 20 with the graph
// resident, decoding every cached chunk every round was a third of a BFS's processor time.
//
// The block, every field 4 bytes (so every array is aligned for its type):
//   groups, edges            u64 each (the header, 16 bytes)
//   sources[groups], firsts[groups], highest[groups], offsets[groups + 1]
//   deltas[edges], weights[edges] (weighted graphs only)
// A packed page's group is one per source run; pages decoded together merge a source split
// between them, so a chunk decoded whole has a group per distinct source (ChunkInfo's count).
#pragma once

#include <cstddef>
#include <cstdint>

#include "base/edge_run.h"
#include "base/packed_pages.h"

namespace graphso {

// The bytes a decoded chunk of `groups` groups and `edges` edges takes.
uint64_t decoded_chunk_bytes(uint64_t groups, uint64_t edges, bool weighted);
// Writes `decoded` (one decode of a chunk's pages) into `to`, which holds
// decoded_chunk_bytes(decoded.groups, decoded.edges, weighted).
void write_decoded_chunk(const DecodedGroups& decoded, bool weighted, std::byte* to);
// The groups a block written by write_decoded_chunk holds, every edge of them.
SourceGroups decoded_chunk_groups(const std::byte* block, bool weighted);

}  // namespace graphso
