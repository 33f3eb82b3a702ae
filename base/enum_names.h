// An enum's names for options and reports in one table: parsing a name, printing a value and the
// "expected a, b or c" of the error all come from it.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "base/error.h"

namespace graphso {

template <typename E>
struct EnumName {
  E value;
  const char* name;
};

// "a", "a or b", "a, b or c"
std::string choices_text(const std::vector<std::string>& items);

// The value named `text`; otherwise "unknown <what> '<text>' (expected a, b or c)".
template <typename E>
E parse_enum(std::span<const EnumName<E>> names, const std::string& text, const char* what) {
  std::vector<std::string> choices;
  for (const EnumName<E>& n : names) {
    if (text == n.name) return n.value;
    choices.push_back(n.name);
  }
  fail("unknown {} '{}' (expected {})", what, text, choices_text(choices));
}

template <typename E>
const char* enum_name(std::span<const EnumName<E>> names, E value) {
  for (const EnumName<E>& n : names)
    if (n.value == value) return n.name;
  return "?";
}

}  // namespace graphso
