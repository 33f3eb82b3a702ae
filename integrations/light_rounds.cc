#include "integrations/light_rounds.h"

#include <chrono>

#include "base/enum_names.h"

namespace graphso {
namespace {

constexpr EnumName<LightRounds> kLightRoundsNames[] = {
    {LightRounds::Off, "off"}, {LightRounds::Auto, "auto"}, {LightRounds::On, "on"}};

bool packed_cache(const GraphSO& middleware) { return std::string_view(middleware.cache_form()) == "packed"; }

}  // namespace

LightRounds parse_light_rounds(const std::string& name) {
  return parse_enum<LightRounds>(kLightRoundsNames, name, "light-rounds policy");
}
const char* light_rounds_name(LightRounds policy) { return enum_name<LightRounds>(kLightRoundsNames, policy); }

ResidentAdjacency::ResidentAdjacency(LightRounds policy, GraphSO* middleware, bool resident, uint64_t room,
                                     uint64_t vertices, uint64_t edges, bool weighted, uint64_t stored_bytes)
    : policy_(policy), middleware_(middleware), vertices_(vertices), edges_(edges), stored_bytes_(stored_bytes),
      weighted_(weighted) {
  if (!middleware || !resident) {
    report_.state = "not resident";
  } else if (policy == LightRounds::Off) {
    report_.state = "off";
  } else {
    wanted_ = Adjacency::bytes_for(vertices, edges, weighted) <= room;
    report_.state = wanted_ ? "waiting" : "no room";
  }
}

// Auto buys once the rent paid for going without reaches the price, or when a job knows it will
// run long.
bool ResidentAdjacency::worth_building(bool asked) const {
  if (policy_ == LightRounds::On || asked) return true;
  const double fill = static_cast<double>(Adjacency::bytes_for(vertices_, edges_, weighted_));
  const double read = middleware_->caches_every_chunk() ? 0.0 : static_cast<double>(stored_bytes_);
  return report_.rent_seconds >= (fill + read) / kLightRoundsBuildRate;
}

// A round whose frontier is every vertex, its runs handed to no job: the engine checks them as it
// checks any load, and the cache keeps them. (Packed pages, which the engine would pass over
// unchecked with no job to push, wait for the jobs to read them: before_round.)
void ResidentAdjacency::read_whole_graph(Engine& engine, const std::function<uint64_t()>& bytes_read) {
  const uint64_t before = bytes_read();
  Bitmap every(vertices_);
  every.set_all();
  const JobFrontier all{&every, false};
  ActiveChunks whole = middleware_->GetActiveChunks({&all, 1});
  for (ChunkDemand& demand : whole.chunks) demand.jobs.clear();
  while (std::optional<LoadedPartition> lp = middleware_->Schedule(whole)) engine.process(lp->runs);
  report_.bytes_read = bytes_read() - before;
}

const Adjacency* ResidentAdjacency::before_round(uint32_t round, bool takers, bool asked, Engine& engine,
                                                 const std::function<uint64_t()>& bytes_read,
                                                 std::span<const uint32_t> out_degrees) {
  if (adjacency_ || !wanted_ || !takers) return adjacency_ ? &*adjacency_ : nullptr;
  const bool cached = middleware_->caches_every_chunk();
  if ((!cached && packed_cache(*middleware_)) || !worth_building(asked)) return nullptr;
  report_.asked = asked && policy_ == LightRounds::Auto;
  const auto start = std::chrono::steady_clock::now();
  if (!cached) read_whole_graph(engine, bytes_read);
  // Chunks read by pages (--granularity page) are not cached: the cache never holds the graph then,
  // and nothing is built, nor read whole again.
  if (!middleware_->caches_every_chunk()) {
    wanted_ = false;
    report_.state = "cache not whole";
    return nullptr;
  }
  adjacency_.emplace(middleware_->adjacency(out_degrees));
  report_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report_.bytes = adjacency_->bytes();
  report_.round = round;
  report_.state = "built";
  return &*adjacency_;
}

void ResidentAdjacency::after_round(double seconds, bool takers) {
  if (wanted_ && !adjacency_ && takers) report_.rent_seconds += seconds;
}

LightRoundsReport ResidentAdjacency::report() const {
  LightRoundsReport r = report_;
  if (r.state == "waiting") {
    if (r.rent_seconds == 0) r.state = "not taken";
    else r.state = middleware_->caches_every_chunk() || !packed_cache(*middleware_) ? "not worth it" : "cache not whole";
  }
  return r;
}

}  // namespace graphso
