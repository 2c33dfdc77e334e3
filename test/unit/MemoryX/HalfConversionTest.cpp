//===- HalfConversionTest.cpp - FP32 to FP16 in bulk ----------------------===//
//
// The expected bit patterns were printed by numpy 1.24
// (np.float32(x).astype(np.float16).view(np.uint16)).
//
//===----------------------------------------------------------------------===//

#include "tessera/MemoryX/HalfConversion.h"
#include "tessera/Support/Float16.h"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace tessera;
using namespace tessera::memoryx;

namespace {

uint16_t roundOne(float value) {
  uint16_t half = 0xDEAD;
  roundToHalf(&value, &half, 1);
  return half;
}

float fromBits(uint32_t bits) { return std::bit_cast<float>(bits); }

} // namespace

TEST_CASE("FP16 rounding gives numpy's bit patterns") {
  struct Case {
    float value;
    uint16_t half;
  };
  const Case cases[] = {
      {0.1f, 0x2E66},
      {1.0f, 0x3C00},
      {3.14159f, 0x4248},
      {fromBits(0x3EAAAAAB), 0x3555}, // 1/3
      {65504.0f, 0x7BFF},             // the largest half
      {65519.0f, 0x7BFF},             // rounds down to it
      {65520.0f, 0x7C00},             // the halfway point overflows to inf
      {-65520.0f, 0xFC00},
      {fromBits(0x3F801000), 0x3C00}, // 1 + 2^-11: a tie, to even (down)
      {fromBits(0x3F803000), 0x3C02}, // 1 + 3 * 2^-11: a tie, to even (up)
      {fromBits(0x38800000), 0x0400}, // 2^-14, the smallest normal
      {fromBits(0x387FC000), 0x03FF}, // the largest subnormal
      {fromBits(0x33800000), 0x0001}, // 2^-24, the smallest subnormal
      {fromBits(0x33000000), 0x0000}, // 2^-25: a tie, to even (zero)
      {fromBits(0x33000100), 0x0001}, // just above 2^-25
      {fromBits(0x33C00000), 0x0002}, // 1.5 * 2^-24: a tie, to even (2)
      {fromBits(0x34200000), 0x0002}, // 2.5 * 2^-24: a tie, to even (2)
      {fromBits(0xB3C00000), 0x8002}, // negative subnormal
      {1e-9f, 0x0000},
      {-0.0f, 0x8000},
      {std::numeric_limits<float>::infinity(), 0x7C00},
      {-std::numeric_limits<float>::infinity(), 0xFC00},
      {std::numeric_limits<float>::quiet_NaN(), 0x7E00},
  };
  for (const Case &c : cases) {
    INFO("value bits 0x" << std::hex << std::bit_cast<uint32_t>(c.value));
    CHECK(roundOne(c.value) == c.half);
    CHECK(floatToHalfBits(c.value) == c.half);
  }
}

TEST_CASE("bulk rounding equals Support's floatToHalfBits bit for bit") {
  // Every 251st bit pattern (all exponents, signs and NaN payloads), then
  // every exact tie between two halves across the normal and subnormal
  // range; in arrays long enough for the vector path and with tails.
  std::vector<float> inputs;
  for (uint64_t bits = 0; bits < (uint64_t(1) << 32); bits += 251)
    inputs.push_back(fromBits(static_cast<uint32_t>(bits)));
  for (uint32_t upper = 0; upper < (1u << 19); upper += 3)
    inputs.push_back(fromBits((upper << 13) | 0x1000));
  inputs.push_back(fromBits(0x7F800001)); // signalling NaN
  inputs.push_back(fromBits(0xFFBFFFFF));

  std::vector<uint16_t> halves(inputs.size());
  roundToHalf(inputs.data(), halves.data(), inputs.size());
  size_t mismatches = 0;
  for (size_t i = 0; i < inputs.size(); ++i)
    mismatches += halves[i] != floatToHalfBits(inputs[i]);
  CHECK(mismatches == 0);
  INFO("hardware conversion: " << usesHardwareHalfConversion());

  for (size_t count : {0, 1, 7, 8, 9, 31, 33, 100}) {
    std::vector<uint16_t> part(count + 1, 0xBEEF);
    roundToHalf(inputs.data() + 1000, part.data(), count);
    for (size_t i = 0; i < count; ++i)
      CHECK(part[i] == floatToHalfBits(inputs[1000 + i]));
    CHECK(part[count] == 0xBEEF);
  }
}

TEST_CASE("chunked rounding places each chunk of 32 at its stride") {
  std::vector<float> inputs(75);
  for (size_t i = 0; i < inputs.size(); ++i)
    inputs[i] = 0.5f + float(i);
  const size_t stride = 100;
  std::vector<uint16_t> out(3 * stride, 0xBEEF);
  roundToHalfInChunks(inputs.data(), inputs.size(), out.data(), stride);
  for (size_t i = 0; i < out.size(); ++i) {
    size_t chunk = i / stride, slot = i % stride;
    size_t input = chunk * HalfChunk + slot;
    if (slot < HalfChunk && input < inputs.size())
      CHECK(out[i] == floatToHalfBits(inputs[input]));
    else
      CHECK(out[i] == 0xBEEF);
  }
}

