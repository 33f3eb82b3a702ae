// Writing a job's per-vertex values as "vertex value" lines or as a raw array, in original ids (the
// dataset's own ids in the lines, when it has them), in bounded pieces.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "jobs/job.h"

namespace graphso {

// values are indexed by the graph's (new) ids; value_at(v) may transform them (labels relabelled
// to original ids). Output goes to `sink` in pieces of at most Job::kResultPieceBytes.
template <typename T, typename Format, typename ValueAt>
void write_vertex_values(uint64_t n, OutFormat format, const VertexOrder& order, const Job::ResultSink& sink,
                         ValueAt&& value_at, Format&& text_of) {
  fmt::memory_buffer out;
  auto flush = [&]() {
    sink(std::string_view(out.data(), out.size()));
    out.clear();
  };
  constexpr uint64_t kFlushAt = Job::kResultPieceBytes - 64;  // room for one more line
  for (uint64_t v = 0; v < n; ++v) {
    const T value = value_at(order.to_new(static_cast<VertexId>(v)));
    if (format == OutFormat::Binary) {
      out.append(reinterpret_cast<const char*>(&value), reinterpret_cast<const char*>(&value) + sizeof(T));
    } else {
      fmt::format_to(std::back_inserter(out), "{} ", order.user_id(static_cast<VertexId>(v)));
      text_of(out, value);
      out.push_back('\n');
    }
    if (out.size() >= kFlushAt) flush();
  }
  if (out.size()) flush();
}

template <typename T, typename Format>
void write_vertex_values(const std::vector<T>& values, OutFormat format, const VertexOrder& order,
                         const Job::ResultSink& sink, Format&& text_of) {
  write_vertex_values<T>(values.size(), format, order, sink, [&values](VertexId id) { return values[id]; },
                         std::forward<Format>(text_of));
}

}  // namespace graphso
