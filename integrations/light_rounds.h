// Light rounds for a run (docs/middleware.md, "Light rounds"): whether the budget has room for the
// graph's out-edges per vertex beside the chunk cache (base/adjacency.h), when building them pays
// (LightRounds), building them from the cache (reading the graph whole first when no job has), and
// what the report says of them. The batch runner asks before every round; the jobs that take the
// adjacency then do their rounds over it (Job::adjacency_round).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "base/adjacency.h"
#include "engine/engine.h"
#include "middleware/graphso.h"

namespace graphso {

// When a run builds the adjacency. On: as soon as a job that takes it runs; Auto: once the rounds
// run with such a job have taken as long as building it is expected to (kLightRoundsBuildRate), so
// a short traversal never pays for it and a long one at most about twice; Off: never.
enum class LightRounds { Off, Auto, On };
LightRounds parse_light_rounds(const std::string& name);
const char* light_rounds_name(LightRounds policy);
// Auto's estimate of building the adjacency: its bytes filled, and the graph's stored bytes read
// when the cache does not hold them yet, at about this rate each (measured: road-FLA's 18.4 MiB in
// 0.018-0.020 s, R-MAT 20's 264 MiB in 0.11-0.32 s; the disk reads 1.1-1.6 GB/s).
inline constexpr double kLightRoundsBuildRate = 1e9;

// What a run reports of its light rounds (BatchReport).
struct LightRoundsReport {
  // "built", "off" (--light-rounds off), "no room" (the budget holds the cache but not the
  // adjacency beside it), "not resident" (or not chunk mode), "not taken" (no job that takes it
  // ran), "not worth it" (auto: the rounds such jobs ran took less than building it would),
  // "cache not whole" (a cache that never held every chunk: packed, or chunks read by pages).
  std::string state;
  uint64_t bytes = 0;           // the adjacency's
  double seconds = 0;           // building it (and reading the graph whole first)
  uint64_t bytes_read = 0;      // that read: no job had read the whole graph
  uint32_t round = 0;           // the round before which it was built
  double rent_seconds = 0;      // rounds run with a job that would take it, before it was built
  bool asked = false;           // auto built it as a job asked for it (Job::wants_adjacency_now)
};

class ResidentAdjacency {
 public:
  // middleware: null out of chunk mode; room: what the cache, the table and the buffers leave of
  // the graph-data budget; edges: the graph's out-edges.
  ResidentAdjacency(LightRounds policy, GraphSO* middleware, bool resident, uint64_t room, uint64_t vertices,
                    uint64_t edges, bool weighted, uint64_t stored_bytes);

  // At a round's start, `takers` telling whether a job that would take the adjacency runs in it
  // and `asked` whether one wants it now (Job::wants_adjacency_now): builds it when that pays, or
  // when asked and not off (engine: checks the runs of a whole read; bytes_read: the run's I/O so
  // far). The adjacency, or null.
  const Adjacency* before_round(uint32_t round, bool takers, bool asked, Engine& engine,
                                const std::function<uint64_t()>& bytes_read, std::span<const uint32_t> out_degrees);
  // After a round that took `seconds`, a job that would take the adjacency in it or not.
  void after_round(double seconds, bool takers);
  // The report, once the run is over.
  LightRoundsReport report() const;

 private:
  bool worth_building(bool asked) const;
  void read_whole_graph(Engine& engine, const std::function<uint64_t()>& bytes_read);

  LightRounds policy_;
  GraphSO* middleware_;
  bool wanted_ = false;  // resident, with room, not off, and not found unbuildable
  uint64_t vertices_, edges_, stored_bytes_;
  bool weighted_;
  std::optional<Adjacency> adjacency_;
  LightRoundsReport report_;
};

}  // namespace graphso
