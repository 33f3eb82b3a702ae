#include "integrations/graphalytics_validation.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_map>
#include <vector>

#include "base/enum_names.h"
#include "base/error.h"
#include "datasets/text_input.h"

namespace graphso {
namespace {

constexpr EnumName<ValidationRule> kRuleNames[] = {
    {ValidationRule::Exact, "exact"}, {ValidationRule::Equivalence, "equivalence"}, {ValidationRule::Epsilon, "epsilon"}};

// One vertex's value: integers (exact and equivalence rules; negative ones kept as their two's
// complement bits, which compare the same) or a real (epsilon rule).
struct Entry {
  uint64_t vertex;
  uint64_t integer;
  double real;
};

uint64_t parse_integer(std::string_view token, bool* ok) {
  const bool negative = !token.empty() && token[0] == '-';
  uint64_t bits = 0;
  const char* end = token.data() + token.size();
  std::from_chars_result r{};
  if (negative) {
    int64_t value = 0;
    r = std::from_chars(token.data(), end, value);
    bits = static_cast<uint64_t>(value);
  } else {
    r = std::from_chars(token.data(), end, bits);
  }
  *ok = r.ec == std::errc() && r.ptr == end && !token.empty();
  return bits;
}

// Graphalytics writes "Infinity"; from_chars takes "inf" and "infinity" in any case, not a sign
// before them or NaN.
double parse_real(std::string_view token, bool* ok) {
  if (!token.empty() && token[0] == '+') token.remove_prefix(1);
  double value = 0;
  const auto r = std::from_chars(token.data(), token.data() + token.size(), value);
  *ok = r.ec == std::errc() && r.ptr == token.data() + token.size() && !std::isnan(value) && !token.empty();
  return value;
}

std::vector<Entry> read_results(const std::string& path, ValidationRule rule) {
  LineReader reader(path);
  std::vector<Entry> entries;
  std::string_view line;
  while (reader.next(line)) {
    const Located at{path, reader.line_number()};
    Tokens tokens(line);
    std::string_view id_token, value_token, extra;
    if (!tokens.next(id_token)) continue;  // blank
    if (!tokens.next(value_token)) fail("{}:{}: expected 'vertex value', got '{}'", path, at.line, printable(line.substr(0, 80)));
    if (tokens.next(extra)) fail("{}:{}: expected 'vertex value', got more: '{}'", path, at.line, printable(line.substr(0, 80)));
    Entry e{};
    e.vertex = parse_id(id_token, at, "vertex");
    bool ok = false;
    if (rule == ValidationRule::Epsilon) e.real = parse_real(value_token, &ok);
    else e.integer = parse_integer(value_token, &ok);
    if (!ok)
      fail("{}:{}: value '{}' is not {}", path, at.line, printable(value_token),
           rule == ValidationRule::Epsilon ? "a number or Infinity" : "an integer");
    entries.push_back(e);
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.vertex < b.vertex; });
  for (size_t i = 1; i < entries.size(); ++i)
    if (entries[i].vertex == entries[i - 1].vertex) fail("{}: vertex {} appears more than once", path, entries[i].vertex);
  return entries;
}

std::string value_text(const Entry& e, ValidationRule rule) {
  if (rule == ValidationRule::Epsilon) return fmt::format("{}", e.real);
  const int64_t as_signed = static_cast<int64_t>(e.integer);
  return as_signed < 0 ? fmt::format("{}", as_signed) : fmt::format("{}", e.integer);
}

bool epsilon_match(double got, double want) {
  if (std::isinf(want) || std::isinf(got)) return got == want;
  return std::fabs(got - want) <= kValidationEpsilon * std::fabs(want);
}

}  // namespace

ValidationRule validation_rule(const std::string& algo) {
  if (algo == "bfs" || algo == "cdlp") return ValidationRule::Exact;
  if (algo == "wcc") return ValidationRule::Equivalence;
  if (algo == "pagerank" || algo == "pagerank-delta" || algo == "sssp" || algo == "lcc") return ValidationRule::Epsilon;
  fail("--algo '{}' (expected bfs, cdlp, wcc, pagerank, pagerank-delta, sssp or lcc)", algo);
}

const char* validation_rule_name(ValidationRule rule) { return enum_name<ValidationRule>(kRuleNames, rule); }

ValidationOutcome validate_results(const std::string& results, const std::string& expected, ValidationRule rule) {
  const std::vector<Entry> got = read_results(results, rule);
  const std::vector<Entry> want = read_results(expected, rule);
  ValidationOutcome out;
  out.vertices = want.size();
  // The same vertices: the first one either file lacks is named.
  for (size_t i = 0; i < std::max(got.size(), want.size()); ++i) {
    const bool in_got = i < got.size(), in_want = i < want.size();
    if (in_got && in_want && got[i].vertex == want[i].vertex) continue;
    const bool missing = !in_got || (in_want && want[i].vertex < got[i].vertex);
    out.detail = fmt::format("{} holds {} vertices, {} {}; vertex {} is {}", results, got.size(), expected, want.size(),
                             missing ? want[i].vertex : got[i].vertex, missing ? "missing from the results" : "not expected");
    out.mismatches = 1;
    return out;
  }
  // Equivalence: label a in the results stands for exactly one expected label b, and b for a.
  std::unordered_map<uint64_t, uint64_t> to_expected, to_result;
  uint64_t first = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    bool match = true;
    switch (rule) {
      case ValidationRule::Exact: match = got[i].integer == want[i].integer; break;
      case ValidationRule::Epsilon: match = epsilon_match(got[i].real, want[i].real); break;
      case ValidationRule::Equivalence: {
        const auto a = to_expected.emplace(got[i].integer, want[i].integer).first;
        const auto b = to_result.emplace(want[i].integer, got[i].integer).first;
        match = a->second == want[i].integer && b->second == got[i].integer;
        break;
      }
    }
    if (!match && out.mismatches++ == 0) first = i;
  }
  out.valid = out.mismatches == 0;
  if (out.valid) {
    out.detail = fmt::format("{} matches {} at all {} vertices ({} rule)", results, expected, want.size(), validation_rule_name(rule));
  } else if (rule == ValidationRule::Equivalence) {
    out.detail = fmt::format("{}: {} of {} vertices break the equivalence with {}; the first is vertex {}: label {}, expected "
                             "label {}, but one of the two already stands for another label",
                             results, out.mismatches, want.size(), expected, want[first].vertex, value_text(got[first], rule),
                             value_text(want[first], rule));
  } else {
    out.detail = fmt::format("{}: {} of {} vertices differ from {} ({} rule{}); the first is vertex {}: {}, expected {}", results,
                             out.mismatches, want.size(), expected, validation_rule_name(rule),
                             rule == ValidationRule::Epsilon ? ", 0.01% relative" : "", want[first].vertex,
                             value_text(got[first], rule), value_text(want[first], rule));
  }
  return out;
}

}  // namespace graphso
