#include "prep/graph_export.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <vector>

#include "base/dataset_ids.h"
#include "base/error.h"
#include "base/file.h"
#include "base/progress.h"
#include "datasets/edge_input.h"
#include "datasets/edge_list.h"
#include "engine/gridgraph/grid_graph.h"

namespace graphso {
namespace {

constexpr uint64_t kBatchEdges = 1 << 16;

// Where exported edges go: text lines, graphso edge-list records, DIMACS arcs or a Graphalytics
// dataset's files, in batches. ids: the dataset's own ids, if it has them (null otherwise).
class ExportSink {
 public:
  ExportSink(const std::string& input, const std::string& output, ExportFormat format, const EdgeListInfo& info,
             const DatasetIds* ids)
      : info_(info), format_(format), ids_(ids) {
    if (info.real_weights && (format == ExportFormat::Dimacs || format == ExportFormat::Gapbs || format == ExportFormat::Metis))
      fail("export: {} weights are integers and this graph's are real; export it as text, bin or graphalytics",
           format == ExportFormat::Dimacs ? "DIMACS" : format == ExportFormat::Gapbs ? "GAPBS" : "METIS");
    switch (format) {
      case ExportFormat::Binary:
        binary_.emplace(output, info.weighted, info.real_weights);
        if (ids) ids_path_ = dataset_ids_path(output);
        return;
      case ExportFormat::EdgeList:
        text_.emplace(output);
        text_->append(fmt::format("# graphso export of {}: {} edges{}\n{}{}\n", input, info.edges,
                                  info.real_weights ? ", src dst weight (real: convert --real-weights)"
                                  : info.weighted  ? ", src dst weight"
                                                   : ", src dst",
                                  kVertexCountComment, info.vertices));
        return;
      case ExportFormat::Dimacs:
        text_.emplace(output);
        text_->append(fmt::format("c graphso export of {}: {} arcs, ids from 1{}\np sp {} {}\n", input, info.edges,
                                  info.weighted ? "" : ", every length 1 (the graph is unweighted)", info.vertices, info.edges));
        return;
      case ExportFormat::Gapbs:
      case ExportFormat::Metis: {
        const bool wsg = output.ends_with(".wsg");
        if (format == ExportFormat::Gapbs && info.weighted != wsg)
          fail("export: GAPBS tells a weighted graph by its name: write {} to a {} file, not {}",
               info.weighted ? "this weighted graph" : "this unweighted graph", info.weighted ? ".wsg" : ".sg", output);
        held_.reserve(info.edges);
        csr_.emplace(output);
        return;
      }
      case ExportFormat::Graphalytics: {
        const std::string base = output.ends_with(".e") ? output.substr(0, output.size() - 2) : output;
        const std::string name = base.substr(base.find_last_of('/') + 1);
        text_.emplace(base + ".e");
        vertices_.emplace(base + ".v");
        properties_.emplace(base + ".properties");
        properties_->append(fmt::format(
            "# graphso export of {}\ngraph.{}.vertex-file = {}.v\ngraph.{}.edge-file = {}.e\ngraph.{}.meta.vertices = {}\n"
            "graph.{}.meta.edges = {}\ngraph.{}.directed = true\n{}",
            input, name, name, name, name, name, info.vertices, name, info.edges, name,
            info.weighted ? fmt::format("graph.{}.edge-properties.names = weight\ngraph.{}.edge-properties.types = {}\n", name,
                                        name, info.real_weights ? "real" : "int")
                          : ""));
        fmt::memory_buffer lines;
        for (uint64_t v = 0; v < info.vertices; ++v) {
          fmt::format_to(std::back_inserter(lines), "{}\n", id(static_cast<VertexId>(v)));
          if (lines.size() >= (1 << 20)) flush(*vertices_, lines);
        }
        flush(*vertices_, lines);
        return;
      }
    }
  }

  void append(std::span<const WeightedEdge> edges) {
    edges_ += edges.size();
    if (binary_) return binary_->append(edges);
    if (csr_) {
      held_.insert(held_.end(), edges.begin(), edges.end());
      return;
    }
    line_buffer_.clear();
    auto out = std::back_inserter(line_buffer_);
    for (const WeightedEdge& e : edges) {
      switch (format_) {
        case ExportFormat::Dimacs: fmt::format_to(out, "a {} {} {}\n", uint64_t{e.src} + 1, uint64_t{e.dst} + 1, e.weight); break;
        case ExportFormat::Graphalytics: line(out, id(e.src), id(e.dst), e.weight); break;
        default: line(out, e.src, e.dst, e.weight);
      }
    }
    flush(*text_, line_buffer_);
  }

