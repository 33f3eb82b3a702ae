// `ingest --input -` and named pipes: an edge stream of insertions and deletions, committed in
// groups and acknowledged, in every store mode, against the independent model; resumed by name;
// a client acknowledged while it waits; a stream that breaks (a malformed line, cut mid-frame, a
// deletion past the store) keeps exactly what came before the break.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "base/file.h"
#include "datasets/edge_stream.h"
#include "store/graph_store.h"
#include "tests/e2e/cli.h"
#include "tests/e2e/store_cli.h"
#include "tests/store_checks.h"
#include "tests/test_graphs.h"

using namespace graphso;
using namespace graphso::testing;

namespace {

// Insertions of `edges` with, after every fifth, the deletion of an edge inserted earlier (chosen
// at random, so some are deleted twice: the second removes another occurrence, or nothing).
std::vector<EdgeOp> evolution(std::span<const WeightedEdge> edges, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<EdgeOp> ops;
  for (size_t i = 0; i < edges.size(); ++i) {
    ops.push_back({edges[i].src, edges[i].dst, false, edges[i].weight});
    if (i % 5 == 4) {
      const WeightedEdge& d = edges[random() % (i + 1)];
      ops.push_back({d.src, d.dst, true, 1});
    }
  }
  return ops;
}

// The text form: "SRC DST [W]" and "- SRC DST", with a comment now and then.
std::string as_text(std::span<const EdgeOp> ops, bool weighted) {
  std::ostringstream text;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (i % 1000 == 0) text << "# operation " << i << "\n";
    const EdgeOp& op = ops[i];
    if (op.deleted) text << "- " << op.src << " " << op.dst << "\n";
    else if (weighted) text << op.src << " " << op.dst << " " << op.weight << "\n";
    else text << op.src << " " << op.dst << "\n";
  }
  return text.str();
}

// The binary form, a frame per run of one kind.
std::vector<std::byte> as_binary(std::span<const EdgeOp> ops, const EdgeStreamKind& kind, bool header = true) {
  std::vector<std::byte> out = header ? edge_stream_header(kind) : std::vector<std::byte>{};
  for (size_t i = 0; i < ops.size();) {
    size_t j = i;
    std::vector<WeightedEdge> run;
    while (j < ops.size() && ops[j].deleted == ops[i].deleted) {
      run.push_back({ops[j].src, ops[j].dst, ops[j].weight});
      ++j;
    }
    append_edge_stream_frames(run, ops[i].deleted, kind, out);
    i = j;
  }
  return out;
}

void write_bytes(const std::string& path, std::span<const std::byte> bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// graphso ingest with its standard input from `file`.
CliResult ingest_from(const std::string& file, const std::vector<std::string>& args) {
  std::string command = "exec '" + graphso_binary() + "' ingest";
  for (const std::string& a : args) command += " '" + a + "'";
  return run_program({"/bin/sh", "-c", command + " < '" + file + "'"});
}

// The "acknowledged N" lines, in order; REQUIREs them non-decreasing.
std::vector<uint64_t> acknowledgements(const std::string& out) {
  std::vector<uint64_t> acks;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);)
    if (line.starts_with("acknowledged ")) acks.push_back(std::stoull(line.substr(13)));
  for (size_t i = 1; i < acks.size(); ++i) REQUIRE(acks[i] >= acks[i - 1]);
  return acks;
}

void require_store_matches(const std::string& store, std::span<const EdgeOp> ops, const std::string& mode) {
  auto s = store::GraphStore::open(store, {});
  require_store_equals(*s, adjacency_of(ops, s->header().geometry.vertices, mode == "ftgraph"));
  s->close();  // a naive store opens again only after a clean close
}

}  // namespace

