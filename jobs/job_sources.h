// Job sources left to graphso, and sources that reach nothing. `source=random` (GAP's -r) stands
// for a vertex with out-edges drawn from a seeded generator: the same seed and batch pick the same
// vertices in any vertex order. A source without out-edges is legal but almost always a mistake
// (the job "converges in 1 round" having reached only its source), so the CLI warns about it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/vertex_order.h"
#include "jobs/job_spec.h"

namespace graphso {

inline constexpr const char* kRandomSource = "random";

// Replaces each "random" in a vertex parameter (`source=random`, or an element of ppr's list) with
// an original id whose out-degree is positive, drawn in job order from a generator seeded with
// `seed`. out_degrees is indexed by the graph's ids. Returns one line per pick, for the user.
// Throws when some job asks for one and no vertex has out-edges.
std::vector<std::string> pick_random_sources(std::vector<JobSpec>& specs, const std::vector<uint32_t>& out_degrees,
                                             const VertexOrder& order, uint64_t seed);

// One line per source (in a vertex parameter) that has no out-edges. Specs must have been
// accepted by make_job (their ids are in range).
std::vector<std::string> sources_without_out_edges(const std::vector<JobSpec>& specs,
                                                   const std::vector<uint32_t>& out_degrees, const VertexOrder& order);

}  // namespace graphso
