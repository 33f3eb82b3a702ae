// A finished job's results against the in-memory reference (reference/), for `graphso run
// --verify` and the tests alike. Results are taken as `run --out-format bin` writes them, in
// original ids. BFS, SSSP, WCC, k-core, CDLP and LCC must be equal; PageRank within 1e-9 relative (float
// noise); delta-PageRank and personalized PageRank within their stated L1 bound of the exact
// fixed point, approached from below.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/types.h"
#include "base/vertex_order.h"
#include "engine/gridgraph/grid_graph.h"
#include "jobs/job.h"
#include "jobs/job_spec.h"
#include "reference/reference.h"

namespace graphso {

// A graph held whole in memory, in original ids, with its CSR.
struct ReferenceGraph {
  uint64_t vertices = 0;
  bool real_weights = false;  // weights are binary32 (base/types.h)
  std::vector<WeightedEdge> edges;
  reference::Csr csr;
};

ReferenceGraph make_reference_graph(uint64_t vertices, std::vector<WeightedEdge> edges, bool real_weights = false);
// Memory a ReferenceGraph of this size takes: the edges and their CSR (the algorithms add a few
// arrays per vertex).
uint64_t reference_memory_bytes(uint64_t vertices, uint64_t edges);
// Memory the kernel says is available for new allocations (/proc/meminfo MemAvailable); 0 if
// it does not say.
uint64_t available_memory_bytes();
// A prepared graph's edges in original ids, every block's checksum checked.
ReferenceGraph load_reference_graph(const GridGraph& graph);

struct ResultCheck {
  bool ok = false;
  std::string detail;  // what was compared and how closely, or where it differs
};

// spec: as the job was built (sources resolved, parameters as given; defaults from the registry).
// order: the graph's vertex order.
ResultCheck check_result(const JobSpec& spec, const Job& job, const ReferenceGraph& graph, const VertexOrder& order);
// Whether check_result knows the algorithm (the registry test holds every algorithm to it).
bool has_reference(const std::string& algo);

}  // namespace graphso
