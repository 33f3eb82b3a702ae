#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/fuzz/fuzz_target.h"

namespace graphso::fuzz {

namespace {
uint64_t& accepted_tally() {
  static uint64_t tally = 0;
  return tally;
}
}  // namespace

void accepted() { ++accepted_tally(); }
uint64_t accepted_count() { return accepted_tally(); }

const char* scratch_directory() {
  static const std::string dir = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "graphso-fuzz-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) std::abort();
    return pattern;
  }();
  return dir.c_str();
}

void clear_scratch_directory() {
  for (const auto& entry : std::filesystem::directory_iterator(scratch_directory()))
    std::filesystem::remove_all(entry.path());
}

std::string write_scratch_file(const std::string& name, const uint8_t* data, size_t size) {
  const std::string path = std::string(scratch_directory()) + "/" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out) std::abort();
  return path;
}

}  // namespace graphso::fuzz
