// The bench's in-memory yardstick (issue 68, `make bench`'s inmemory experiment): the graph in a
// plain CSR built in memory, then a serial top-down BFS (a first-year textbook's), a serial
// Dijkstra with a binary heap (SSSP over the edge list's u32 weights, 1 when unweighted), a serial
// union-find over the edges (WCC, path halving, union by index), and PageRank by a pull loop over
// the in-CSR on every thread (graphso's definition: d = 0.85, no dangling redistribution, from
// 1/N). It shares no code with graphso, so its answers check graphso's too.
//
//   textbook EDGES.bin [--bfs SRC] [--sssp SRC] [--wcc 1] [--pagerank ITERS] [--reps K]
//
// reads a graphso edge list (docs/formats.md: a 64-byte header, the records, then a CRC per block
// of records; the CRCs are not read: the bench made the file) and prints one JSON object: the load
// time, each repetition's seconds, the BFS's reached vertices and level sum, SSSP's reached
// vertices and distance sum, WCC's components, the ranks' sum.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <numeric>
#include <queue>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Csr {
  uint64_t vertices = 0;
  std::vector<uint64_t> offsets;  // vertices + 1
  std::vector<uint32_t> neighbours;
  std::vector<uint32_t> weights;  // beside neighbours
};

struct EdgeList {
  uint64_t vertices = 0;
  std::vector<uint32_t> src, dst, weight;  // weight 1 when the list has none
};

template <typename T>
T read_at(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

EdgeList read_edge_list(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  char header[64];
  if (!in.read(header, sizeof header) || std::memcmp(header, "GSOEDGE1", 8) != 0)
    throw std::runtime_error(path + " is not a graphso edge list");
  const uint32_t flags = read_at<uint32_t>(header + 12);  // versions 1 and 2 lay the records out alike
  const uint64_t record = (flags & 1) ? 12 : 8;
  EdgeList g;
  g.vertices = read_at<uint64_t>(header + 16);
  const uint64_t edges = read_at<uint64_t>(header + 24);
  g.src.resize(edges);
  g.dst.resize(edges);
  g.weight.assign(edges, 1);
  std::vector<char> buf;
  constexpr uint64_t kPiece = 1 << 20;
  for (uint64_t first = 0; first < edges; first += kPiece) {
    const uint64_t n = std::min(kPiece, edges - first);
    buf.resize(n * record);
    if (!in.read(buf.data(), static_cast<std::streamsize>(buf.size()))) throw std::runtime_error(path + " is short");
    for (uint64_t k = 0; k < n; ++k) {
      g.src[first + k] = read_at<uint32_t>(buf.data() + k * record);
      g.dst[first + k] = read_at<uint32_t>(buf.data() + k * record + 4);
      if (record == 12) g.weight[first + k] = read_at<uint32_t>(buf.data() + k * record + 8);
      if (g.src[first + k] >= g.vertices || g.dst[first + k] >= g.vertices)
        throw std::runtime_error(path + ": an id outside the graph");
    }
  }
  return g;
}

// Counting sort by `key`: the CSR of key -> other.
Csr build(const EdgeList& g, bool by_destination) {
  const std::vector<uint32_t>& key = by_destination ? g.dst : g.src;
  const std::vector<uint32_t>& other = by_destination ? g.src : g.dst;
  Csr c;
  c.vertices = g.vertices;
  c.offsets.assign(g.vertices + 1, 0);
  for (uint32_t k : key) ++c.offsets[k + 1];
  for (uint64_t v = 0; v < g.vertices; ++v) c.offsets[v + 1] += c.offsets[v];
  std::vector<uint64_t> at(c.offsets.begin(), c.offsets.end() - 1);
  c.neighbours.resize(key.size());
  c.weights.resize(key.size());
  for (uint64_t e = 0; e < key.size(); ++e) {
    const uint64_t slot = at[key[e]]++;
    c.neighbours[slot] = other[e];
    c.weights[slot] = g.weight[e];
  }
  return c;
}

// Serial top-down BFS with a queue.
std::vector<uint32_t> bfs(const Csr& out, uint32_t source) {
  std::vector<uint32_t> level(out.vertices, UINT32_MAX);
  std::vector<uint32_t> queue;
  queue.reserve(out.vertices);
  level[source] = 0;
  queue.push_back(source);
  for (size_t head = 0; head < queue.size(); ++head) {
    const uint32_t u = queue[head];
    for (uint64_t e = out.offsets[u]; e < out.offsets[u + 1]; ++e) {
      const uint32_t v = out.neighbours[e];
      if (level[v] == UINT32_MAX) {
        level[v] = level[u] + 1;
        queue.push_back(v);
      }
    }
  }
  return level;
}

// Serial Dijkstra with a binary heap, stale entries skipped.
std::vector<uint64_t> sssp(const Csr& out, uint32_t source) {
  std::vector<uint64_t> dist(out.vertices, UINT64_MAX);
  using Entry = std::pair<uint64_t, uint32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  dist[source] = 0;
  heap.emplace(0, source);
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d != dist[u]) continue;
    for (uint64_t e = out.offsets[u]; e < out.offsets[u + 1]; ++e) {
      const uint32_t v = out.neighbours[e];
      const uint64_t through = d + out.weights[e];
      if (through < dist[v]) {
        dist[v] = through;
        heap.emplace(through, v);
      }
    }
  }
  return dist;
}

