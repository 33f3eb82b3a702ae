#include "prep/graph_export.h"

#include <fmt/format.h>

#include <filesystem>
#include <optional>
#include <vector>

#include "base/error.h"
#include "base/file.h"
#include "base/progress.h"
#include "datasets/edge_input.h"
#include "datasets/edge_list.h"
#include "engine/gridgraph/grid_graph.h"

namespace graphso {
namespace {

constexpr uint64_t kBatchEdges = 1 << 16;

// Where exported edges go: text lines or graphso edge-list records, in batches.
class ExportSink {
 public:
  ExportSink(const std::string& input, const std::string& output, ExportFormat format, const EdgeListInfo& info)
      : info_(info) {
    if (format == ExportFormat::Binary) {
      binary_.emplace(output, info.weighted);
      return;
    }
    text_.emplace(output);
    text_->append(fmt::format("# graphso export of {}: {} edges{}\n{}{}\n", input, info.edges,
                              info.weighted ? ", src dst weight" : ", src dst", kVertexCountComment, info.vertices));
  }

  void append(std::span<const WeightedEdge> edges) {
    edges_ += edges.size();
    if (binary_) return binary_->append(edges);
    line_buffer_.clear();
    for (const WeightedEdge& e : edges) {
      if (info_.weighted) fmt::format_to(std::back_inserter(line_buffer_), "{} {} {}\n", e.src, e.dst, e.weight);
      else fmt::format_to(std::back_inserter(line_buffer_), "{} {}\n", e.src, e.dst);
    }
    text_->append(std::as_bytes(std::span<const char>(line_buffer_.data(), line_buffer_.size())));
  }

  uint64_t edges() const { return edges_; }

  void commit() {
    if (edges_ != info_.edges) fail("export: read {} edges where {} were declared", edges_, info_.edges);
    if (binary_) binary_->finish(info_.vertices);
    else text_->commit();
  }

 private:
  EdgeListInfo info_;
  std::optional<EdgeListWriter> binary_;
  std::optional<AtomicOutputFile> text_;
  fmt::memory_buffer line_buffer_;
  uint64_t edges_ = 0;
};

ExportSummary export_grid(const std::string& dir, const std::string& output, ExportFormat format) {
  const GridGraph graph = GridGraph::open(dir);
  const GridMeta& m = graph.meta();
  const EdgeListInfo info{m.vertices, m.edges, m.weighted};
  ExportSink sink(dir, output, format, info);
  Progress progress("exporting " + dir, m.edges, "edges");
  graph.read_original_edges([&](std::span<const WeightedEdge> edges) {
    sink.append(edges);
    progress.update(sink.edges());
  });
  sink.commit();
  return ExportSummary{info.vertices, info.edges, info.weighted, m.symmetric};
}

ExportSummary export_edge_list(const std::string& path, const std::string& output, ExportFormat format) {
  EdgeListReader reader(path);
  const EdgeListInfo info = reader.info();
  ExportSink sink(path, output, format, info);
  Progress progress("exporting " + path, info.edges, "edges");
  std::vector<WeightedEdge> batch;
  while (reader.next_batch(batch, kBatchEdges)) {
    sink.append(batch);
    progress.update(sink.edges());
  }
  sink.commit();
  return ExportSummary{info.vertices, info.edges, info.weighted};
}

}  // namespace

ExportFormat parse_export_format(const std::string& name) {
  if (name == "edgelist") return ExportFormat::EdgeList;
  if (name == "bin") return ExportFormat::Binary;
  fail("unknown export format '{}' (expected edgelist, bin or parquet)", name);
}

ExportSummary export_graph(const std::string& input, const std::string& output, ExportFormat format) {
  std::error_code error;
  if (std::filesystem::is_directory(input, error)) return export_grid(input, output, format);
  if (!path_exists(input)) fail("{}: no such graph directory or edge list", input);
  return export_edge_list(input, output, format);
}

}  // namespace graphso
