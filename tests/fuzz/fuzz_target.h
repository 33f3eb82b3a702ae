// A fuzz target is one function of (bytes, size). Built with clang's -fsanitize=fuzzer (`make
// fuzz`) it is libFuzzer's entry point; built into the test suite (GRAPHSO_FUZZ_REPLAY) it is a
// named function that tests/fuzz/fuzz_replay.cc runs over the checked-in corpus and inputs
// generated from it, so `make test` and `make asan` run every target.
//
// A target accepts the input or rejects it with graphso::Error, whose message is one line;
// anything else (another exception, a crash, a sanitizer report) is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "base/error.h"

#ifdef GRAPHSO_FUZZ_REPLAY
#define GRAPHSO_FUZZ_TARGET(name) int fuzz_##name(const uint8_t* data, size_t size)
#else
#define GRAPHSO_FUZZ_TARGET(name) extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
#endif

namespace graphso::fuzz {

// A rejection: one non-empty line, or the target aborts (libFuzzer reports the input).
inline void rejected(const Error& e) {
  const char* what = e.what();
  if (what[0] == '\0' || std::strchr(what, '\n')) std::abort();
}

// An input the target accepted whole; the replay test counts them (a target that refused
// everything would test nothing but its first check).
void accepted();
uint64_t accepted_count();

// A directory of this process's own, made once, for targets that read files.
const char* scratch_directory();
// Removes everything in it.
void clear_scratch_directory();
// Writes bytes to `name` inside it; returns the path.
std::string write_scratch_file(const std::string& name, const uint8_t* data, size_t size);

}  // namespace graphso::fuzz