// Serial union-find over the edges (both directions: weakly connected), path halving; the number
// of components.
uint64_t wcc(const EdgeList& g) {
  std::vector<uint32_t> parent(g.vertices);
  std::iota(parent.begin(), parent.end(), 0u);
  auto find = [&](uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (uint64_t e = 0; e < g.src.size(); ++e) {
    const uint32_t a = find(g.src[e]), b = find(g.dst[e]);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
  uint64_t components = 0;
  for (uint64_t v = 0; v < g.vertices; ++v) components += find(static_cast<uint32_t>(v)) == v;
  return components;
}

// PageRank by pulling over in-edges, every thread.
std::vector<double> pagerank(const Csr& in, const std::vector<uint32_t>& out_degree, uint32_t iterations) {
  const int64_t n = static_cast<int64_t>(in.vertices);
  const double d = 0.85, base = (1 - d) / static_cast<double>(n);
  std::vector<double> rank(n, 1.0 / static_cast<double>(n)), contrib(n);
  for (uint32_t it = 0; it < iterations; ++it) {
#pragma omp parallel for schedule(static)
    for (int64_t u = 0; u < n; ++u) contrib[u] = out_degree[u] ? rank[u] / out_degree[u] : 0.0;
#pragma omp parallel for schedule(dynamic, 4096)
    for (int64_t v = 0; v < n; ++v) {
      double sum = 0;
      for (uint64_t e = in.offsets[v]; e < in.offsets[v + 1]; ++e) sum += contrib[in.neighbours[e]];
      rank[v] = base + d * sum;
    }
  }
  return rank;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Runs f() `reps` times; the seconds of each run, and the last run's result.
template <typename F>
auto timed(uint32_t reps, F&& f) {
  std::vector<double> times;
  decltype(f()) result{};
  for (uint32_t r = 0; r < reps; ++r) {
    const auto t = std::chrono::steady_clock::now();
    result = f();
    times.push_back(seconds_since(t));
  }
  return std::pair(std::move(times), std::move(result));
}

// The values that are not `unreached`: how many, and their sum.
template <typename T>
std::pair<unsigned long long, unsigned long long> reached_and_sum(const std::vector<T>& values, T unreached) {
  unsigned long long reached = 0, sum = 0;
  for (T x : values)
    if (x != unreached) ++reached, sum += x;
  return {reached, sum};
}

std::string list(const std::vector<double>& v) {
  std::string s = "[";
  for (size_t k = 0; k < v.size(); ++k) s += (k ? ", " : "") + std::to_string(v[k]);
  return s + "]";
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc < 2)
      throw std::runtime_error("usage: textbook EDGES.bin [--bfs SRC] [--sssp SRC] [--wcc 1] [--pagerank ITERS] [--reps K]");
    const std::string path = argv[1];
    int64_t source = -1, sssp_source = -1;
    bool components = false;
    uint32_t iterations = 0, reps = 1;
    for (int k = 2; k + 1 < argc; k += 2) {
      const std::string flag = argv[k];
      const uint64_t value = std::stoull(argv[k + 1]);
      if (flag == "--bfs") source = static_cast<int64_t>(value);
      else if (flag == "--sssp") sssp_source = static_cast<int64_t>(value);
      else if (flag == "--wcc") components = value != 0;
      else if (flag == "--pagerank") iterations = static_cast<uint32_t>(value);
      else if (flag == "--reps") reps = static_cast<uint32_t>(std::max<uint64_t>(1, value));
      else throw std::runtime_error("unknown option " + flag);
    }
    const auto began = std::chrono::steady_clock::now();
    const EdgeList edges = read_edge_list(path);
    const Csr out = build(edges, false);
    Csr in;
    std::vector<uint32_t> out_degree;
    if (iterations) {
      in = build(edges, true);
      out_degree.resize(out.vertices);
      for (uint64_t u = 0; u < out.vertices; ++u) out_degree[u] = static_cast<uint32_t>(out.offsets[u + 1] - out.offsets[u]);
    }
    std::printf("{\"vertices\": %llu, \"edges\": %zu, \"threads\": %d, \"load_seconds\": %.4f",
                static_cast<unsigned long long>(out.vertices), edges.src.size(), omp_get_max_threads(), seconds_since(began));
    if (source >= 0) {
      if (static_cast<uint64_t>(source) >= out.vertices) throw std::runtime_error("source outside the graph");
      const auto [times, level] = timed(reps, [&] { return bfs(out, static_cast<uint32_t>(source)); });
      const auto [reached, sum] = reached_and_sum(level, UINT32_MAX);
      std::printf(", \"bfs_seconds\": %s, \"bfs_reached\": %llu, \"bfs_level_sum\": %llu", list(times).c_str(), reached, sum);
    }
    if (sssp_source >= 0) {
      if (static_cast<uint64_t>(sssp_source) >= out.vertices) throw std::runtime_error("source outside the graph");
      const auto [times, dist] = timed(reps, [&] { return sssp(out, static_cast<uint32_t>(sssp_source)); });
      const auto [reached, sum] = reached_and_sum(dist, UINT64_MAX);
      std::printf(", \"sssp_seconds\": %s, \"sssp_reached\": %llu, \"sssp_distance_sum\": %llu", list(times).c_str(), reached, sum);
    }
    if (components) {
      const auto [times, count] = timed(reps, [&] { return wcc(edges); });
      std::printf(", \"wcc_seconds\": %s, \"wcc_components\": %llu", list(times).c_str(), static_cast<unsigned long long>(count));
    }
    if (iterations) {
      const auto [times, rank] = timed(reps, [&] { return pagerank(in, out_degree, iterations); });
      double sum = 0;
      for (double x : rank) sum += x;
      std::printf(", \"pagerank_seconds\": %s, \"pagerank_sum\": %.12f", list(times).c_str(), sum);
    }
    std::printf("}\n");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "textbook: %s\n", e.what());
    return 1;
  }
}
