// graphso export GRAPH_DIR|EDGES.bin -o OUT [--format edgelist|bin|gr|graphalytics|sg|metis|parquet]
#include <cstdio>

#include "base/file.h"
#include "prep/graph_export.h"
#include "tools/graphso/parquet_export.h"
#include "tools/graphso/options.h"

namespace graphso {

int cmd_export(const Args& args) {
  po::options_description options("export options");
  std::string input, output, format_name;
  options.add_options()
      ("input", po::value(&input)->required(), "a prepared graph directory or a graphso edge list (.bin)")
      ("output,o", po::value(&output)->required(), "the file to write (- for standard output, edgelist only)")
      ("format", po::value(&format_name)->default_value("edgelist"),
       "edgelist: text, one 'src dst[ weight]' line per edge; bin: a graphso edge list; gr: DIMACS 9th challenge; "
       "graphalytics: OUT.v, OUT.e and OUT.properties in the dataset's own ids; sg: a GAPBS serialized graph (.sg, or "
       ".wsg when weighted); metis: METIS adjacency lists (a symmetric graph without self-loops); parquet: a directory "
       "of Parquet parts (src, dst[, weight]) and graphso.json, for tools/spark");
  po::positional_options_description positional;
  positional.add("input", 1);
  po::variables_map vm;
  if (!parse_options("export", "GRAPH_DIR|EDGES.bin -o OUT [--format edgelist|bin|gr|graphalytics|sg|metis|parquet]", args, options, positional, vm))
    return 0;
  if (same_file(input, output)) fail("export: {} is the input; write the output to another file", output);
  if (format_name == "parquet") {
    if (output == "-" || output == "/dev/stdout") throw UsageError("export: --format parquet needs a directory, not standard output");
    const ExportSummary done = export_parquet(input, output);
    std::printf("%s: %llu vertices, %llu edges%s, original ids, Parquet\n", output.c_str(),
                static_cast<unsigned long long>(done.vertices), static_cast<unsigned long long>(done.edges),
                done.weighted ? ", weighted" : "");
    return 0;
  }
  const ExportFormat format = command_line([&] { return parse_export_format(format_name); });
  // A graphso edge list's header is written last, over its start: it needs a file to seek in.
  if (format == ExportFormat::Binary && (output == "-" || output == "/dev/stdout"))
    throw UsageError("export: --format bin needs a file, not standard output");
  if (format == ExportFormat::Graphalytics && (output == "-" || output == "/dev/stdout"))
    throw UsageError("export: --format graphalytics writes three files (OUT.v, OUT.e, OUT.properties), not standard output");
  const ExportSummary done = export_graph(input, output, format);
  const char* ids = !done.dataset_ids                        ? "original ids"
                   : format == ExportFormat::Graphalytics    ? "the dataset's own ids"
                   : format == ExportFormat::Binary          ? "dense ids, the dataset's own beside them (OUT.bin.ids)"
                                                             : "dense ids (the dataset's own in ascending order)";
  std::fprintf(output == "-" || output == "/dev/stdout" ? stderr : stdout, "%s: %llu vertices, %llu edges%s, %s\n",
               output.c_str(), static_cast<unsigned long long>(done.vertices), static_cast<unsigned long long>(done.edges),
               done.weighted ? ", weighted" : "", ids);
  return 0;
}

}  // namespace graphso
