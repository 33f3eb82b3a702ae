#include <catch2/catch.hpp>

#include <utility>
#include <vector>

#include "base/bitmap.h"
#include "base/bitmap_rank.h"

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

TEST_CASE("bitmap for_each_in visits exactly the set bits of a range, at word boundaries and inside one word") {
  Bitmap b(300);
  for (uint64_t i : {0, 5, 63, 64, 127, 128, 200, 299}) b.set(i);
  auto visited = [&](uint64_t begin, uint64_t end) {
    std::vector<uint64_t> out;
    b.for_each_in(begin, end, [&](uint64_t i) { out.push_back(i); });
    return out;
  };
  for (uint64_t begin = 0; begin <= 300; begin += 7)
    for (uint64_t end = begin; end <= 300; end += 13) {
      std::vector<uint64_t> expected;
      for (uint64_t i = begin; i < end; ++i)
        if (b.test(i)) expected.push_back(i);
      INFO(begin << ".." << end);
      REQUIRE(visited(begin, end) == expected);
    }
  REQUIRE(visited(64, 128) == std::vector<uint64_t>{64, 127});
  REQUIRE(visited(6, 63).empty());
  REQUIRE(visited(299, 300) == std::vector<uint64_t>{299});
}

TEST_CASE("bitmap and_not clears exactly the other's bits, or_with sets them") {
  Bitmap a(130), b(130);
  for (uint64_t i : {0, 5, 63, 64, 100, 129}) a.set(i);
  for (uint64_t i : {5, 64, 128, 129}) b.set(i);
  Bitmap fresh = a;
  fresh.and_not(b);
  std::vector<uint64_t> left;
  fresh.for_each([&](uint64_t i) { left.push_back(i); });
  REQUIRE(left == std::vector<uint64_t>{0, 63, 100});
  b.or_with(a);
  REQUIRE(b.count() == 7);
  a.and_not(b);
  REQUIRE(a.count() == 0);
}

TEST_CASE("bitmap rank: every range's count equals a scan of it, at sizes on and off word and block boundaries") {
  for (uint64_t bits : {1ull, 63ull, 64ull, 65ull, 511ull, 512ull, 513ull, 4096ull, 5000ull}) {
    for (double density : {0.0, 0.01, 0.5, 1.0}) {
      INFO(bits << " bits, density " << density);
      Bitmap b(bits);
      uint64_t key = bits * 977 + static_cast<uint64_t>(density * 100);
      for (uint64_t i = 0; i < bits; ++i) {
        key = key * 6364136223846793005ull + 1442695040888963407ull;
        if (static_cast<double>(key >> 11) / 9007199254740992.0 < density) b.set(i);
      }
      const graphso::BitmapRank rank(b);
      REQUIRE(rank.count_in(0, bits) == b.count());
      for (uint64_t t = 0; t < 300; ++t) {
        key = key * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t x = (key >> 20) % (bits + 1), y = (key >> 40) % (bits + 1);
        if (x > y) std::swap(x, y);
        REQUIRE(rank.count_in(x, y) == b.count_in(x, y));
        REQUIRE(rank.any_in(x, y) == b.any_in(x, y));
      }
    }
  }
  REQUIRE(graphso::BitmapRank::bytes_for(4096 * 64) == (4096 / 8 + 1) * 8);
}
