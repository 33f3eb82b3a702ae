// libFuzzer harness: any bytes as a job file are parsed or refused with graphso::Error, never a
// crash, an abort inside the TOML parser, or a sanitizer report.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "base/error.h"
#include "jobs/job_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    graphso::parse_job_text(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.toml");
  } catch (const graphso::Error&) {
  }
  return 0;
}
