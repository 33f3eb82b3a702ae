// graphso export --format parquet: the graph in original ids as a Parquet edge table in parts,
// with graphso.json beside them (tools/spark reads both). graphso writes the edges as a graphso
// edge list, and pyarrow, through tools/spark/graphso_spark/parquet_export.py, writes the Parquet:
// Debian has no Arrow C++ library, and a hand-written Parquet writer is what the project does not do.
//
// The Python is $GRAPHSO_PYTHON, else the checkout's .venv-spark (make deps), else python3; the
// tool is $GRAPHSO_SPARK_TOOL, else tools/spark beside the binary's build directory.
#pragma once

#include <string>

#include "prep/graph_export.h"

namespace graphso {

ExportSummary export_parquet(const std::string& input, const std::string& output_dir);

}  // namespace graphso
