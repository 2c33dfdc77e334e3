//===- Float16Test.cpp - exact 16-bit float conversions -------------------===//
//
// numpy is the reference for binary16 rounding (test/python/test_float16.py
// compares every pattern); these cases pin the corners independently.
//
//===----------------------------------------------------------------------===//

#include "tessera/Support/Float16.h"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <limits>

using namespace tessera;

namespace {
float fromBits(uint32_t bits) { return std::bit_cast<float>(bits); }
} // namespace

TEST_CASE("binary16 values round-trip exactly", "[float16]") {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    uint16_t half = static_cast<uint16_t>(bits);
    float value = halfBitsToFloat(half);
    if (std::isnan(value)) {
      CHECK((half & 0x7C00) == 0x7C00);
      CHECK((half & 0x3FF) != 0);
      continue;
    }
    REQUIRE(floatToHalfBits(value) == half);
  }
}

TEST_CASE("binary16 decoding of known patterns", "[float16]") {
  CHECK(halfBitsToFloat(0x3C00) == 1.0f);
  CHECK(halfBitsToFloat(0xC000) == -2.0f);
  CHECK(halfBitsToFloat(0x7BFF) == 65504.0f);
  CHECK(halfBitsToFloat(0x0001) == std::ldexp(1.0f, -24));
  CHECK(halfBitsToFloat(0x03FF) == std::ldexp(1023.0f, -24));
  CHECK(halfBitsToFloat(0x0400) == std::ldexp(1.0f, -14));
  CHECK(halfBitsToFloat(0x7C00) == std::numeric_limits<float>::infinity());
  CHECK(std::signbit(halfBitsToFloat(0x8000)));
}

TEST_CASE("binary16 rounding is to nearest, ties to even", "[float16]") {
  // 1 + 2^-11 is halfway between 1 and the next binary16 (1 + 2^-10).
  CHECK(floatToHalfBits(1.0f + std::ldexp(1.0f, -11)) == 0x3C00);
  CHECK(floatToHalfBits(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3C02);
  CHECK(floatToHalfBits(std::nextafter(1.0f + std::ldexp(1.0f, -11), 2.0f)) ==
        0x3C01);
  // Rounding up carries into the exponent.
  CHECK(floatToHalfBits(std::nextafter(2.0f, 0.0f)) == 0x4000);
  // 65520 is halfway between 65504 and 65536 (infinity): ties to even = inf.
  CHECK(floatToHalfBits(65519.0f) == 0x7BFF);
  CHECK(floatToHalfBits(65520.0f) == 0x7C00);
  CHECK(floatToHalfBits(1e10f) == 0x7C00);
  CHECK(floatToHalfBits(-1e10f) == 0xFC00);
}

TEST_CASE("binary16 subnormals and underflow", "[float16]") {
  float tiny = std::ldexp(1.0f, -24); // smallest binary16 subnormal
  CHECK(floatToHalfBits(tiny) == 0x0001);
  CHECK(floatToHalfBits(tiny / 2) == 0x0000); // tie to even: zero
  CHECK(floatToHalfBits(std::nextafter(tiny / 2, 1.0f)) == 0x0001);
  CHECK(floatToHalfBits(tiny * 1.5f) == 0x0002); // tie to even: 2
  CHECK(floatToHalfBits(-tiny / 4) == 0x8000);   // keeps the sign
  CHECK(floatToHalfBits(fromBits(0x00000001)) == 0x0000);
  // The largest subnormal rounds up into the smallest normal.
  CHECK(floatToHalfBits(std::nextafter(std::ldexp(1.0f, -14), 0.0f)) ==
        0x0400);
}

TEST_CASE("binary16 NaN stays NaN", "[float16]") {
  uint16_t nan = floatToHalfBits(std::numeric_limits<float>::quiet_NaN());
  CHECK((nan & 0x7C00) == 0x7C00);
  CHECK((nan & 0x03FF) != 0);
  // A payload only in the low bits must not turn into infinity.
  CHECK((floatToHalfBits(fromBits(0x7F800001)) & 0x03FF) != 0);
}

TEST_CASE("bfloat16 conversions", "[float16]") {
  CHECK(floatToBFloat16Bits(1.0f) == 0x3F80);
  CHECK(bfloat16BitsToFloat(0x3F80) == 1.0f);
  // Halfway cases round to even.
  CHECK(floatToBFloat16Bits(fromBits(0x3F808000)) == 0x3F80);
  CHECK(floatToBFloat16Bits(fromBits(0x3F818000)) == 0x3F82);
  CHECK(floatToBFloat16Bits(fromBits(0x3F808001)) == 0x3F81);
  CHECK(floatToBFloat16Bits(fromBits(0x7F7FFFFF)) == 0x7F80); // to infinity
  uint16_t nan = floatToBFloat16Bits(fromBits(0x7F800001));
  CHECK(std::isnan(bfloat16BitsToFloat(nan)));
}
