#include "tests/e2e/store_cli.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include "tests/e2e/cli.h"

namespace graphso::testing {

std::unique_ptr<Input> rmat_input(uint32_t scale, uint32_t edge_factor, uint64_t seed, bool weighted) {
  auto in = std::make_unique<Input>();
  in->set = rmat_edges(scale, edge_factor, weighted, seed, in->dir);
  for (const WeightedEdge& e : in->set.edges) in->edges.push_back({e.src, e.dst});
  in->path = in->dir.file("edges.bin");
  write_edges(in->path, in->set);
  return in;
}

std::map<std::string, std::string> store_stat(const std::string& store) {
  CliResult r = graphso_cli({"store-stat", store});
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::map<std::string, std::string> keys;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    size_t colon = line.find(": ");
    REQUIRE(colon != std::string::npos);
    REQUIRE(colon > 0);
    keys[line.substr(0, colon)] = line.substr(colon + 2);
  }
  return keys;
}

uint64_t last_ack(const std::string& path) {
  std::ifstream in(path);
  std::string all((std::istreambuf_iterator<char>(in)), {});
  uint64_t best = 0;
  std::istringstream lines(all.substr(0, all.rfind('\n') + 1));
  for (std::string line; std::getline(lines, line);) best = std::max<uint64_t>(best, std::stoull(line));
  return best;
}

std::vector<WeightedEdge> stored_edges(std::span<const WeightedEdge> edges, const std::string& mode) {
  if (mode != "ftgraph") return {edges.begin(), edges.end()};
  std::set<std::pair<VertexId, VertexId>> seen;
  std::vector<WeightedEdge> first;
  for (const WeightedEdge& e : edges)
    if (seen.insert({e.src, e.dst}).second) first.push_back(e);
  return first;
}

}  // namespace graphso::testing
