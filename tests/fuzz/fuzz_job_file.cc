// Any bytes as a job file are parsed or refused with one line, never a crash, an abort inside
// the TOML parser, or a sanitizer report.
#include <string_view>

#include "jobs/job_file.h"
#include "tests/fuzz/fuzz_target.h"

GRAPHSO_FUZZ_TARGET(job_file) {
  try {
    graphso::parse_job_text(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.toml");
    graphso::fuzz::accepted();
  } catch (const graphso::Error& e) {
    graphso::fuzz::rejected(e);
  }
  return 0;
}
