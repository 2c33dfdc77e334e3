//===- MaskTest.cpp - which weights of a layer take part ------------------===//

#include "TestSupport.h"

#include "tessera/MemoryX/Mask.h"

#include <catch2/catch.hpp>

using namespace tessera::memoryx;
using namespace memoryxtest;

TEST_CASE("a full mask sets every column and no padding bit") {
  Mask mask(3, 70, true);
  CHECK(mask.wordsPerRow() == 2);
  CHECK(mask.count() == 210);
  for (uint32_t row = 0; row < 3; ++row) {
    CHECK(mask.rowWords(row)[0] == ~uint64_t(0));
    CHECK(mask.rowWords(row)[1] == (uint64_t(1) << 6) - 1);
  }
  mask.set(1, 69, false);
  CHECK_FALSE(mask.test(1, 69));
  CHECK(mask.test(1, 68));
  CHECK(mask.count() == 209);
  CHECK(Mask(4, 64, true).count() == 256);
  CHECK(Mask(4, 64).count() == 0);
}

TEST_CASE("a mask from words checks the count and the padding") {
  Expected<Mask> good = Mask::fromWords(2, 70, {1, 2, 3, 4});
  REQUIRE(good);
  CHECK(good->test(0, 0));
  CHECK(good->test(0, 65));
  CHECK(good->test(1, 0));
  CHECK(good->test(1, 1));
  CHECK(good->test(1, 66));
  CHECK(good->count() == 5);

  CHECK(Mask::fromWords(2, 70, {1, 2, 3}).error() ==
        "mask of 2x70 needs 4 words, got 3");
  CHECK(Mask::fromWords(2, 70, {1, 2, 3, uint64_t(1) << 6}).error() ==
        "mask row 1 has bits set beyond column 69");
}

TEST_CASE("transposing a mask swaps rows and columns bit for bit") {
  std::mt19937_64 random(11);
  const uint32_t shapes[][2] = {{1, 1},   {1, 130}, {130, 1}, {63, 65},
                                {64, 64}, {200, 3}, {70, 129}};
  for (const auto &shape : shapes) {
    Mask mask = randomMask(shape[0], shape[1], 0.4, random);
    Mask transposed = mask.transposed();
    REQUIRE(transposed.rows() == shape[1]);
    REQUIRE(transposed.cols() == shape[0]);
    for (uint32_t r = 0; r < shape[0]; ++r)
      for (uint32_t c = 0; c < shape[1]; ++c)
        REQUIRE(transposed.test(c, r) == mask.test(r, c));
    // Padding stays zero, so the transpose of the transpose is the mask.
    CHECK(transposed.transposed() == mask);
    CHECK(transposed.count() == mask.count());
  }
}
