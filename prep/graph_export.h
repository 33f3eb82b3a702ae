// The way back out: a prepared graph directory (or a graphso edge list) as a text edge list or a
// graphso edge list again, in original ids (a relabelled graph's ids are mapped back). Streams
// block by block, so it never holds the graph; every block's checksum is checked as it is read,
// and the output appears whole or not at all.
#pragma once

#include <cstdint>
#include <string>

namespace graphso {

// edgelist: one "src dst" line per edge ("src dst weight" when weighted), after a '#' line
// naming the vertex count, which `graphso convert` reads back (ids are the vertices' only
// names, so a vertex without edges past the largest id is known only from it).
// bin: a graphso edge list (.bin), for `ingest`, `prep` or `convert`.
enum class ExportFormat { EdgeList, Binary };
ExportFormat parse_export_format(const std::string& name);  // edgelist|bin

struct ExportSummary {
  uint64_t vertices = 0;
  uint64_t edges = 0;
  bool weighted = false;
  bool symmetric = false;  // a prepared graph's flag (an edge list does not say)
};

// `input` is a prepared graph directory or a graphso edge list; `output` a file ("-": stdout).
ExportSummary export_graph(const std::string& input, const std::string& output, ExportFormat format);

}  // namespace graphso
