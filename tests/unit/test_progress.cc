// Status lines fit the terminal: cut one column short of its width, never inside a character.
#include <catch2/catch.hpp>

#include "base/progress.h"

using namespace graphso;

TEST_CASE("progress: a status line is cut to the terminal's width minus one, on a character boundary") {
  REQUIRE(fit_columns("short", 80) == "short");
  REQUIRE(fit_columns(std::string(79, 'x'), 80) == std::string(79, 'x'));
  REQUIRE(fit_columns(std::string(80, 'x'), 80) == std::string(79, 'x'));
  REQUIRE(fit_columns(std::string(300, 'x'), 40).size() == 39);
  // "é" is two bytes; a cut that would split it keeps the whole character out.
  const std::string accented = std::string(78, 'x') + "\xc3\xa9" + "tail";
  REQUIRE(fit_columns(accented, 80) == std::string(78, 'x'));
  REQUIRE(fit_columns("abc", 1) == "a");
  REQUIRE(fit_columns("abc", 0) == "a");
}
