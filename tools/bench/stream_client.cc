// The bench's stream client (issue 64, `make bench`'s evolving_stream experiment): a client of
// `graphso ingest --input -` that writes an edge list as a binary edge stream (docs/formats.md) in
// pieces of a few edges, as an application feeding the store would, and times each piece from the
// moment its write returned to the acknowledgement that covers it.
//
//   stream_client EDGES.bin [--piece N] [--delete-from K] [--latencies FILE] -- COMMAND [ARGS...]
//
// COMMAND runs with its standard input the stream and its standard output read here: its
// "acknowledged N" lines are the acknowledgements, its other lines go to standard error. Edges
// from the K-th on (--delete-from) are sent as deletions of the edges before them, in the same
// stream. Prints one JSON object: edges, pieces, seconds (first write to COMMAND's exit),
// edges_per_second, acknowledgements, and latency percentiles in milliseconds.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/error.h"
#include "base/percentile.h"
#include "datasets/edge_list.h"
#include "datasets/edge_stream.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Ack {
  uint64_t operations;
  Clock::time_point time;
};

void write_all(int fd, const std::byte* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      graphso::fail("stream_client: write to the command failed: {}", graphso::errno_text(errno));
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
}

int run(int argc, char** argv) {
  std::string edges_path, latencies_path;
  uint64_t piece = 100, delete_from = UINT64_MAX;
  int command_at = -1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") {
      command_at = i + 1;
      break;
    }
    if (a == "--piece" && i + 1 < argc) piece = std::stoull(argv[++i]);
    else if (a == "--delete-from" && i + 1 < argc) delete_from = std::stoull(argv[++i]);
    else if (a == "--latencies" && i + 1 < argc) latencies_path = argv[++i];
    else if (edges_path.empty()) edges_path = a;
    else graphso::fail("stream_client: unexpected argument '{}'", a);
  }
  if (edges_path.empty() || command_at < 0 || command_at >= argc || piece == 0)
    graphso::fail("usage: stream_client EDGES.bin [--piece N] [--delete-from K] -- COMMAND [ARGS...]");

  // The whole stream is encoded before the clock starts: what is timed is the store's side.
  graphso::EdgeListReader reader(edges_path);
  const graphso::EdgeStreamKind kind{reader.info().weighted, reader.info().real_weights};
  std::vector<graphso::WeightedEdge> edges;
  {
    std::vector<graphso::WeightedEdge> batch;
    while (reader.next_batch(batch, 1 << 20)) edges.insert(edges.end(), batch.begin(), batch.end());
  }
  std::vector<std::byte> stream = graphso::edge_stream_header(kind);
  std::vector<size_t> piece_end;      // byte offset after each piece
  std::vector<uint64_t> piece_count;  // operations sent after each piece
  for (uint64_t first = 0; first < edges.size(); first += piece) {
    const uint64_t n = std::min<uint64_t>(piece, edges.size() - first);
    // A deletion removes an edge sent earlier: the one as far before the boundary as this is past it.
    const bool deletions = first >= delete_from;
    std::vector<graphso::WeightedEdge> part(edges.begin() + static_cast<std::ptrdiff_t>(first),
                                            edges.begin() + static_cast<std::ptrdiff_t>(first + n));
    if (deletions)
      for (uint64_t i = 0; i < n; ++i) part[i] = edges[(first + i - delete_from) % delete_from];
    graphso::append_edge_stream_frames(part, deletions, kind, stream);
    piece_end.push_back(stream.size());
    piece_count.push_back(first + n);
  }

  int to_child[2], from_child[2];
  if (::pipe2(to_child, O_CLOEXEC) != 0 || ::pipe2(from_child, O_CLOEXEC) != 0)
    graphso::fail("stream_client: pipe: {}", graphso::errno_text(errno));
  const pid_t pid = ::fork();
  if (pid < 0) graphso::fail("stream_client: fork: {}", graphso::errno_text(errno));
  if (pid == 0) {
    ::dup2(to_child[0], 0);
    ::dup2(from_child[1], 1);
    ::execvp(argv[command_at], argv + command_at);
    std::fprintf(stderr, "stream_client: cannot run %s: %s\n", argv[command_at], std::strerror(errno));
    ::_exit(127);
  }
  ::close(to_child[0]);
  ::close(from_child[1]);

  std::vector<Ack> acks;
  std::thread listener([&] {
    std::FILE* out = ::fdopen(from_child[0], "r");
    char line[4096];
    while (std::fgets(line, sizeof line, out)) {
      const auto now = Clock::now();
      unsigned long long n = 0;
      if (std::sscanf(line, "acknowledged %llu", &n) == 1) acks.push_back({n, now});
      else std::fputs(line, stderr);
    }
    std::fclose(out);
  });

  std::vector<Clock::time_point> written(piece_end.size());
  const auto start = Clock::now();
  size_t at = 0;
  std::string write_error;  // the command stopped reading: reported after it is waited for
  try {
    for (size_t i = 0; i < piece_end.size(); ++i) {
      // The header goes with the first piece.
      write_all(to_child[1], stream.data() + at, piece_end[i] - at);
      written[i] = Clock::now();
      at = piece_end[i];
    }
  } catch (const std::exception& e) {
    write_error = e.what();
  }
  ::close(to_child[1]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  const auto end = Clock::now();
  listener.join();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) graphso::fail("stream_client: the command failed (status {})", status);
  if (!write_error.empty()) throw graphso::Error(write_error);

  // Each piece's latency: from its write to the first acknowledgement covering it.
  std::vector<double> latency_ms;
  size_t a = 0;
  for (size_t i = 0; i < written.size(); ++i) {
    while (a < acks.size() && acks[a].operations < piece_count[i]) ++a;
    if (a == acks.size()) graphso::fail("stream_client: piece {} (operations to {}) was never acknowledged", i + 1, piece_count[i]);
    latency_ms.push_back(std::chrono::duration<double, std::milli>(acks[a].time - written[i]).count());
  }
  if (!latencies_path.empty()) {  // "written_ms latency_ms" per piece, for a look at when they were slow
    std::FILE* f = std::fopen(latencies_path.c_str(), "w");
    if (!f) graphso::fail("stream_client: cannot write {}", latencies_path);
    for (size_t i = 0; i < written.size(); ++i)
      std::fprintf(f, "%.3f %.3f\n", std::chrono::duration<double, std::milli>(written[i] - start).count(), latency_ms[i]);
    std::fclose(f);
  }
  const double seconds = std::chrono::duration<double>(end - start).count();
  std::printf("{\"edges\": %zu, \"pieces\": %zu, \"piece\": %llu, \"seconds\": %.6f, \"edges_per_second\": %.1f, "
              "\"acknowledgements\": %zu, \"latency_ms_p50\": %.3f, \"latency_ms_p90\": %.3f, \"latency_ms_p99\": %.3f, "
              "\"latency_ms_max\": %.3f}\n",
              edges.size(), written.size(), static_cast<unsigned long long>(piece), seconds,
              static_cast<double>(edges.size()) / std::max(seconds, 1e-9), acks.size(), graphso::percentile(latency_ms, 0.5),
              graphso::percentile(latency_ms, 0.9), graphso::percentile(latency_ms, 0.99), graphso::percentile(latency_ms, 1.0));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  ::signal(SIGPIPE, SIG_IGN);  // a command that dies is reported by its status, not by a signal here
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