namespace {

/// Every half as a float, the floats on either side of it, the exact ties
/// between it and the next half, and the floats on either side of those.
std::vector<float> halfNeighbourhoods() {
  std::vector<float> inputs;
  for (uint32_t half = 0; half < 0x10000; ++half) {
    uint32_t bits =
        std::bit_cast<uint32_t>(halfBitsToFloat(static_cast<uint16_t>(half)));
    uint32_t next = std::bit_cast<uint32_t>(
        halfBitsToFloat(static_cast<uint16_t>(half + 1)));
    for (uint32_t near : {bits - 1, bits, bits + 1})
      inputs.push_back(fromBits(near));
    // The midpoint, when both are finite halves of the same sign.
    bool sameSign = ((half + 1) & 0x7FFF) != 0 && (half & 0x7C00) != 0x7C00;
    if (sameSign && ((half + 1) & 0x7C00) != 0x7C00) {
      float mid = (fromBits(bits) + fromBits(next)) / 2;
      uint32_t midBits = std::bit_cast<uint32_t>(mid);
      for (uint32_t near : {midBits - 1, midBits, midBits + 1})
        inputs.push_back(fromBits(near));
    }
  }
  return inputs;
}

/// Random bit patterns, weighted towards the awkward classes.
std::vector<float> randomFloats(size_t count, std::mt19937_64 &random) {
  std::vector<float> inputs(count);
  for (float &value : inputs) {
    uint32_t bits = static_cast<uint32_t>(random());
    switch (random() % 6) {
    case 0: // NaN or infinity
      bits |= 0x7F800000;
      break;
    case 1: // float subnormal
      bits &= 0x807FFFFF;
      break;
    case 2: // around the half subnormals and the smallest normals
      bits = (bits & 0x83FFFFFF) | 0x30000000;
      break;
    case 3: // a tie of the half mantissa (13 low bits 0x1000)
      bits = (bits & 0xFFFFE000) | 0x1000;
      break;
    default:
      break;
    }
    value = fromBits(bits);
  }
  return inputs;
}

void checkAgainstScalar(const std::vector<float> &inputs) {
  std::vector<uint16_t> halves(inputs.size());
  roundToHalf(inputs.data(), halves.data(), inputs.size());
  size_t mismatches = 0;
  for (size_t i = 0; i < inputs.size(); ++i)
    mismatches += halves[i] != floatToHalfBits(inputs[i]);
  CHECK(mismatches == 0);
}

} // namespace

TEST_CASE("bulk rounding equals the scalar one around every half") {
  INFO("hardware conversion: " << usesHardwareHalfConversion());
  std::vector<float> inputs = halfNeighbourhoods();
  CHECK(inputs.size() > 3 * 0x10000);
  checkAgainstScalar(inputs);
  // Every half round-trips exactly, NaNs included (they stay quiet).
  for (uint32_t half = 0; half < 0x10000; ++half) {
    float value = halfBitsToFloat(static_cast<uint16_t>(half));
    uint16_t back = roundOne(value);
    if ((half & 0x7C00) == 0x7C00 && (half & 0x3FF) != 0)
      CHECK((back & 0x7E00) == 0x7E00);
    else if (back != half)
      FAIL_CHECK("half 0x" << std::hex << half << " came back as 0x" << back);
  }
  std::mt19937_64 random(1610);
  checkAgainstScalar(randomFloats(1 << 20, random));
}

TEST_CASE("rounding selected values equals the scalar definition") {
  // Both paths: the hardware one where the CPU has it, and the portable one.
  bool portable = GENERATE(false, true);
  setPortableHalfConversionForTesting(portable);
  INFO("portable path forced: " << portable);
  // Lines with gaps of every kind: single words, runs of ones, gaps just
  // below and above an escape, several escapes in a row; several chunk
  // strides and lengths around the chunk of 32.
  std::mt19937_64 random(77);
  std::vector<float> line = randomFloats(400000, random);
  for (size_t count : {0, 1, 7, 31, 32, 33, 64, 100, 1000}) {
    for (size_t stride : {HalfChunk, 3 * HalfChunk + 5}) {
      INFO(count << " words, stride " << stride);
      std::vector<uint16_t> words;
      std::vector<float> expected;
      uint32_t cursor = 0;
      std::geometric_distribution<uint32_t> smallGap(0.3);
      while (words.size() < count) {
        uint32_t pick = random() % 10;
        uint32_t gap = pick < 6   ? smallGap(random)
                       : pick < 8 ? 65534 + uint32_t(random() % 3)
                                  : uint32_t(random() % 200000);
        if (cursor + gap >= line.size())
          gap = 0;
        for (uint32_t left = gap; left >= 65535 && words.size() < count;
             left -= 65535) {
          words.push_back(0xFFFF);
          expected.push_back(0.0f);
          cursor += 65535;
        }
        if (words.size() == count)
          break;
        words.push_back(static_cast<uint16_t>(gap % 65535));
        cursor += gap % 65535;
        expected.push_back(line[cursor]);
      }
      size_t chunks = (count + HalfChunk - 1) / HalfChunk;
      std::vector<uint16_t> out(chunks * stride + 1, 0xBEEF);
      roundSelectedToHalfInChunks(line.data(), words.data(), count, out.data(),
                                  stride);
      for (size_t i = 0; i < out.size(); ++i) {
        size_t chunk = i / stride, slot = i % stride;
        size_t word = chunk * HalfChunk + slot;
        if (slot < HalfChunk && word < count)
          CHECK(out[i] == floatToHalfBits(expected[word]));
        else
          CHECK(out[i] == 0xBEEF);
      }
    }
  }
  setPortableHalfConversionForTesting(false);
}
