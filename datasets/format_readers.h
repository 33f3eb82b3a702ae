// The readers of the field's graph formats behind read_edge_input (edge_input.h), one file each.
// Internal to datasets/; each throws a one-line graphso::Error naming the file (and line).
#pragma once

#include <string>
#include <vector>

#include "datasets/edge_input.h"

namespace graphso {

// DIMACS 9th challenge .gr (dimacs_input.cc).
EdgeSet read_dimacs(const std::string& path);
// GAPBS serialized .sg / .wsg (gapbs_input.cc).
EdgeSet read_gapbs(const std::string& path, bool weighted);
// METIS adjacency files (metis_input.cc).
EdgeSet read_metis(const std::string& path);
// LDBC Graphalytics .v + .e (+ .properties) (graphalytics_input.cc); path names any of them.
EdgeSet read_graphalytics(const std::string& path, bool weighted, bool ignore_weights, bool real);

}  // namespace graphso
