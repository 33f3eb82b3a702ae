// The way back out: a prepared graph directory (or a graphso edge list) as a text edge list, a
// graphso edge list again, a DIMACS .gr or an LDBC Graphalytics dataset, in original ids (a
// relabelled graph's ids are mapped back). Streams block by block, so it never holds the graph;
// every block's checksum is checked as it is read, and the output appears whole or not at all.
#pragma once

#include <cstdint>
#include <string>

namespace graphso {

// edgelist: one "src dst" line per edge ("src dst weight" when weighted), after a '#' line
// naming the vertex count, which `graphso convert` reads back (ids are the vertices' only
// names, so a vertex without edges past the largest id is known only from it).
// bin: a graphso edge list (.bin), for `ingest`, `prep` or `convert`, with the dataset's own ids
// beside it (OUT.bin.ids) when the graph has them.
// gr: DIMACS 9th challenge: "p sp N M", then "a U V W" per edge, ids from 1 (weight 1 when
// unweighted).
// graphalytics: OUT.v (every vertex), OUT.e ("src dst[ weight]") and OUT.properties (directed: the
// edges as stored), in the dataset's own ids when the graph has them; OUT may end in .e.
// sg: a GAPBS serialized graph (OUT.sg, or OUT.wsg for a weighted graph: GAPBS tells them by the
// name): undirected (the CSR holding every arc) when the arcs are symmetric, weights and all, else
// directed with the in-CSR after the out-CSR. Held in memory: 12 bytes per edge and the CSR.
// metis: METIS' adjacency format, for a graph whose arcs are symmetric (weights and all) and
// without self-loops, as METIS requires; weights as FMT 1. Held in memory like sg.
// edgelist, gr, sg and metis write dense ids, which a dataset's ids map to in ascending order.
enum class ExportFormat { EdgeList, Binary, Dimacs, Graphalytics, Gapbs, Metis };
ExportFormat parse_export_format(const std::string& name);  // edgelist|bin|gr|graphalytics|sg|metis

struct ExportSummary {
  uint64_t vertices = 0;
  uint64_t edges = 0;
  bool weighted = false;
  bool real_weights = false;  // binary32 weights (base/types.h)
  bool symmetric = false;  // a prepared graph's flag (an edge list does not say)
  bool dataset_ids = false;  // the graph has ids of its own (base/dataset_ids.h)
};

// `input` is a prepared graph directory or a graphso edge list; `output` a file ("-": stdout).
ExportSummary export_graph(const std::string& input, const std::string& output, ExportFormat format);

}  // namespace graphso
