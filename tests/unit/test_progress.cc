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

TEST_CASE("progress: a plan's share done counts the steps before and the fraction of the current one") {
  const ProgressPlan plan("prep", {1, 2, 3, 2});
  REQUIRE(plan.steps() == 4);
  REQUIRE(plan.share_done(0, 0.0) == 0.0);
  REQUIRE(plan.share_done(0, 1.0) == Approx(1.0 / 8));
  REQUIRE(plan.share_done(2, 0.5) == Approx((1 + 2 + 1.5) / 8));
  REQUIRE(plan.share_done(3, 1.0) == Approx(1.0));
  REQUIRE(plan.share_done(3, 7.0) == Approx(1.0));  // a fraction past 1 counts as 1
  REQUIRE(plan.step(2).next().index == 3);
}
