// peak_rss OUT PROGRAM [ARGS...]: runs PROGRAM as its child and writes two numbers to OUT, in KiB:
// the kernel's account of the child's peak resident set (wait4's ru_maxrss), and the largest
// anonymous resident set (RssAnon of /proc/PID/status) seen while sampling it every millisecond.
// Exits with the child's status.
//
// A child starts with the resident pages of the process that forked it, and the kernel keeps that
// in its peak. Tests fork from a test binary that may hold tens of MiB, so they measure graphso
// through this small program instead: its children start with its own few hundred KiB.
//
// The anonymous peak is for processes that map a file on purpose (the store's PMEM tier, which
// on a machine without PMEM is an ordinary file and so counts in ru_maxrss): it leaves the mapped
// file out. It is sampled, so a spike shorter than a millisecond can escape it; faulting in
// memory runs at a few GiB/s here, so what escapes is a few MiB at most.
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

// RssAnon of /proc/PID/status in KiB, or 0 when it cannot be read (the child has just exited).
long anonymous_kib(pid_t pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/status", static_cast<int>(pid));
  std::FILE* status = std::fopen(path, "r");
  if (!status) return 0;
  char line[256];
  long kib = 0;
  while (std::fgets(line, sizeof line, status))
    if (std::strncmp(line, "RssAnon:", 8) == 0) {
      kib = std::strtol(line + 8, nullptr, 10);
      break;
    }
  std::fclose(status);
  return kib;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: peak_rss OUT PROGRAM [ARGS...]\n");
    return 2;
  }
  const pid_t pid = ::fork();
  if (pid < 0) return 125;
  if (pid == 0) {
    ::execv(argv[2], argv + 2);
    ::_exit(127);
  }
  int status = 0;
  rusage usage{};
  long anonymous_peak = 0;
  for (;;) {
    const pid_t done = ::wait4(pid, &status, WNOHANG, &usage);
    if (done == pid) break;
    if (done != 0) return 125;
    const long now = anonymous_kib(pid);
    if (now > anonymous_peak) anonymous_peak = now;
    const timespec millisecond{0, 1000 * 1000};
    ::nanosleep(&millisecond, nullptr);
  }
  std::FILE* out = std::fopen(argv[1], "w");
  if (!out || std::fprintf(out, "%ld %ld\n", usage.ru_maxrss, anonymous_peak) < 0 || std::fclose(out) != 0) return 125;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
