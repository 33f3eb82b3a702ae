// Errors: every run-time failure becomes a graphso::Error carrying one clear line of text.
// The CLI prints it as "graphso: error: <text>" and exits non-zero.
#pragma once

#include <fmt/format.h>

#include <stdexcept>
#include <string>
#include <string_view>

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

// Input text quoted in a message, with control bytes (NUL, CR, ESC...) written as \xNN so the
// message stays one printable line.
inline std::string printable(std::string_view text) {
  std::string out;
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) out += fmt::format("\\x{:02x}", u);
    else out += c;
  }
  return out;
}

}  // namespace graphso
