// graphso inspect GRAPH_DIR [--verify]
#include <algorithm>
#include <cstdio>
#include <optional>

#include "base/progress.h"
#include "engine/gridgraph/grid_graph.h"
#include "engine/xstream/xstream_layout.h"
#include "engine/gridgraph/grid_engine.h"
#include "engine/xstream/xstream_engine.h"
#include "io/page_sums.h"
#include "middleware/chunk_size.h"
#include "middleware/tchunk.h"
#include "tools/graphso/options.h"

namespace graphso {

int cmd_inspect(const Args& args) {
  po::options_description options("inspect options");
  std::string dir;
  options.add_options()
      ("graph", po::value(&dir)->required(), "graph directory")
      ("verify", po::bool_switch(), "read every block and check checksums and vertex ranges");
  po::positional_options_description positional;
  positional.add("graph", 1);
  po::variables_map vm;
  if (!parse_options("inspect", "GRAPH_DIR [--verify]", args, options, positional, vm)) return 0;

  GridGraph graph = GridGraph::open(dir);
  const GridMeta& m = graph.meta();
  uint64_t empty = 0, largest = 0, largest_bytes = 0;
  for (uint64_t b = 0; b < m.num_blocks(); ++b) {
    empty += m.block_edges[b] == 0;
    largest = std::max(largest, m.block_edges[b]);
    largest_bytes = std::max(largest_bytes, m.block_sizes[b]);
  }
  const auto& deg = graph.out_degrees();
  auto hub = std::max_element(deg.begin(), deg.end());
  uint64_t max_degree = hub == deg.end() ? 0 : *hub;
  uint64_t sinks = static_cast<uint64_t>(std::count(deg.begin(), deg.end(), 0u));
  std::printf("graph:            %s\n", dir.c_str());
  std::printf("format version:   %u\n", kGridFormatVersion);
  std::printf("vertices:         %llu\n", static_cast<unsigned long long>(m.vertices));
  std::printf("edges:            %llu\n", static_cast<unsigned long long>(m.edges));
  std::printf("weighted:         %s\n", m.real_weights ? "yes (real, binary32)" : m.weighted ? "yes (u32)" : "no");
  std::printf("edge record:      %u bytes\n", m.edge_size());
  std::printf("edge encoding:    %s, %.3f bytes per edge stored (%.3f of the %u-byte records)\n",
              encoding_name(m.encoding), m.edges ? static_cast<double>(m.stored_bytes()) / static_cast<double>(m.edges) : 0.0,
              m.edges ? static_cast<double>(m.stored_bytes()) / static_cast<double>(m.edges * m.edge_size()) : 0.0,
              m.edge_size());
  std::printf("symmetric:        %s\n", m.symmetric ? "yes (every edge's reverse is an edge)" : "no");
  std::string root = m.order_root == kNoVertex ? "" : fmt::format(" from vertex {}", m.order_root);
  std::printf("vertex order:     %s%s%s\n", graph.order().name(), root.c_str(),
              graph.order().is_natural() ? " (ids as given)" : " (relabelled at prep; sources and results use original ids)");
  std::printf("layout:           gridgraph, %u x %u blocks, %llu vertices per range\n", m.partitions,
              m.partitions, static_cast<unsigned long long>(m.range_size));
  std::printf("blocks:           %llu non-empty, %llu empty, largest %llu edges (%s), average %s\n",
              static_cast<unsigned long long>(m.num_blocks() - empty), static_cast<unsigned long long>(empty),
              static_cast<unsigned long long>(largest),
              human_bytes(static_cast<double>(largest_bytes)).c_str(),
              human_bytes(static_cast<double>(m.stored_bytes()) / static_cast<double>(m.num_blocks() - empty + (empty == m.num_blocks()))).c_str());
  std::printf("edge files:       grid.row, grid.col, %s each\n", human_bytes(static_cast<double>(m.edge_file_bytes())).c_str());
  std::printf("out-degree:       max %llu (vertex %lld), %llu vertices without out-edges\n",
              static_cast<unsigned long long>(max_degree),
              hub == deg.end() ? -1LL : static_cast<long long>(graph.order().to_original(static_cast<VertexId>(hub - deg.begin()))),
              static_cast<unsigned long long>(sinks));
  std::optional<XStreamLayout> streaming;
  if (XStreamLayout::exists(dir)) {
    streaming = XStreamLayout::open(graph);
    uint64_t largest = 0, largest_bytes = 0;
    for (uint32_t k = 0; k < streaming->partitions(); ++k) {
      largest = std::max(largest, streaming->edges(k));
      largest_bytes = std::max(largest_bytes, streaming->bytes(k));
    }
    std::printf("xstream layout:   %u streaming partitions (xstream.part.*), largest %llu edges (%s)\n",
                streaming->partitions(), static_cast<unsigned long long>(largest),
                human_bytes(static_cast<double>(largest_bytes)).c_str());
  } else {
    std::printf("xstream layout:   none (prep --engine xstream|both writes it)\n");
  }
  if (std::optional<ChunkSizeChoice> recorded = recorded_chunk_size(graph.files()))
    std::printf("chunk size:       %s by default (%s)\n", human_bytes(static_cast<double>(recorded->bytes)).c_str(),
                recorded->basis.c_str());
  else
    std::printf("chunk size:       %s by default (no record: prepared by an older graphso)\n",
                human_bytes(static_cast<double>(kDefaultChunkBytes)).c_str());
  // TChunk tables, one per layout and chunk size built so far (each is validated as it is loaded).
  std::vector<EngineLayout> layouts = {gridgraph_layout(graph)};
  if (streaming) layouts.push_back(xstream_layout(graph, *streaming));
  bool any = false;
  for (const EngineLayout& layout : layouts) {
    std::vector<uint64_t> sizes = graph.files().tchunk_sizes(layout.name);
    for (uint64_t size : sizes) {
      TChunkTable table = TChunkTable::load(layout, size, 0);
      uint64_t sources = 0, width = 0, edges = 0;
      for (const ChunkInfo& c : table.chunks()) {
        sources += c.distinct_sources;
        width += uint64_t{c.last_src} - c.first_src + 1;
        edges += c.edges;
      }
      double count = static_cast<double>(std::max<size_t>(1, table.chunks().size()));
      const double per_edge = 1.0 / static_cast<double>(std::max<uint64_t>(1, m.edges));
      std::printf("%-17s %zu chunks of %s: %.0f edges, %.0f distinct sources over a range of %.0f ids per chunk; "
                  "records %s (%.3f bytes/edge, always in memory), source index %s (%.3f bytes/edge, in memory as "
                  "far as the budget allows)\n",
                  (GraphFiles::tchunk_name(layout.name, size) + ":").c_str(), table.chunks().size(),
                  human_bytes(static_cast<double>(size)).c_str(), static_cast<double>(edges) / count,
                  static_cast<double>(sources) / count, static_cast<double>(width) / count,
                  human_bytes(static_cast<double>(table.records_bytes())).c_str(),
                  static_cast<double>(table.records_bytes()) * per_edge,
                  human_bytes(static_cast<double>(table.index_bytes())).c_str(),
                  static_cast<double>(table.index_bytes()) * per_edge);
      any = true;
    }
  }
  if (!any) std::printf("tchunk:           none yet (built by prep, or by the first chunk-mode run)\n");
  if (vm["verify"].as<bool>()) {
    verify_page_sums(graph.files().grid_row());
    verify_page_sums(graph.files().grid_col());
    graph.verify_blocks();
    std::printf("verify:           ok (every page's CRC-32C; every block's checksum and vertex ranges, both files)\n");
    if (streaming) {
      for (uint32_t k = 0; k < streaming->partitions(); ++k) verify_page_sums(streaming->path(k));
      streaming->verify(graph);
      std::printf("verify:           ok (every X-Stream partition's pages and checksum, source range and order)\n");
    }
  }
  return 0;
}

}  // namespace graphso
