#include "integrations/result_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>

#include "base/error.h"
#include "jobs/pagerank.h"
#include "jobs/registry.h"

namespace graphso {
namespace {

// The job's results as `run --out-format bin` writes them: in original ids.
template <typename T>
std::vector<T> results_of(const Job& job, const VertexOrder& order) {
  std::vector<T> values(order.vertices());
  uint64_t at = 0;
  job.write_results(OutFormat::Binary, order, [&](std::string_view piece) {
    if (at + piece.size() > values.size() * sizeof(T)) fail("{}: more results than vertices", job.name());
    std::memcpy(reinterpret_cast<char*>(values.data()) + at, piece.data(), piece.size());
    at += piece.size();
  });
  if (at != values.size() * sizeof(T)) fail("{}: {} bytes of results for {} vertices", job.name(), at, values.size());
  return values;
}

// A parameter as given, else its registered default.
std::string param(const JobSpec& spec, const std::string& key) {
  if (auto it = spec.params.find(key); it != spec.params.end()) return it->second;
  if (const Algorithm* algo = find_algorithm(spec.algo))
    if (const ParamInfo* p = algo->param(key)) return p->default_value;
  fail("{}: no parameter '{}'", spec.algo, key);
}

// The sources a spec names (user ids: the dataset's own, when it has them), as original ids.
std::vector<VertexId> vertex_list(const std::string& text, const VertexOrder& order) {
  std::vector<VertexId> ids;
  for (const std::string& item : split_vertex_list(text)) {
    const std::optional<VertexId> original = order.original_of_user_id(std::stoull(item));
    if (!original) fail("source {} is not a vertex of the graph", item);
    ids.push_back(*original);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

template <typename T>
ResultCheck equal(const std::vector<T>& got, const std::vector<T>& want, const char* what) {
  uint64_t bad = 0, first = 0;
  for (uint64_t v = 0; v < got.size(); ++v)
    if (got[v] != want[v] && bad++ == 0) first = v;
  if (bad == 0) return {true, fmt::format("{} equal to the reference at all {} vertices", what, got.size())};
  return {false, fmt::format("{}: {} vertices differ from the reference; the first is vertex {} (got {}, want {})", what,
                             bad, first, got[first], want[first])};
}

// delta-PageRank and personalized PageRank: within the stated L1 bound of the exact fixed point,
// approached from below.
ResultCheck delta_ranks(const Job& job, const VertexOrder& order, const std::vector<double>& exact) {
  const auto* delta = dynamic_cast<const PageRankDeltaJob*>(&job);
  if (!delta) return {false, "not a delta-PageRank job"};
  const std::vector<double> got = results_of<double>(job, order);
  double l1 = 0, above = 0;
  for (size_t v = 0; v < exact.size(); ++v) {
    l1 += std::fabs(got[v] - exact[v]);
    above = std::max(above, got[v] - exact[v]);
  }
  const double bound = delta->error_bound();
  const bool ok = l1 <= bound * (1 + 1e-9) + 1e-12 && above <= 1e-12;
  return {ok, fmt::format("L1 distance to the exact ranks {:.3g} (stated bound {:.3g}), largest overshoot {:.3g}{}", l1,
                          bound, above, ok ? "" : ": outside the bound")};
}

}  // namespace

ReferenceGraph make_reference_graph(uint64_t vertices, std::vector<WeightedEdge> edges, bool real_weights) {
  ReferenceGraph g;
  g.vertices = vertices;
  g.real_weights = real_weights;
  g.csr = reference::build_csr(vertices, edges);
  g.edges = std::move(edges);
  return g;
}

uint64_t reference_memory_bytes(uint64_t vertices, uint64_t edges) {
  return edges * (sizeof(WeightedEdge) + sizeof(VertexId) + sizeof(Weight)) + (vertices + 1) * sizeof(uint64_t);
}

uint64_t available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);)
    if (line.rfind("MemAvailable:", 0) == 0) return std::stoull(line.substr(13)) * 1024;  // "  N kB"
  return 0;
}

ReferenceGraph load_reference_graph(const GridGraph& graph) {
  const GridMeta& m = graph.meta();
  std::vector<WeightedEdge> edges;
  edges.reserve(m.edges);
  graph.read_original_edges([&](std::span<const WeightedEdge> piece) { edges.insert(edges.end(), piece.begin(), piece.end()); });
  return make_reference_graph(m.vertices, std::move(edges), m.real_weights);
}

bool has_reference(const std::string& algo) {
  for (const char* known : {"bfs", "sssp", "wcc", "pagerank", "pagerank-delta", "ppr", "kcore", "cdlp", "lcc"})
    if (algo == known) return true;
  return false;
}

ResultCheck check_result(const JobSpec& spec, const Job& job, const ReferenceGraph& g, const VertexOrder& order) {
  if (!job.converged()) return {false, "the job did not converge"};
  const std::string& algo = spec.algo;
  if (algo == "bfs")
    return equal(results_of<uint32_t>(job, order), reference::bfs(g.csr, vertex_list(param(spec, "source"), order)[0]), "BFS levels");
  if (algo == "sssp" && g.real_weights)
    return equal(results_of<double>(job, order), reference::sssp_real(g.csr, vertex_list(param(spec, "source"), order)[0]),
                 "SSSP distances (real weights)");
  if (algo == "sssp")
    return equal(results_of<uint64_t>(job, order), reference::sssp(g.csr, vertex_list(param(spec, "source"), order)[0]),
                 "SSSP distances");
  if (algo == "wcc") return equal(results_of<uint32_t>(job, order), reference::wcc(g.vertices, g.edges), "WCC labels");
  if (algo == "kcore")
    return equal(results_of<uint32_t>(job, order), reference::core_numbers(g.vertices, g.edges), "core numbers");
  if (algo == "cdlp")
    return equal(results_of<uint32_t>(job, order),
                 reference::cdlp(g.vertices, g.edges, static_cast<uint32_t>(std::stoul(param(spec, "iterations")))), "CDLP labels");
  if (algo == "lcc") {
    // Sums of whole numbers divided once: the same double both ways.
    return equal(results_of<double>(job, order), reference::lcc(g.vertices, g.edges), "clustering coefficients");
  }
  if (algo == "pagerank") {
    const uint32_t iterations = static_cast<uint32_t>(std::stoul(param(spec, "iterations")));
    const std::vector<double> want =
        reference::pagerank(g.csr, iterations, param(spec, "variant") == "graphalytics", std::stod(param(spec, "damping")));
    const std::vector<double> got = results_of<double>(job, order);
    double worst = 0;
    for (size_t v = 0; v < want.size(); ++v) worst = std::max(worst, std::fabs(got[v] - want[v]) / (want[v] + 1e-300));
    const bool ok = worst < 1e-9;
    return {ok, fmt::format("PageRank: largest relative difference from the reference {:.3g}{}", worst,
                            ok ? "" : " (more than 1e-9)")};
  }
  const auto damping = [&] { return std::stod(param(spec, "damping")); };
  if (algo == "pagerank-delta") return delta_ranks(job, order, reference::pagerank_fixed_point(g.csr, damping()));
  if (algo == "ppr")
    return delta_ranks(job, order,
                       reference::personalized_pagerank_fixed_point(g.csr, vertex_list(param(spec, "source"), order), damping()));
  return {false, fmt::format("no reference for {}", algo)};
}

}  // namespace graphso
