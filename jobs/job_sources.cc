#include "jobs/job_sources.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <random>

#include "base/error.h"
#include "jobs/registry.h"

namespace graphso {
namespace {

std::string join_list(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

// The job's name once name_jobs() gave it one, else where it came from.
const std::string& label(const JobSpec& spec) { return spec.name.empty() ? spec.origin : spec.name; }

// Calls visit(key, items) for every vertex parameter of the spec (one item for a single vertex).
template <typename Visit>
void for_each_vertex_param(const JobSpec& spec, Visit&& visit) {
  const Algorithm* algo = find_algorithm(spec.algo);
  if (!algo) return;
  for (const ParamInfo& p : algo->params) {
    if (p.type != ParamType::Vertex && p.type != ParamType::Vertices) continue;
    auto it = spec.params.find(p.name);
    if (it != spec.params.end()) visit(p.name, split_vertex_list(it->second));
  }
}

}  // namespace

std::vector<std::string> pick_random_sources(std::vector<JobSpec>& specs, const std::vector<uint32_t>& out_degrees,
                                             const VertexOrder& order, uint64_t seed) {
  std::mt19937_64 generator(seed);
  std::vector<std::string> picks;
  std::optional<bool> any_out_edges;
  for (JobSpec& spec : specs) {
    for_each_vertex_param(spec, [&](const std::string& key, std::vector<std::string> items) {
      bool changed = false;
      for (std::string& item : items) {
        if (item != kRandomSource) continue;
        if (!any_out_edges)
          any_out_edges = std::any_of(out_degrees.begin(), out_degrees.end(), [](uint32_t d) { return d > 0; });
        if (!*any_out_edges) fail("{}: {}={}: no vertex of the graph has out-edges", spec.where(key), key, kRandomSource);
        // Drawn in original ids, so the pick does not depend on the vertex order.
        std::uniform_int_distribution<uint64_t> draw(0, out_degrees.size() - 1);
        VertexId v = 0;
        do v = static_cast<VertexId>(draw(generator));
        while (out_degrees[order.to_new(v)] == 0);
        item = std::to_string(order.user_id(v));
        changed = true;
        picks.push_back(fmt::format("{} ({}): {}={} picked vertex {} (out-degree {})", label(spec), spec.algo, key,
                                    kRandomSource, item, out_degrees[order.to_new(v)]));
      }
      if (changed) spec.params[key] = join_list(items);
    });
  }
  return picks;
}

std::vector<std::string> sources_without_out_edges(const std::vector<JobSpec>& specs,
                                                   const std::vector<uint32_t>& out_degrees, const VertexOrder& order) {
  std::vector<std::string> warnings;
  for (const JobSpec& spec : specs)
    for_each_vertex_param(spec, [&](const std::string& key, const std::vector<std::string>& items) {
      for (const std::string& item : items) {
        uint64_t v = 0;
        auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
        if (ec != std::errc() || end != item.data() + item.size()) continue;
        const std::optional<VertexId> original = order.original_of_user_id(v);
        if (!original || *original >= out_degrees.size()) continue;
        if (out_degrees[order.to_new(*original)] == 0)
          warnings.push_back(fmt::format("{} ({}): {} {} has no out-edges, so nothing is reached from it "
                                         "({}={} picks a vertex with out-edges)", label(spec), spec.algo, key, v, key,
                                         kRandomSource));
      }
    });
  return warnings;
}

}  // namespace graphso
