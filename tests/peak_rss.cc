// peak_rss OUT PROGRAM [ARGS...]: runs PROGRAM as its child and writes the kernel's account of
// the child's peak resident set (wait4's ru_maxrss, in KiB) to OUT; exits with the child's status.
//
// A child starts with the resident pages of the process that forked it, and the kernel keeps that
// in its peak. Tests fork from a test binary that may hold tens of MiB, so they measure graphso
// through this small program instead: its children start with its own few hundred KiB.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

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
  if (::wait4(pid, &status, 0, &usage) != pid) return 125;
  std::FILE* out = std::fopen(argv[1], "w");
  if (!out || std::fprintf(out, "%ld\n", usage.ru_maxrss) < 0 || std::fclose(out) != 0) return 125;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
