#include <catch2/catch.hpp>

#include "base/bitmap.h"

using graphso::Bitmap;

TEST_CASE("bitmap ranges, counts and set_all respect the size") {
  Bitmap b(200);
  b.set(3);
  b.set(64);
  b.set_atomic(199);
  REQUIRE(b.count() == 3);
  REQUIRE(b.any_in(0, 4));
  REQUIRE_FALSE(b.any_in(4, 64));
  REQUIRE(b.any_in(60, 70));
  REQUIRE(b.count_in(0, 200) == 3);
  REQUIRE(b.count_in(65, 199) == 0);
  REQUIRE(b.count_in(65, 200) == 1);
  b.set_all();
  REQUIRE(b.count() == 200);
  b.clear();
  REQUIRE(b.count() == 0);
}
