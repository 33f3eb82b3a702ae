// DIMACS 9th Implementation Challenge shortest-path graphs (.gr): "c" comment lines, one problem
// line "p sp N M", then M arc lines "a U V W" with 1-based ids and integer lengths. Read as N
// vertices (0-based) and M weighted arcs, checked against the problem line.
#include <algorithm>

#include "base/error.h"
#include "datasets/format_readers.h"
#include "datasets/text_input.h"

namespace graphso {

EdgeSet read_dimacs(const std::string& path) {
  if (path.ends_with(".co") || path.ends_with(".co.gz"))
    fail("{}: a DIMACS coordinate file holds no arcs; convert the .gr file of the same graph", path);
  LineReader reader(path);
  Progress progress = reading_progress(path);
  EdgeSet set;
  set.weighted = true;
  uint64_t vertices = 0, arcs = 0;
  bool have_problem = false;
  std::string_view line;
  while (reader.next(line)) {
    const Located at{path, reader.line_number()};
    Tokens tokens(line);
    std::string_view kind;
    if (!tokens.next(kind) || kind == "c") continue;  // blank or comment
    if (kind == "p") {
      std::string_view sp, n, m, extra;
      if (have_problem) fail("{}:{}: a second problem line", path, at.line);
      if (!tokens.next(sp) || sp != "sp" || !tokens.next(n) || !tokens.next(m) || tokens.next(extra))
        fail("{}:{}: expected the problem line 'p sp VERTICES ARCS', got '{}'", path, at.line, printable(line.substr(0, 80)));
      vertices = parse_id(n, at, "vertex count");
      arcs = parse_id(m, at, "arc count");
      if (vertices > kMaxVertexId + uint64_t{1}) fail("{}:{}: {} vertices exceed the maximum of 2^32-1", path, at.line, vertices);
      // The declared count is the file's word: reserve no more than a plausible start.
      set.edges.reserve(std::min<uint64_t>(arcs, uint64_t{1} << 24));
      have_problem = true;
      continue;
    }
    if (kind != "a") fail("{}:{}: unknown line type '{}' (expected c, p or a)", path, at.line, printable(kind));
    if (!have_problem) fail("{}:{}: an arc before the problem line 'p sp VERTICES ARCS'", path, at.line);
    std::string_view u, v, w, extra;
    if (!tokens.next(u) || !tokens.next(v) || !tokens.next(w) || tokens.next(extra))
      fail("{}:{}: expected 'a FROM TO LENGTH', got '{}'", path, at.line, printable(line.substr(0, 80)));
    const uint64_t from = parse_id(u, at, "source id"), to = parse_id(v, at, "destination id");
    if (from < 1 || from > vertices) fail("{}:{}: source id {} outside 1..{}", path, at.line, from, vertices);
    if (to < 1 || to > vertices) fail("{}:{}: destination id {} outside 1..{}", path, at.line, to, vertices);
    if (set.edges.size() == arcs) fail("{}:{}: more arcs than the {} the problem line declares", path, at.line, arcs);
    set.edges.push_back({static_cast<VertexId>(from - 1), static_cast<VertexId>(to - 1), parse_weight(w, at)});
    if ((set.edges.size() & 0xFFFF) == 0) progress.update(reader.compressed_offset());
  }
  if (!have_problem) fail("{}: no problem line 'p sp VERTICES ARCS' (not a DIMACS .gr file?)", path);
  if (set.edges.size() != arcs)
    fail("{}:{}: the file ends after {} arcs, the problem line declares {}", path, reader.line_number(), set.edges.size(), arcs);
  set.vertices = vertices;
  return set;
}

}  // namespace graphso
