// Errors: every run-time failure becomes a graphso::Error carrying one clear line of text.
// The CLI prints it as "graphso: error: <text>" and exits non-zero.
#pragma once

#include <fmt/format.h>

#include <stdexcept>
#include <string>

namespace graphso {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <typename... Args>
[[noreturn]] void fail(fmt::format_string<Args...> format, Args&&... args) {
  throw Error(fmt::format(format, std::forward<Args>(args)...));
}

// strerror() text for an errno value, thread-safe.
std::string errno_text(int error_number);

}  // namespace graphso