TEST_CASE("store stream: insertions and deletions from standard input, in every mode, equal the model") {
  const std::string mode = GENERATE("xpgraph", "naive", "dgap", "gear", "ftgraph");
  INFO(mode << " mode");
  auto in = rmat_input(11, 4, 31);
  const std::vector<EdgeOp> ops = evolution(in->set.edges, 5);
  const std::string text = in->dir.file("stream.txt");
  write_text(text, as_text(ops, false));
  const std::string store = in->dir.file("store.pm");
  const std::string report = in->dir.file("report.json");
  // Small groups, so the stream is many commits and its runs of both kinds meet in groups.
  CliResult r = ingest_from(text, {store, "--input", "-", "--store-mode", mode, "--batch", "700", "--report", report,
                                   "--ack-log", in->dir.file("acks")});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const std::vector<uint64_t> acks = acknowledgements(r.out);
  REQUIRE(acks.size() >= ops.size() / 700);
  REQUIRE(acks.front() == 0);  // printed before anything was read: nothing of it was in the store
  REQUIRE(acks.back() == ops.size());
  REQUIRE(last_ack(in->dir.file("acks")) == ops.size());
  std::ifstream json(report);
  const std::string fields((std::istreambuf_iterator<char>(json)), {});
  REQUIRE(report_field(fields, "operations") == ops.size());
  REQUIRE(report_field(fields, "deletions") == ops.size() - in->set.edges.size());
  REQUIRE(report_field(fields, "groups") == acks.size() - 1);
  require_store_matches(store, ops, mode);
  const auto stat = store_stat(store);
  REQUIRE(stat.at("input") == "stream:stdin");
  REQUIRE(stat.at("input_kind") == "stream");
  REQUIRE(stat.at("input_acknowledged") == std::to_string(ops.size()));
  REQUIRE(graphso_cli({"store-check", store}).status == 0);
}

TEST_CASE("store stream: a weighted binary stream through a named pipe, resumed by name, sent again from its start") {
  const std::string mode = GENERATE("xpgraph", "dgap");
  auto in = rmat_input(10, 8, 17, true);
  const std::vector<EdgeOp> ops = evolution(in->set.edges, 9);
  const EdgeStreamKind kind{true, false};
  const size_t half = ops.size() / 2;
  const std::string first = in->dir.file("first.bin"), second = in->dir.file("second.bin"), all = in->dir.file("all.bin");
  write_bytes(first, as_binary(std::span(ops).first(half), kind));
  write_bytes(second, as_binary(std::span(ops).subspan(half), kind));
  write_bytes(all, as_binary(ops, kind));
  const std::string store = in->dir.file("store.pm");
  // The first half through a named pipe, written by another process.
  const std::string pipe = in->dir.file("edges.pipe");
  REQUIRE(::mkfifo(pipe.c_str(), 0600) == 0);
  const pid_t writer = spawn({"/bin/sh", "-c", "cat '" + first + "' > '" + pipe + "'"});
  CliResult a = graphso_cli({"ingest", store, "--input", pipe, "--stream", "feed", "--store-mode", mode});
  int status = 0;
  REQUIRE(::waitpid(writer, &status, 0) == writer);
  INFO(a.out << a.err);
  REQUIRE(a.status == 0);
  REQUIRE(acknowledgements(a.out).back() == half);
  require_store_matches(store, std::span(ops).first(half), mode);
  // The rest from standard input, as the same stream: the store says where it stands first.
  CliResult b = ingest_from(second, {store, "--input", "-", "--stream", "feed"});
  INFO(b.out << b.err);
  REQUIRE(b.status == 0);
  REQUIRE_THAT(b.out, Catch::Contains(std::to_string(half) + " operations are already in the store"));
  REQUIRE(acknowledgements(b.out).front() == half);
  REQUIRE(acknowledgements(b.out).back() == ops.size());
  require_store_matches(store, ops, mode);
  // Sent again whole with --from-start: everything is skipped, nothing logged twice.
  CliResult c = ingest_from(all, {store, "--input", "-", "--stream", "feed", "--from-start"});
  INFO(c.out << c.err);
  REQUIRE(c.status == 0);
  REQUIRE(acknowledgements(c.out).back() == ops.size());
  require_store_matches(store, ops, mode);
  // A shorter stream sent again cannot be the one the store holds: an error, nothing changed.
  CliResult d = ingest_from(first, {store, "--input", "-", "--stream", "feed", "--from-start"});
  require_one_line_error(d, "before the " + std::to_string(ops.size()) + " already in the store");
  require_store_matches(store, ops, mode);
  // Another stream's name starts a new count.
  CliResult e = ingest_from(first, {store, "--input", "-", "--stream", "other"});
  REQUIRE(e.status == 0);
  REQUIRE(store_stat(store).at("input_acknowledged") == std::to_string(half));
}

