// Formatting a job's per-vertex values as "vertex value" lines or as a raw array, in original ids.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "jobs/job.h"

namespace graphso {

// values are indexed by the graph's (new) ids.
template <typename T, typename Format>
std::string format_vertex_values(const std::vector<T>& values, OutFormat format, const VertexOrder& order,
                                 Format&& text_of) {
  auto value_of = [&](uint64_t original) -> const T& { return values[order.to_new(static_cast<VertexId>(original))]; };
  if (format == OutFormat::Binary) {
    std::string out(values.size() * sizeof(T), '\0');
    for (uint64_t v = 0; v < values.size(); ++v) std::memcpy(out.data() + v * sizeof(T), &value_of(v), sizeof(T));
    return out;
  }
  fmt::memory_buffer out;
  for (uint64_t v = 0; v < values.size(); ++v) {
    fmt::format_to(std::back_inserter(out), "{} ", v);
    text_of(out, value_of(v));
    out.push_back('\n');
  }
  return fmt::to_string(out);
}

}  // namespace graphso
