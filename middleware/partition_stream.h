// What the stock sharing modes share: which static partitions a job wants this round, and
// streaming the wanted ones to the engine in pieces that fit a read buffer.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "base/edge_run.h"
#include "engine/engine.h"
#include "io/load_stream.h"
#include "jobs/job.h"

namespace graphso {

class PartitionStream {
 public:
  // dense_order: read a round that wants every partition in the layout's dense order, if it has one.
  PartitionStream(const EngineLayout& layout, ReaderFactory& readers, uint64_t buffer_bytes, bool dense_order);

  // Per partition: whether it holds an edge the job must process this round: a frontier vertex
  // among its sources, or, for a EdgeUse::BothWays job, among its destinations.
  std::vector<bool> wanted(const Job& job) const;

  // Adds a group: every partition k with a non-empty jobs_of[k], in index order, or in the
  // layout's dense order when every non-empty partition is wanted and dense_order was asked for.
  void add(std::span<const std::span<const uint32_t>> jobs_of, ActiveSets accounting);
  // Reads the groups in order and hands them to engine.process(), then to loaded() while their
  // memory is still the load's; a load never spans two groups, and group_done(g) is called once
  // group g is processed, while the next load is being read.
  void stream(Engine& engine, const std::function<void(std::span<const EdgeRun> runs)>& loaded,
              const std::function<void(size_t group)>& group_done);

  IoStats io_stats() const { return streamer_.io_stats(); }
  const char* backend() const { return streamer_.backend(); }

 private:
  void add_pieces(uint32_t partition, uint32_t file, uint64_t offset, std::span<const uint32_t> jobs,
                  ActiveSets accounting);

  const EngineLayout& layout_;
  LoadStreamer streamer_;
  uint64_t max_piece_bytes_ = 0;
  bool dense_order_ = false;
  std::vector<EdgeRun> runs_;     // the groups added since the last stream()
  std::vector<FileRange> ranges_;
  std::vector<size_t> ends_;      // where each group ends in runs_
};

}  // namespace graphso