namespace {

// `graphso ingest STORE --input - --commit-every C` as a child whose standard input and output the
// test holds: a stream the test writes piece by piece, and the acknowledgements it reads back.
class StreamingIngest {
 public:
  StreamingIngest(const std::string& store, const std::string& commit_every) {
    REQUIRE(::pipe(to_) == 0);
    REQUIRE(::pipe(from_) == 0);
    pid_ = ::fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      ::dup2(to_[0], 0);
      ::dup2(from_[1], 1);
      ::close(to_[1]);
      ::close(from_[0]);
      const std::string binary = graphso_binary();
      ::execl(binary.c_str(), binary.c_str(), "ingest", store.c_str(), "--input", "-", "--commit-every",
              commit_every.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(to_[0]);
    ::close(from_[1]);
  }
  ~StreamingIngest() {
    if (pid_ > 0) finish();
  }
  void send(const std::string& text) {
    REQUIRE(::write(to_[1], text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  }
  // Reads the command's output until `line` arrives (at most 30 s: a batch of 16384 never fills).
  void wait_for(const std::string& line) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (out_.find(line) == std::string::npos) {
      REQUIRE(std::chrono::steady_clock::now() < deadline);
      pollfd p{from_[0], POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      char buffer[4096];
      const ssize_t n = ::read(from_[0], buffer, sizeof buffer);
      REQUIRE(n > 0);
      out_.append(buffer, static_cast<size_t>(n));
    }
  }
  // Ends the stream; the command's exit status (-1: it did not exit).
  int finish() {
    ::close(to_[1]);
    int status = 0;
    const bool waited = ::waitpid(pid_, &status, 0) == pid_;
    ::close(from_[0]);
    pid_ = -1;
    return waited && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  int to_[2] = {-1, -1}, from_[2] = {-1, -1};
  pid_t pid_ = -1;
  std::string out_;
};

}  // namespace

TEST_CASE("store stream: a waiting client is acknowledged within --commit-every, not when a batch fills") {
  TempDir dir;
  const std::string store = dir.file("store.pm");
  StreamingIngest stream(store, "20ms");
  stream.wait_for("acknowledged 0\n");
  std::string piece;
  for (int i = 0; i < 100; ++i) piece += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  stream.send(piece);
  stream.wait_for("acknowledged 100\n");
  stream.send("- 0 1\n");
  stream.wait_for("acknowledged 101\n");
  REQUIRE(stream.finish() == 0);
  auto s = store::GraphStore::open(store, {});
  REQUIRE(s->out_neighbours(0).empty());
  REQUIRE(s->out_neighbours(99) == std::vector<VertexId>{100});
}

TEST_CASE("store stream: a stream that breaks keeps exactly what came before the break, acknowledged") {
  auto in = rmat_input(9, 4, 3);
  const std::vector<EdgeOp> ops = evolution(in->set.edges, 2);
  const std::string store = in->dir.file("store.pm");
  const size_t good = 1000;
  SECTION("a malformed line mid-stream names its line") {
    std::string text = as_text(std::span(ops).first(good), false);
    const uint64_t bad_line = static_cast<uint64_t>(std::count(text.begin(), text.end(), '\n')) + 1;
    text += "12 x\n" + as_text(std::span(ops).subspan(good), false);
    write_text(in->dir.file("s.txt"), text);
    CliResult r = ingest_from(in->dir.file("s.txt"), {store, "--input", "-", "--batch", "300"});
    require_one_line_error(r, "stdin:" + std::to_string(bad_line) + ": destination id 'x'");
    REQUIRE(acknowledgements(r.out).back() == good);
    require_store_matches(store, std::span(ops).first(good), "xpgraph");
    // The stream goes on after what the store acknowledged.
    write_text(in->dir.file("rest.txt"), as_text(std::span(ops).subspan(good), false));
    CliResult rest = ingest_from(in->dir.file("rest.txt"), {store, "--input", "-"});
    REQUIRE(rest.status == 0);
    require_store_matches(store, ops, "xpgraph");
  }
  SECTION("a binary stream cut inside a frame") {
    const EdgeStreamKind kind{false, false};
    std::vector<std::byte> bytes = as_binary(std::span(ops).first(good), kind);
    const std::vector<std::byte> tail = as_binary(std::span(ops).subspan(good, 50), kind, false);
    bytes.insert(bytes.end(), tail.begin(), tail.begin() + 12);  // a frame header and half a record
    write_bytes(in->dir.file("s.bin"), bytes);
    CliResult r = ingest_from(in->dir.file("s.bin"), {store, "--input", "-", "--store-mode", "dgap"});
    require_one_line_error(r, "the stream ends inside frame");
    REQUIRE(acknowledgements(r.out).back() == good);
    require_store_matches(store, std::span(ops).first(good), "dgap");
  }
  SECTION("a damaged frame is refused whole") {
    const EdgeStreamKind kind{false, false};
    std::vector<std::byte> bytes = as_binary(std::span(ops).first(good), kind);
    const size_t frame_at = bytes.size();
    const std::vector<std::byte> tail = as_binary(std::span(ops).subspan(good), kind, false);
    bytes.insert(bytes.end(), tail.begin(), tail.end());
    bytes[frame_at + 12] ^= std::byte{0x10};  // a destination id of the frame after the good part
    write_bytes(in->dir.file("s.bin"), bytes);
    CliResult r = ingest_from(in->dir.file("s.bin"), {store, "--input", "-", "--store-mode", "gear"});
    require_one_line_error(r, "does not match its checksum");
    REQUIRE(acknowledgements(r.out).back() == good);
    require_store_matches(store, std::span(ops).first(good), "gear");
  }
  SECTION("weights of another kind than the store's: refused before the first insertion") {
    write_text(in->dir.file("real.txt"), "0 1 0.5\n1 2 2.25\n");
    CliResult made = ingest_from(in->dir.file("real.txt"), {store, "--input", "-", "--real-weights"});
    REQUIRE(made.status == 0);
    REQUIRE_THAT(made.out, Catch::Contains("real weights"));
    // A binary stream of integer weights: its deletion goes in, its insertions are refused.
    const EdgeStreamKind integers{true, false};
    std::vector<std::byte> bytes = edge_stream_header(integers);
    const std::vector<WeightedEdge> gone = {{0, 1, 1}}, more = {{2, 3, 7}};
    append_edge_stream_frames(gone, true, integers, bytes);
    append_edge_stream_frames(more, false, integers, bytes);
    write_bytes(in->dir.file("ints.bin"), bytes);
    CliResult r = ingest_from(in->dir.file("ints.bin"), {store, "--input", "-", "--stream", "ints"});
    require_one_line_error(r, "stdin has integer weights and " + store + " keeps real ones");
    REQUIRE(acknowledgements(r.out).back() == 1);
    auto s = store::GraphStore::open(store, {});
    REQUIRE(s->out_neighbours(0).empty());
    REQUIRE(s->out_neighbours(1) == std::vector<VertexId>{2});
    REQUIRE(s->out_neighbours(2).empty());
  }
  SECTION("a deletion naming a vertex past the store's") {
    std::string text = as_text(std::span(ops).first(good), false) + "- 5000000 1\n";
    write_text(in->dir.file("s.txt"), text);
    CliResult r = ingest_from(in->dir.file("s.txt"), {store, "--input", "-"});
    require_one_line_error(r, "operation " + std::to_string(good + 1) + " deletes 5000000 -> 1");
    REQUIRE(acknowledgements(r.out).back() == good);
    require_store_matches(store, std::span(ops).first(good), "xpgraph");
  }
}

TEST_CASE("store stream: a client that stops reading acknowledgements does not stop the ingest") {
  // Standard output is a pipe nobody reads from the start: every acknowledgement meets a closed
  // pipe. Ingest says so once, takes the whole stream, keeps acknowledging in --ack-log and exits 0
  // after its checkpoint, as after any ingest (before, SIGPIPE killed it at the first one).
  auto in = rmat_input(9, 4, 5);
  const std::vector<EdgeOp> ops = evolution(in->set.edges, 3);
  write_text(in->dir.file("s.txt"), as_text(ops, false));
  const std::string store = in->dir.file("store.pm"), acks = in->dir.file("acks.txt"), err = in->dir.file("err.txt");
  int out[2];
  REQUIRE(::pipe(out) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const int input = ::open(in->dir.file("s.txt").c_str(), O_RDONLY);
    const int errors = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (input < 0 || errors < 0) ::_exit(126);
    ::dup2(input, 0);
    ::dup2(out[1], 1);
    ::dup2(errors, 2);
    ::close(out[0]);
    const std::string binary = graphso_binary();
    ::execl(binary.c_str(), binary.c_str(), "ingest", store.c_str(), "--input", "-", "--batch", "300", "--ack-log",
            acks.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(out[0]);
  ::close(out[1]);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  const std::string said = read_small_file(err);
  INFO(said);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  REQUIRE_THAT(said, Catch::Contains("standard output is closed") && Catch::Contains("--ack-log has them"));
  REQUIRE(std::count(said.begin(), said.end(), '\n') == 1);
  std::vector<uint64_t> logged;  // the log's lines are bare counts
  std::istringstream lines(read_small_file(acks));
  for (std::string line; std::getline(lines, line);) logged.push_back(std::stoull(line));
  REQUIRE(logged.size() >= 5);
  REQUIRE(logged.back() == ops.size());
  require_store_matches(store, ops, "xpgraph");
}

TEST_CASE("store stream: options that belong to streams or files are refused on the other") {
  auto in = rmat_input(6, 4, 1);
  const std::string store = in->dir.file("store.pm");
  require_usage_error(graphso_cli({"ingest", store, "--input", in->path, "--commit-every", "5ms"}), "--commit-every is for a stream");
  require_usage_error(graphso_cli({"ingest", store, "--input", in->path, "--from-start"}), "--from-start is for a stream");
  write_text(in->dir.file("s.txt"), "1 2\n");
  require_one_line_error(ingest_from(in->dir.file("s.txt"), {store, "--input", "-", "--delete"}), "a stream marks its deletions");
  require_usage_error(ingest_from(in->dir.file("s.txt"), {store, "--input", "-", "--commit-every", "5 ms"}), "--commit-every");
  write_text(in->dir.file("empty.txt"), "# nothing\n");
  require_one_line_error(ingest_from(in->dir.file("empty.txt"), {store, "--input", "-"}), "ended before its first insertion");
  REQUIRE(!path_exists(store));
}

// Jobs that pin versions (`version=N`, a job file's `version = N`) run in one batch with the
// jobs at the current version, on a store whose stream is still open (its last versions are only
// in the log), each verified against the store read at its own version; a version the store does
// not keep, or one on a prepared graph, is a one-line error.
TEST_CASE("store stream: one run takes jobs at two versions while the stream is open, each verified at its own") {
  auto in = rmat_input(10, 8, 5);
  const std::string store = in->dir.file("store.pm");
  REQUIRE(graphso_cli({"ingest", store, "--input", in->path, "--store-mode", "dgap"}).status == 0);
  const uint64_t base = in->set.edges.size();  // the checkpoint's position: every ingest ends with one
  StreamingIngest stream(store, "5ms");
  std::string piece;
  for (int i = 0; i < 100; ++i) piece += std::to_string(i * 7 % 1024) + " " + std::to_string(i * 13 % 1024) + "\n";
  stream.send(piece);
  stream.wait_for("acknowledged 100\n");
  const uint64_t v1 = base + 100;
  const WeightedEdge gone = in->set.edges[in->set.edges.size() / 2];
  stream.send("1 2\n3 4\n- " + std::to_string(gone.src) + " " + std::to_string(gone.dst) + "\n");
  stream.wait_for("acknowledged 103\n");
  const uint64_t v2 = base + 103;

  const std::string report = in->dir.file("versions.json");
  for (const std::string engine : {"gridgraph", "xstream"}) {
    INFO(engine);
    CliResult r = graphso_cli({"run", store, "--engine", engine, "--job", fmt::format("bfs:source=0:version={}", v1),
                               "--job", fmt::format("wcc:version={}", v1), "--job", "bfs:source=0", "--job", "wcc",
                               "--verify", "--report", report});
    INFO(r.err);
    REQUIRE(r.status == 0);
    REQUIRE_THAT(r.out, Catch::Contains(fmt::format("at versions {}, {}", v1, v2)) && Catch::Contains("verified 3-wcc"));
    const std::string json = read_small_file(report);
    REQUIRE_THAT(json, Catch::Contains(fmt::format("\"version\": {}", v1)) && Catch::Contains(fmt::format("\"version\": {}", v2)));
    // What the stream added, laid out once for both versions (but for a page the deletion changed).
    REQUIRE(report_field(json, "edges_inserted_apart") <= 102);
    REQUIRE(report_field(json, "edges_inserted_apart") >= 100);
  }
  // A job file's `version`.
  write_text(in->dir.file("jobs.toml"), fmt::format("[[job]]\nalgo = \"wcc\"\nversion = {}\n[[job]]\nalgo = \"wcc\"\n", v1));
  CliResult from_file = graphso_cli({"run", store, "--jobs", in->dir.file("jobs.toml"), "--verify"});
  INFO(from_file.err);
  REQUIRE(from_file.status == 0);
  REQUIRE_THAT(from_file.out, Catch::Contains(fmt::format("at versions {}, {}", v1, v2)));
  // Before the checkpoint, beyond the head: not in the store.
  for (uint64_t v : {base - 1, v2 + 1})
    require_one_line_error(graphso_cli({"run", store, "--job", fmt::format("wcc:version={}", v)}),
                           fmt::format("version {} is not in the store: it keeps versions {} to {} (its head)", v, base, v2));
  stream.send("5 6\n");
  REQUIRE(stream.finish() == 0);
  // On a prepared graph a version means nothing.
  const std::string prepared = in->dir.file("prepared");
  REQUIRE(graphso_cli({"prep", in->path, "-o", prepared}).status == 0);
  require_one_line_error(graphso_cli({"run", prepared, "--job", "wcc:version=3"}), "version applies to a run on a store");
}