  uint64_t edges() const { return edges_; }

  // "src dst[ weight]": the weight as an integer, or a real as the shortest decimal that reads
  // back to the same binary32.
  template <typename Out, typename Id>
  void line(Out out, Id src, Id dst, Weight weight) const {
    if (info_.real_weights) fmt::format_to(out, "{} {} {}\n", src, dst, real_weight(weight));
    else if (info_.weighted) fmt::format_to(out, "{} {} {}\n", src, dst, weight);
    else fmt::format_to(out, "{} {}\n", src, dst);
  }

  void commit() {
    if (edges_ != info_.edges) fail("export: read {} edges where {} were declared", edges_, info_.edges);
    if (binary_) {
      binary_->finish(info_.vertices);
      if (!ids_path_.empty()) ids_->save(ids_path_);
      return;
    }
    if (csr_) {
      if (format_ == ExportFormat::Gapbs) write_gapbs();
      else write_metis();
      return csr_->commit();
    }
    for (auto* file : {&vertices_, &properties_})
      if (*file) (*file)->commit();
    text_->commit();
  }

 private:
  uint64_t id(VertexId v) const { return ids_ ? ids_->id_of(v) : v; }

  // The held arcs as lists by source (or by destination: in-lists), each sorted, and their offsets.
  struct Lists {
    std::vector<uint64_t> offsets;
    std::vector<WeightedEdge> arcs;
  };
  Lists lists(bool incoming) const {
    Lists l;
    l.offsets.assign(info_.vertices + 1, 0);
    for (const WeightedEdge& e : held_) ++l.offsets[(incoming ? e.dst : e.src) + 1];
    for (uint64_t v = 0; v < info_.vertices; ++v) l.offsets[v + 1] += l.offsets[v];
    l.arcs.resize(held_.size());
    std::vector<uint64_t> next(l.offsets.begin(), l.offsets.end() - 1);
    for (const WeightedEdge& e : held_) l.arcs[next[incoming ? e.dst : e.src]++] = e;
    for (uint64_t v = 0; v < info_.vertices; ++v)
      std::sort(l.arcs.begin() + static_cast<int64_t>(l.offsets[v]), l.arcs.begin() + static_cast<int64_t>(l.offsets[v + 1]),
                [incoming](const WeightedEdge& a, const WeightedEdge& b) {
                  return incoming ? std::tie(a.src, a.weight) < std::tie(b.src, b.weight)
                                  : std::tie(a.dst, a.weight) < std::tie(b.dst, b.weight);
                });
    return l;
  }

  // Symmetric, weights and all: the held arcs equal their mirror image.
  std::optional<ArcDifference> asymmetry() const {
    std::vector<WeightedEdge> mirrored = held_;
    for (WeightedEdge& e : mirrored) std::swap(e.src, e.dst);
    return first_difference(held_, std::move(mirrored));
  }

  // GAPBS's layout (its reader.h): bool directed, int64 arcs, int64 vertices, the out-CSR
  // (int64 offsets, int32 neighbours or {neighbour, weight} pairs), a directed graph's in-CSR.
  void write_gapbs() {
    if (info_.vertices > 0x80000000ull) fail("export: {} vertices exceed GAPBS's int32 ids", info_.vertices);
    const bool directed = asymmetry().has_value();
    const int64_t arcs = static_cast<int64_t>(held_.size()), vertices = static_cast<int64_t>(info_.vertices);
    csr_->append(as_bytes_of(directed));
    csr_->append(as_bytes_of(arcs));
    csr_->append(as_bytes_of(vertices));
    for (bool incoming : directed ? std::vector<bool>{false, true} : std::vector<bool>{false}) {
      const Lists l = lists(incoming);
      std::vector<int64_t> offsets(l.offsets.begin(), l.offsets.end());
      csr_->append(std::as_bytes(std::span(offsets)));
      std::vector<int32_t> words;
      words.reserve(l.arcs.size() * (info_.weighted ? 2 : 1));
      for (const WeightedEdge& e : l.arcs) {
        words.push_back(static_cast<int32_t>(incoming ? e.src : e.dst));
        if (!info_.weighted) continue;
        if (e.weight > 0x7FFFFFFFu) fail("export: weight {} of {} -> {} exceeds GAPBS's int32 weights", e.weight, e.src, e.dst);
        words.push_back(static_cast<int32_t>(e.weight));
      }
      csr_->append(std::as_bytes(std::span(words)));
    }
  }

