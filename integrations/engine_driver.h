// How the batch runner drives an engine: one round of the running jobs in each sharing mode,
// and the engine's counts. One implementation per engine (gridgraph_driver.cc,
// xstream_driver.cc); the chunk mode of each goes through its GraphSO shim.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/common/edge_processor.h"
#include "engine/gridgraph/grid_graph.h"
#include "engine/xstream/update_bins.h"
#include "jobs/job.h"
#include "middleware/engine_layout.h"
#include "middleware/graphso.h"
#include "middleware/io/chunk_reader.h"

namespace graphso {

enum class EngineKind { GridGraph, XStream };
EngineKind parse_engine(const std::string& name);
const char* engine_name(EngineKind engine);

struct ChunkRoundStats {
  uint64_t active_chunks = 0;
  uint64_t logical_partitions = 0;
};

class EngineDriver {
 public:
  virtual ~EngineDriver() = default;

  // The engine's static partitions, as the middleware sees them.
  virtual const EngineLayout& layout() const = 0;
  // Sizes the engine's own buffers and opens it; called once, before any round. buffer_bytes:
  // each of its two read buffers; update_bytes: the update budget (engines with update buffers).
  virtual void start(uint64_t buffer_bytes, uint64_t update_bytes, int threads, std::span<Job* const> jobs) = 0;

  // One round of the running jobs (indexes into jobs): all of its edge work, and for an
  // update-streaming engine its gather phase too. accounting: the running jobs' frontier unions.
  virtual void independent_round(std::span<Job* const> jobs, const std::vector<uint32_t>& running) = 0;
  virtual void partition_round(std::span<Job* const> jobs, const std::vector<uint32_t>& running, Activity accounting) = 0;
  virtual ChunkRoundStats chunk_round(GraphSO& graphso, std::span<Job* const> jobs, const std::vector<uint32_t>& running,
                                      Activity accounting) = 0;

  // Jobs whose edge work threw, with the message.
  virtual std::vector<std::pair<uint32_t, std::string>> failures() const = 0;
  virtual EngineCounters counters() const = 0;
  virtual IoStats io_stats() const = 0;  // edge data the engine read itself (not the middleware)
  virtual const char* backend() const = 0;
  virtual UpdateCounters updates() const { return {}; }
  // The smallest update budget the engine takes; 0 for an engine without update buffers.
  virtual uint64_t min_update_bytes() const { return 0; }
};

// Opens the engine's view of the graph (the X-Stream layout must have been prepared).
std::unique_ptr<EngineDriver> make_engine_driver(EngineKind engine, const GridGraph& graph, ReaderFactory& readers);
// The two implementations (gridgraph_driver.cc, xstream_driver.cc).
std::unique_ptr<EngineDriver> make_gridgraph_driver(const GridGraph& graph, ReaderFactory& readers);
std::unique_ptr<EngineDriver> make_xstream_driver(const GridGraph& graph, ReaderFactory& readers);

}  // namespace graphso
