// Resumable ingest (docs/store.md, "Resuming an input"). An input is identified by its absolute
// path, size, edge count, kind (edges or deletions) and the CRC-32 of its first 4 KiB. The store
// records the input it is working through and the log position where it started, so the same
// command run again continues after the edges already acknowledged.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "datasets/edge_list.h"
#include "store/graph_store.h"

namespace graphso::store {

InputProgress identify_input(const std::string& path, const EdgeListInfo& info, bool deletes);
// A stream has no size or content to be known by: its name is its identity ("stream:NAME" in the
// record's path), it has no end, and its operations are insertions and deletions together.
InputProgress identify_stream(const std::string& name);
bool is_stream_input(const InputProgress& input);

// Every id below `vertices`, checked before anything is logged: bad input changes nothing.
void check_input_ids(EdgeListReader& reader, uint64_t vertices, const std::string& path);

// How many of `input`'s edges the store has acknowledged: those of the same input when it is the
// one the store records; otherwise 0, and `input` is recorded as the current one. When the store
// has logged edges but neither copy of its input record is readable it refuses to guess (starting
// over could log an input twice) and says how to go on: `acknowledged`, given, is the user's
// count of this input's edges already in the store, and is recorded as such.
uint64_t resume_input(GraphStore& store, const InputProgress& input, std::optional<uint64_t> acknowledged = {});

}  // namespace graphso::store
