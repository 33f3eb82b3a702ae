// Reading foreign edge lists: SNAP-style text (.el, .txt, .snap, .tsv), weighted text (.wel),
// Matrix Market (.mtx), raw binary (.raw: u32 src, u32 dst[, u32 weight]), graphso's own .bin, and
// the field's graph formats: DIMACS .gr, GAPBS .sg/.wsg, METIS (.graph, .metis) and LDBC
// Graphalytics .v/.e (format_readers.h; docs/formats.md, "Input formats"). A ".gz" suffix is
// decompressed on the fly (text formats). Malformed input throws "file:line: what is wrong".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/types.h"

namespace graphso {

enum class InputFormat { Auto, Text, Mtx, Raw, Graphso, Dimacs, Gapbs, Metis, Graphalytics };

struct EdgeInputOptions {
  InputFormat format = InputFormat::Auto;
  bool weighted = false;  // text: read a third column; raw: 12-byte records
  // text, mtx, Graphalytics: read weights or values present and drop them (otherwise an error: a
  // graph read without its weights is a different graph).
  bool ignore_weights = false;
  // text: the third column holds real numbers (stored as binary32, base/types.h); implies weighted.
  // Graphalytics datasets say so themselves (edge-properties.types = real).
  bool real_weights = false;
};

struct EdgeSet {
  std::vector<WeightedEdge> edges;  // weight 1 when unweighted
  uint64_t vertices = 0;            // largest id + 1 (or the format's declared count)
  bool weighted = false;
  // The dataset's own vertex ids, ascending, when they are not 0..n-1 (Graphalytics): vertex v of
  // `edges` is dataset_ids[v] (base/dataset_ids.h). Empty otherwise.
  std::vector<uint64_t> dataset_ids;
  bool real_weights = false;  // weights are binary32 (base/types.h), not integers
};

// A text edge list's comment line "# vertices: N" declares N vertices even when the largest id
// is below N - 1 (`graphso export` writes it, so vertices without edges survive the round trip).
inline constexpr std::string_view kVertexCountComment = "# vertices: ";

InputFormat format_from_name(const std::string& path);
InputFormat parse_input_format(const std::string& name);

EdgeSet read_edge_input(const std::string& path, const EdgeInputOptions& options);

struct EdgeTransforms {
  bool symmetrize = false;       // add v->u for every u->v
  bool drop_self_loops = false;
  bool dedup = false;            // keep one u->v, with its smallest weight
};

void apply_transforms(EdgeSet& set, const EdgeTransforms& transforms);

// Where two multisets of arcs differ (weights included): the smallest arc one holds more often
// than the other, and whether that one is `a` (arc_sets.cc). None when they are equal. What a
// format's two views of one graph are checked with (METIS's lists at both ends, a GAPBS file's
// in-CSR against its out-CSR), and whether a graph is symmetric, weights and all.
struct ArcDifference {
  WeightedEdge arc;
  bool in_a;
};
std::optional<ArcDifference> first_difference(std::vector<WeightedEdge> a, std::vector<WeightedEdge> b);

}  // namespace graphso
