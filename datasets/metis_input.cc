// METIS graph files (the adjacency format of METIS' manual, section 4.1.1): '%' comments, a header
// "N M [FMT [NCON]]", then one line per vertex listing its neighbours (1-based), a blank line for
// a vertex without any. FMT's digits say what each line carries besides the neighbours: vertex
// size (hundreds), NCON vertex weights (tens, both skipped here), a weight after each neighbour
// (units). M counts undirected edges, each listed by both ends; read as 2M arcs, and a file whose
// lists do not mirror each other is refused as METIS refuses it.
#include <algorithm>

#include "base/error.h"
#include "datasets/format_readers.h"
#include "datasets/text_input.h"

namespace graphso {
namespace {

struct Header {
  uint64_t vertices = 0;
  uint64_t edges = 0;
  bool sizes = false;
  uint64_t vertex_weights = 0;  // per vertex
  bool edge_weights = false;
};

Header parse_header(std::string_view line, const Located& at) {
  Tokens tokens(line);
  std::string_view n, m, fmt, ncon, extra;
  if (!tokens.next(n) || !tokens.next(m))
    fail("{}:{}: expected the header 'VERTICES EDGES [FMT [NCON]]', got '{}'", at.path, at.line, printable(line.substr(0, 80)));
  Header h;
  h.vertices = parse_id(n, at, "vertex count");
  h.edges = parse_id(m, at, "edge count");
  if (h.vertices > kMaxVertexId + uint64_t{1}) fail("{}:{}: {} vertices exceed the maximum of 2^32-1", at.path, at.line, h.vertices);
  if (tokens.next(fmt)) {
    if (fmt.size() > 3 || fmt.find_first_not_of("01") != std::string_view::npos)
      fail("{}:{}: FMT '{}' is not up to three binary digits", at.path, at.line, printable(fmt));
    const std::string digits = std::string(3 - fmt.size(), '0') + std::string(fmt);
    h.sizes = digits[0] == '1';
    h.vertex_weights = digits[1] == '1' ? 1 : 0;
    h.edge_weights = digits[2] == '1';
    if (tokens.next(ncon)) {
      if (!h.vertex_weights) fail("{}:{}: NCON given but FMT '{}' has no vertex weights", at.path, at.line, printable(fmt));
      h.vertex_weights = parse_id(ncon, at, "NCON");
      if (h.vertex_weights == 0 || h.vertex_weights > 1024) fail("{}:{}: NCON {} outside 1..1024", at.path, at.line, h.vertex_weights);
    }
  }
  if (tokens.next(extra)) fail("{}:{}: unexpected '{}' after the header", at.path, at.line, printable(extra));
  return h;
}

}  // namespace

EdgeSet read_metis(const std::string& path) {
  LineReader reader(path);
  Progress progress = reading_progress(path);
  std::string_view line;
  bool have_header = false;
  Header h;
  EdgeSet set;
  uint64_t vertex = 0;  // the 0-based vertex the next list belongs to
  while (reader.next(line)) {
    const Located at{path, reader.line_number()};
    const size_t first = line.find_first_not_of(" \t");
    if (first != std::string_view::npos && line[first] == '%') continue;
    if (!have_header) {
      if (first == std::string_view::npos) continue;
      h = parse_header(line, at);
      set.weighted = h.edge_weights;
      set.edges.reserve(std::min<uint64_t>(2 * h.edges, uint64_t{1} << 24));
      have_header = true;
      continue;
    }
    if (vertex == h.vertices) {
      if (first == std::string_view::npos) continue;  // trailing blank lines
      fail("{}:{}: more vertex lines than the {} the header declares", path, at.line, h.vertices);
    }
    Tokens tokens(line);
    std::string_view token;
    for (uint64_t skip = (h.sizes ? 1 : 0) + h.vertex_weights; skip > 0; --skip) {
      if (!tokens.next(token)) fail("{}:{}: vertex {} lacks its size or weights", path, at.line, vertex + 1);
      check_value(token, at);
    }
    while (tokens.next(token)) {
      const uint64_t neighbour = parse_id(token, at, "neighbour");
      if (neighbour < 1 || neighbour > h.vertices) fail("{}:{}: neighbour {} outside 1..{}", path, at.line, neighbour, h.vertices);
      if (neighbour == vertex + 1) fail("{}:{}: vertex {} lists itself (METIS allows no self-loops)", path, at.line, neighbour);
      Weight w = 1;
      if (h.edge_weights) {
        if (!tokens.next(token)) fail("{}:{}: neighbour {} has no edge weight", path, at.line, neighbour);
        w = parse_weight(token, at);
      }
      if (set.edges.size() == 2 * h.edges)
        fail("{}:{}: more neighbours than the 2 x {} edges the header declares", path, at.line, h.edges);
      set.edges.push_back({static_cast<VertexId>(vertex), static_cast<VertexId>(neighbour - 1), w});
    }
    ++vertex;
    if ((vertex & 0xFFFF) == 0) progress.update(reader.compressed_offset());
  }
  if (!have_header) fail("{}: no header line 'VERTICES EDGES [FMT [NCON]]' (empty file?)", path);
  if (vertex != h.vertices)
    fail("{}:{}: the file ends after {} vertex lines, the header declares {}", path, reader.line_number(), vertex, h.vertices);
  if (set.edges.size() != 2 * h.edges)
    fail("{}: the lists hold {} neighbours, the header's {} edges need {}", path, set.edges.size(), h.edges, 2 * h.edges);
  // Every u->v (with its weight) must be listed as v->u too: the lists equal their mirror image.
  std::vector<WeightedEdge> mirrored = set.edges;
  for (WeightedEdge& e : mirrored) std::swap(e.src, e.dst);
  if (const auto d = first_difference(set.edges, std::move(mirrored))) {
    // An arc only the mirror holds is the mirror of an arc whose own mirror is missing.
    const WeightedEdge lone = d->in_a ? d->arc : WeightedEdge{d->arc.dst, d->arc.src, d->arc.weight};
    fail("{}: vertex {} lists {}{}, but vertex {} does not list {}{} (METIS lists each edge at both ends)", path, lone.src + 1,
         lone.dst + 1, h.edge_weights ? fmt::format(" (weight {})", lone.weight) : "", lone.dst + 1, lone.src + 1,
         h.edge_weights ? " with that weight" : "");
  }
  set.vertices = h.vertices;
  return set;
}

}  // namespace graphso
