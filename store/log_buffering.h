// XPGraph's buffering step, shared by the modes that keep its DRAM vertex buffers (xpgraph, gear):
// log records into the vertex buffers, one shard of vertices per thread, a buffer that fills
// handed to the mode (a new block, an append to a list) and emptied.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "store/edge_log.h"
#include "store/store_writer.h"
#include "store/vertex_buffers.h"

namespace graphso::store {

// Moves log records [first, position) into `buffers` on `threads` shard threads: every thread reads
// every record and keeps the ends whose vertex (source for out, destination for in) is in its
// shard; full(shard, d, v, entries) gets each buffer that fills. `alongside`, if given, runs at
// the same time on a thread of its own (XPGraph logs the next batch while it buffers this one).
template <typename Full>
void buffer_log_records(const PmemFile& file, const StoreLayout& layout, VertexBuffers& buffers, uint32_t threads,
                        uint64_t first, uint64_t position, const std::function<void()>& alongside, Full&& full) {
  const uint32_t extra = alongside ? 1 : 0;
  if (position <= first && !alongside) return;
  const bool weighted = layout.geometry.weighted;
  run_tasks(threads + extra, [&](uint32_t task) {
    if (task < extra) return alongside();
    const uint32_t shard = task - extra;
    const VertexId lo = shard_begin(shard, threads, layout.geometry.vertices);
    const VertexId end = shard_begin(shard + 1, threads, layout.geometry.vertices);
    route_log_records(
        file, layout, first, position, lo, end - lo, [&](AdjacencyList d, VertexId v) { buffers.prefetch(d, v); },
        [&](AdjacencyList d, VertexId v, uint32_t entry, Weight weight) {
          const uint32_t words[2] = {entry, weight};
          if (weighted ? buffers.append(shard, d, v, std::span<const uint32_t>(words, 2)) : buffers.append(shard, d, v, entry)) {
            full(shard, d, v, buffers.entries(d, v));
            buffers.empty(d, v);
          }
        });
  });
}

}  // namespace graphso::store