  // METIS: header "N M[ 1]", then each vertex's 1-based neighbours (and weights) on its line.
  void write_metis() {
    if (const auto d = asymmetry())
      fail("export: METIS holds undirected graphs, and this one is not symmetric: {} -> {}{} has no reverse{}", d->arc.src,
           d->arc.dst, info_.weighted ? fmt::format(" (weight {})", d->arc.weight) : "", info_.weighted ? " of that weight" : "");
    for (const WeightedEdge& e : held_)
      if (e.src == e.dst) fail("export: METIS allows no self-loops, and vertex {} has one", e.src);
    const Lists l = lists(false);
    fmt::memory_buffer lines;
    fmt::format_to(std::back_inserter(lines), "% graphso export: {} vertices, {} edges\n{} {}{}\n", info_.vertices,
                   held_.size() / 2, info_.vertices, held_.size() / 2, info_.weighted ? " 1" : "");
    for (uint64_t v = 0; v < info_.vertices; ++v) {
      for (uint64_t i = l.offsets[v]; i < l.offsets[v + 1]; ++i) {
        fmt::format_to(std::back_inserter(lines), "{}{}", i == l.offsets[v] ? "" : " ", uint64_t{l.arcs[i].dst} + 1);
        if (info_.weighted) fmt::format_to(std::back_inserter(lines), " {}", l.arcs[i].weight);
      }
      lines.push_back('\n');
      if (lines.size() >= (1 << 20)) flush(*csr_, lines);
    }
    flush(*csr_, lines);
  }
  static void flush(AtomicOutputFile& file, fmt::memory_buffer& lines) {
    file.append(std::as_bytes(std::span<const char>(lines.data(), lines.size())));
    lines.clear();
  }

  EdgeListInfo info_;
  ExportFormat format_;
  const DatasetIds* ids_;
  std::string ids_path_;
  std::optional<EdgeListWriter> binary_;
  std::optional<AtomicOutputFile> text_;
  std::optional<AtomicOutputFile> vertices_;     // graphalytics: OUT.v
  std::optional<AtomicOutputFile> properties_;   // graphalytics: OUT.properties
  std::optional<AtomicOutputFile> csr_;          // sg, metis: written from held_ at the end
  std::vector<WeightedEdge> held_;
  fmt::memory_buffer line_buffer_;
  uint64_t edges_ = 0;
};

ExportSummary export_grid(const std::string& dir, const std::string& output, ExportFormat format) {
  const GridGraph graph = GridGraph::open(dir);
  const GridMeta& m = graph.meta();
  const EdgeListInfo info{m.vertices, m.edges, m.weighted, m.real_weights};
  ExportSink sink(dir, output, format, info, graph.order().dataset_ids());
  Progress progress("exporting " + dir, m.edges, "edges");
  graph.read_original_edges([&](std::span<const WeightedEdge> edges) {
    sink.append(edges);
    progress.update(sink.edges());
  });
  sink.commit();
  return ExportSummary{info.vertices, info.edges, info.weighted, info.real_weights, m.symmetric, graph.order().has_dataset_ids()};
}

ExportSummary export_edge_list(const std::string& path, const std::string& output, ExportFormat format) {
  EdgeListReader reader(path);
  const EdgeListInfo info = reader.info();
  const std::optional<DatasetIds> ids = DatasetIds::beside(path, info.vertices);
  ExportSink sink(path, output, format, info, ids ? &*ids : nullptr);
  Progress progress("exporting " + path, info.edges, "edges");
  std::vector<WeightedEdge> batch;
  while (reader.next_batch(batch, kBatchEdges)) {
    sink.append(batch);
    progress.update(sink.edges());
  }
  sink.commit();
  return ExportSummary{info.vertices, info.edges, info.weighted, info.real_weights, false, ids.has_value()};
}

}  // namespace

ExportFormat parse_export_format(const std::string& name) {
  if (name == "edgelist") return ExportFormat::EdgeList;
  if (name == "bin") return ExportFormat::Binary;
  if (name == "gr") return ExportFormat::Dimacs;
  if (name == "graphalytics") return ExportFormat::Graphalytics;
  if (name == "sg") return ExportFormat::Gapbs;
  if (name == "metis") return ExportFormat::Metis;
  fail("unknown export format '{}' (expected edgelist, bin, gr, graphalytics, sg, metis or parquet)", name);
}

ExportSummary export_graph(const std::string& input, const std::string& output, ExportFormat format) {
  std::error_code error;
  if (std::filesystem::is_directory(input, error)) return export_grid(input, output, format);
  if (!path_exists(input)) fail("{}: no such graph directory or edge list", input);
  return export_edge_list(input, output, format);
}

}  // namespace graphso
