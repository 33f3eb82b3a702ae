// LDBC Graphalytics' validation rules, applied to two result files of "vertex value" lines (in any
// order): what `graphso validate` runs, so a user can check graphso's output against any
// Graphalytics reference output, or two runs against each other.
//   bfs, cdlp   exact: every vertex's value equal (BFS's unreached is 9223372036854775807)
//   wcc         equivalence: the two labellings induce the same partition (labels may differ,
//               one-to-one)
//   pagerank,   epsilon: |value - expected| <= 0.0001 x |expected| (0.01% relative); Infinity
//   sssp, lcc   matches only Infinity
// Both files must hold the same vertices, each once.
#pragma once

#include <cstdint>
#include <string>

namespace graphso {

enum class ValidationRule { Exact, Equivalence, Epsilon };

// The rule of a Graphalytics algorithm name (bfs, cdlp, wcc, pagerank, sssp, lcc); graphso's own
// pagerank-delta is held to the epsilon rule like pagerank. Throws for any other name.
ValidationRule validation_rule(const std::string& algo);
const char* validation_rule_name(ValidationRule rule);

inline constexpr double kValidationEpsilon = 1e-4;

struct ValidationOutcome {
  bool valid = false;
  uint64_t vertices = 0;    // in the expected file
  uint64_t mismatches = 0;  // vertices whose value breaks the rule
  std::string detail;       // a sentence: what matched, or the first difference
};

// Throws a one-line graphso::Error for a file it cannot read or a malformed line
// (file:line: what is wrong); a difference in the results is an outcome, not an error.
ValidationOutcome validate_results(const std::string& results, const std::string& expected, ValidationRule rule);

}  // namespace graphso
