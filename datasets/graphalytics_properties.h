// What an LDBC Graphalytics dataset's NAME.properties says (graph.NAME.<key> = value lines; `#`
// comments): about the files, whether the graph is directed, its edge properties (the columns
// after "src dst", in order), which of them SSSP weighs (sssp.weight-property) and the declared
// counts (meta.vertices, meta.edges); about the benchmark, the algorithms to run and their
// parameters (bfs.source-vertex, pr.num-iterations, ...). The files are NAME.v and NAME.e: the
// vertex-file and edge-file keys are not read, since two of the official test datasets
// (test-sssp-undirected, test-wcc-directed) give their vertex file as their edge file.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace graphso {

struct GraphalyticsProperties {
  bool found = false;  // the file exists (a dataset may come without one)
  std::string path;
  std::string name;
  bool directed = true;
  std::vector<std::string> edge_properties;
  std::vector<std::string> edge_types;
  std::string weight_property;
  std::optional<uint64_t> vertices, edges;
  std::vector<std::string> algorithms;  // graph.NAME.algorithms, as listed (bfs, cdlp, lcc, pr, sssp, wcc)
  // Every other graph.NAME.ALGO.KEY, by "ALGO.KEY" (bfs.source-vertex, pr.damping-factor, ...).
  std::map<std::string, std::string> parameters;

  // An algorithm's parameter ("pr.num-iterations"); a one-line error naming the file when absent.
  const std::string& parameter(const std::string& key) const;
};

// Reads path (NAME.properties) for the dataset `name`; found = false when there is no such file.
GraphalyticsProperties read_graphalytics_properties(const std::string& path, const std::string& name);

}  // namespace graphso
