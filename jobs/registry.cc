#include "jobs/registry.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "base/enum_names.h"
#include "base/error.h"
#include "jobs/bfs.h"
#include "jobs/cdlp.h"
#include "jobs/kcore.h"
#include "jobs/lcc.h"
#include "jobs/pagerank.h"
#include "jobs/sssp.h"
#include "jobs/wcc.h"

namespace graphso {
namespace {

uint64_t parse_integer(const std::string& where, const std::string& key, const std::string& text) {
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    fail("{}: {} = '{}' is not a non-negative integer", where, key, text);
  return value;
}

std::vector<Algorithm> make_table() {
  const ParamInfo source{"source", ParamType::Vertex, "",
                         "the source vertex (original id), or random (a vertex with out-edges; run --seed)"};
  const ParamInfo tolerance{"tolerance", ParamType::Real, "1e-6",
                            "stop when no vertex holds more than tolerance/N unpushed rank (L1 error <= d/(1-d) x tolerance: 5.67 x at d = 0.85)"};
  const ParamInfo damping{"damping", ParamType::Real, "0.85", "the damping factor d, strictly between 0 and 1"};
  const ParamInfo reach{"reach", ParamType::Integer, std::to_string(kDefaultReachHops),
                        "asynchronous passes: how many hops past the settled frontier a change travels on within a "
                        "pass (sssp: times a long hop, the mean plus 3 standard deviations of the weights pushed); 0: no bound"};
  const ParamInfo max_iterations{"max_iterations", ParamType::Integer, "1000", "give up (not converged) after this many rounds"};
  // Declared asynchronous: the min-label, level and distance jobs, the delta forms and k-core's
  // peeling (on a symmetric graph; jobs/kcore.h). pagerank's fixed iterations are synchronous by
  // definition.
  constexpr bool kAsynchronous = true;
  const ParamInfo slots{"slots", ParamType::Integer, "4",
                        "values held per vertex at once (a buffer of slots x N): vertices are taken in ranges whose "
                        "incident edges fit in it, one pass over a range's edges each (at least 2)"};
  auto slots_of = [](const JobParams& p) { return static_cast<uint32_t>(p.integer("slots", 2, 1024)); };
  auto reach_of = [](const JobParams& p) { return static_cast<uint32_t>(p.integer("reach", 0, kMostReachHops)); };
  auto delta_pagerank = [](const JobParams& p, std::string algo, std::vector<VertexId> sources) {
    return std::make_unique<PageRankDeltaJob>(p.name(), std::move(algo), p.positive("tolerance"),
                                              static_cast<uint32_t>(p.integer("max_iterations", 1, 1000000)),
                                              std::move(sources), p.fraction("damping"));
  };
  return {
      {"bfs", "breadth-first search: hop level from the source (-1: unreached)", {source, reach},
       [reach_of](const JobParams& p) { return std::make_unique<BfsJob>(p.name(), p.vertex("source"), reach_of(p)); },
       kAsynchronous},
      {"sssp", "single-source shortest paths over the edge weights (1 when unweighted; inf: unreached)", {source, reach},
       [reach_of](const JobParams& p) { return std::make_unique<SsspJob>(p.name(), p.vertex("source"), reach_of(p)); },
       kAsynchronous},
      {"wcc", "weakly connected components: each vertex's smallest vertex id in its component",
       {{"method", ParamType::Text, "union-find", "union-find (one pass) or label (label propagation, ~diameter rounds)"}},
       [](const JobParams& p) -> std::unique_ptr<Job> {
         if (p.text("method", {"union-find", "label"}) == "label") return std::make_unique<WccLabelJob>(p.name());
         return std::make_unique<WccUnionFindJob>(p.name());
       },
       kAsynchronous},
      {"pagerank", "PageRank, a fixed number of synchronous iterations (d = 0.85 unless damping says otherwise)",
       {{"iterations", ParamType::Integer, "20", "iterations to run"}, damping,
        {"variant", ParamType::Text, "gap",
         "gap: dangling vertices' rank is not redistributed (GAP, networkx without dangling weights); graphalytics: "
         "LDBC Graphalytics' rule, their rank is spread over every vertex each iteration"}},
       [](const JobParams& p) {
         return std::make_unique<PageRankJob>(p.name(), static_cast<uint32_t>(p.integer("iterations", 1, 1000000)),
                                              p.text("variant", {"gap", "graphalytics"}) == "graphalytics", p.fraction("damping"));
       }},
      {"pagerank-delta", "delta-PageRank to a tolerance (d = 0.85 unless damping says otherwise): only vertices with rank left to push are active",
       {tolerance, max_iterations, damping},
       [delta_pagerank](const JobParams& p) { return delta_pagerank(p, "pagerank-delta", {}); }, kAsynchronous},
      {"ppr", "personalized PageRank from a set of sources (delta form, d = 0.85 unless damping says otherwise, teleport to the sources)",
       {{"source", ParamType::Vertices, "", "the source vertices, comma-separated (original ids, or random)"}, tolerance,
        max_iterations, damping},
       [delta_pagerank](const JobParams& p) { return delta_pagerank(p, "ppr", p.vertices("source")); }, kAsynchronous},
      {"cdlp", "community detection by label propagation (LDBC Graphalytics): the most frequent neighbour label, smallest on a tie, for a fixed number of synchronous iterations",
       {{"iterations", ParamType::Integer, "10", "iterations to run"}, slots},
       [slots_of](const JobParams& p) {
         return std::make_unique<CdlpJob>(p.name(), static_cast<uint32_t>(p.integer("iterations", 1, 1000000)), slots_of(p));
       }},
      {"lcc", "local clustering coefficient (LDBC Graphalytics): edges among each vertex's neighbours (either way) over |N|(|N|-1)",
       {slots}, [slots_of](const JobParams& p) { return std::make_unique<LccJob>(p.name(), slots_of(p)); }},
      {"kcore", "k-core decomposition: each vertex's core number on the undirected view (self-loops ignored)", {},
       [](const JobParams& p) { return std::make_unique<KCoreJob>(p.name()); }, kAsynchronous},
  };
}

}  // namespace

const char* param_type_name(ParamType type) {
  switch (type) {
    case ParamType::Integer: return "integer";
    case ParamType::Real: return "number";
    case ParamType::Text: return "word";
    case ParamType::Vertex: return "vertex";
    case ParamType::Vertices: return "vertices";
  }
  return "?";
}

const ParamInfo* Algorithm::param(const std::string& key) const {
  for (const ParamInfo& p : params)
    if (p.name == key) return &p;
  return nullptr;
}

const std::vector<Algorithm>& algorithms() {
  static const std::vector<Algorithm> table = make_table();
  return table;
}

const Algorithm* find_algorithm(const std::string& name) {
  for (const Algorithm& a : algorithms())
    if (a.name == name) return &a;
  return nullptr;
}

const ParamInfo* find_any_param(const std::string& key) {
  for (const Algorithm& a : algorithms())
    if (const ParamInfo* p = a.param(key)) return p;
  return nullptr;
}

const std::string& JobParams::value(const std::string& key) const {
  auto it = spec_.params.find(key);
  if (it != spec_.params.end()) return it->second;
  for (const ParamInfo& p : params_)
    if (p.name == key && !p.default_value.empty()) return p.default_value;
  fail("{}: {} needs a {} (e.g. {}:{}=0)", spec_.origin, spec_.algo, key, spec_.algo, key);
}

uint64_t JobParams::integer(const std::string& key, uint64_t min, uint64_t max) const {
  uint64_t v = parse_integer(spec_.where(key), key, value(key));
  if (v < min || v > max) fail("{}: {} = {} is outside {}..{}", spec_.where(key), key, v, min, max);
  return v;
}

double JobParams::positive(const std::string& key) const {
  const std::string& text = value(key);
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    fail("{}: {} = '{}' is not a number", spec_.where(key), key, text);
  if (v <= 0) fail("{}: {} = {} must be positive", spec_.where(key), key, v);
  return v;
}

double JobParams::fraction(const std::string& key) const {
  const double v = positive(key);
  if (v >= 1) fail("{}: {} = {} must be below 1", spec_.where(key), key, v);
  return v;
}

const std::string& JobParams::text(const std::string& key, const std::vector<std::string>& choices) const {
  const std::string& v = value(key);
  if (std::find(choices.begin(), choices.end(), v) == choices.end())
    fail("{}: {} = '{}' (expected {})", spec_.where(key), key, v, choices_text(choices));
  return v;
}

VertexId JobParams::checked_vertex(const std::string& key, const std::string& text) const {
  uint64_t v = parse_integer(spec_.where(key), key, text);
  if (order_ && order_->has_dataset_ids()) {  // the dataset's own ids
    const std::optional<VertexId> original = order_->original_of_user_id(v);
    if (!original) fail("{}: {} = {} is not a vertex of the graph (its ids are the dataset's own)", spec_.where(key), key, v);
    return order_->to_new(*original);
  }
  if (v >= vertices_)
    fail("{}: {} = {} is out of range (the graph has vertices 0..{})", spec_.where(key), key, v, vertices_ - 1);
  return order_ ? order_->to_new(static_cast<VertexId>(v)) : static_cast<VertexId>(v);
}

VertexId JobParams::vertex(const std::string& key) const { return checked_vertex(key, value(key)); }

std::vector<VertexId> JobParams::vertices(const std::string& key) const {
  std::vector<VertexId> out;
  for (const std::string& item : split_vertex_list(value(key))) out.push_back(checked_vertex(key, item));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace graphso
