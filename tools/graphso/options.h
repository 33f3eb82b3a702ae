// Boost.Program_options glue shared by the subcommands: parse, print --help, turn option errors
// into graphso::Error so they come out as one line, and the one parser of numeric options.
#pragma once

#include <boost/program_options.hpp>

#include <charconv>
#include <cmath>
#include <iostream>
#include <limits>
#include <string>
#include <type_traits>

#include "base/error.h"
#include "tools/graphso/commands.h"

namespace graphso {

namespace po = boost::program_options;

// Every numeric option goes through here: the whole token must be a number of T's kind, inside
// T's range (no "-1" wrapping to 2^64-1, no "nan", no overflow). Options add their own bounds
// afterwards. Errors name the option (Boost fills in %canonical_option%).
template <typename T>
T parse_number_token(const std::string& text) {
  auto refuse = [&](const std::string& why) -> T {
    throw po::error_with_option_name("option '%canonical_option%': '" + text + "' " + why);
  };
  T value{};
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if constexpr (std::is_floating_point_v<T>) {
    auto [stop, ec] = std::from_chars(begin, end, value);
    if (ec == std::errc::result_out_of_range) return refuse("is out of range");
    if (ec != std::errc() || stop != end) return refuse("is not a number");
    if (!std::isfinite(value)) return refuse("is not a finite number");
  } else {
    if (std::is_unsigned_v<T> && !text.empty() && text[0] == '-')
      return refuse(fmt::format("is negative (expected a whole number from 0 to {})", std::numeric_limits<T>::max()));
    auto [stop, ec] = std::from_chars(begin, end, value);
    if (ec == std::errc::result_out_of_range)
      return refuse(fmt::format("is out of range ({} to {})", std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
    if (ec != std::errc() || stop != end) return refuse("is not a whole number");
  }
  return value;
}

template <typename T>
class NumberValue : public po::typed_value<T> {
 public:
  explicit NumberValue(T* target) : po::typed_value<T>(target) {}
  void xparse(boost::any& store, const std::vector<std::string>& tokens) const override {
    po::validators::check_first_occurrence(store);
    store = boost::any(parse_number_token<T>(po::validators::get_single_string(tokens)));
  }
};

// Use instead of po::value(&x) for every integer or floating-point option.
template <typename T>
NumberValue<T>* number(T* target = nullptr) {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>);
  return new NumberValue<T>(target);
}

// Returns false when --help was printed (the command should exit 0).
inline bool parse_options(const std::string& command, const std::string& usage, const Args& args,
                          po::options_description& options, po::positional_options_description& positional,
                          po::variables_map& vm) {
  options.add_options()("help,h", "show this help");
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
    if (vm.count("help")) {
      std::cout << "usage: graphso " << command << " " << usage << "\n\n" << options << "\n";
      return false;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(fmt::format("{}: {} (see `graphso {} --help`)", command, e.what(), command));
  }
  return true;
}

// Runs `check` (reading and checking option values) and turns its errors into usage errors: a
// bad value on the command line exits 2, whichever parser found it.
template <typename Check>
decltype(auto) command_line(Check&& check) {
  try {
    return check();
  } catch (const UsageError&) {
    throw;
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
}

}  // namespace graphso
