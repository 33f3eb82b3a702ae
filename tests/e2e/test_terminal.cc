// What a user sees on an 80-column terminal: graphso run, prep and generate under a
// pseudo-terminal. Every status line is redrawn in place, so none may wrap (a wrapped line is
// left behind by the next redraw), and none is left on the screen when the step ends.
#include <catch2/catch.hpp>

#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

#include "tests/e2e/cli.h"
#include "tests/test_graphs.h"

using namespace graphso;
using namespace graphso::testing;

namespace {

struct TerminalRun {
  int status = -1;
  std::string screen;  // every byte written to the terminal, stdout and stderr together
};

TerminalRun run_on_terminal(const std::vector<std::string>& args, unsigned short columns) {
  std::vector<std::string> words = {graphso_binary()};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  struct winsize size {};
  size.ws_row = 24;
  size.ws_col = columns;
  int terminal = -1;
  const pid_t pid = ::forkpty(&terminal, nullptr, nullptr, &size);
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  TerminalRun run;
  char buffer[4096];
  while (true) {
    const ssize_t n = ::read(terminal, buffer, sizeof buffer);
    if (n > 0) run.screen.append(buffer, static_cast<size_t>(n));
    else if (n < 0 && errno == EINTR) continue;
    else break;  // EIO: the child closed its side
  }
  ::close(terminal);
  int wait_status = 0;
  REQUIRE(::waitpid(pid, &wait_status, 0) == pid);
  run.status = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
  return run;
}

// What follows each "\r\033[K" (return, clear the line) up to the next \r or \n: a status line
// when a later redraw replaces it (it ends at \r), else what stays on the screen (it ends at \n).
struct Drawn {
  std::vector<std::string> status;
  std::vector<std::string> kept;
};

Drawn drawn_lines(const std::string& screen) {
  const std::string redraw = "\r\033[K";
  Drawn drawn;
  for (size_t at = screen.find(redraw); at != std::string::npos; at = screen.find(redraw, at + 1)) {
    const size_t start = at + redraw.size();
    const size_t end = screen.find_first_of("\r\n", start);
    std::string text = screen.substr(start, end == std::string::npos ? std::string::npos : end - start);
    // The terminal turns each \n into \r\n.
    const bool replaced = end != std::string::npos && screen[end] == '\r' && screen.compare(end, 2, "\r\n") != 0;
    (replaced ? drawn.status : drawn.kept).push_back(std::move(text));
  }
  return drawn;
}

// Returns the status lines drawn.
std::vector<std::string> require_no_wrapped_or_stale_status(const TerminalRun& run, unsigned short columns,
                                                            const std::string& prefix) {
  INFO(run.screen);
  REQUIRE(run.status == 0);
  const Drawn drawn = drawn_lines(run.screen);
  uint64_t shown = 0;
  for (const std::string& line : drawn.status) {
    REQUIRE(line.size() < columns);  // the last column is never filled: no wrap
    shown += line.rfind(prefix, 0) == 0;
  }
  REQUIRE(shown > 0);  // the step was long enough to draw: otherwise this test could not fail
  // Cleared when the step ends: no status line stays on the screen as output.
  for (const std::string& line : drawn.kept) REQUIRE(line.rfind(prefix, 0) != 0);
  return drawn.status;
}

}  // namespace

TEST_CASE("terminal: run, prep and generate status lines fit 80 columns and are cleared") {
  TempDir dir;
  const unsigned short columns = 80;
  // Long enough paths that an unfitted line would wrap; big enough to draw for more than 200 ms.
  const std::string deep = dir.file("a-directory-with-a-long-name-that-users-do-have/and-another-level");
  REQUIRE(run_program({"mkdir", "-p", deep}).status == 0);
  TerminalRun generate = run_on_terminal({"generate", "rmat", "--scale", "21", "--edge-factor", "8", "-o", deep + "/rmat.bin"}, columns);
  require_no_wrapped_or_stale_status(generate, columns, "generate");
  TerminalRun prep = run_on_terminal({"prep", deep + "/rmat.bin", "-o", deep + "/graph", "--chunk-size", "64K"}, columns);
  // prep's steps show as one: the whole's share and ETA first, then which step of how many.
  uint64_t overall = 0;
  for (const std::string& line : require_no_wrapped_or_stale_status(prep, columns, "prep"))
    overall += line.rfind("prep ", 0) == 0 && line.find("%, ETA ") != std::string::npos && line.find(" | step ") != std::string::npos &&
               line.find("/4 ") != std::string::npos;
  REQUIRE(overall > 0);
  TerminalRun run = run_on_terminal({"run", deep + "/graph", "--job", "pagerank:iterations=6", "--job", "bfs:source=random",
                                     "--sharing", "chunk", "--graph-mem", "16M", "--chunk-size", "64K"}, columns);
  require_no_wrapped_or_stale_status(run, columns, "run: round");
}
