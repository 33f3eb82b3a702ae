// Formatting a job's per-vertex values as "vertex value" lines or as a raw array.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "jobs/job.h"

namespace graphso {

template <typename T, typename Format>
std::string format_vertex_values(const std::vector<T>& values, OutFormat format, Format&& text_of) {
  if (format == OutFormat::Binary)
    return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
  fmt::memory_buffer out;
  for (uint64_t v = 0; v < values.size(); ++v) {
    fmt::format_to(std::back_inserter(out), "{} ", v);
    text_of(out, values[v]);
    out.push_back('\n');
  }
  return fmt::to_string(out);
}

}  // namespace graphso
