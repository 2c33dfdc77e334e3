//===- Float16.cpp - exact 16-bit float conversions -----------------------===//

#include "tessera/Support/Float16.h"

#include <bit>

using namespace tessera;

uint16_t tessera::floatToHalfBits(float value) {
  uint32_t bits = std::bit_cast<uint32_t>(value);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  uint32_t exponent = (bits >> 23) & 0xFFu;
  uint32_t mantissa = bits & 0x7FFFFFu;

  if (exponent == 0xFF) {
    if (mantissa == 0)
      return sign | 0x7C00u;
    // Keep the top payload bits and force the quiet bit.
    return sign | 0x7E00u | static_cast<uint16_t>(mantissa >> 13);
  }

  // Unbiased exponent; binary16 normals cover [-14, 15].
  int e = static_cast<int>(exponent) - 127;
  if (e > 15)
    return sign | 0x7C00u;

  // Build the value as a binary16 magnitude with 13 extra low bits, then
  // round once, so that a carry into the exponent (or into infinity, or from
  // subnormal to normal) happens naturally.
  uint32_t significand;
  int shift;
  if (e >= -14) {
    significand = mantissa | 0x800000u;
    shift = 13;
    uint32_t magnitude = (static_cast<uint32_t>(e + 15) << 10);
    uint32_t kept = significand >> shift;
    uint32_t rest = significand & ((1u << shift) - 1);
    uint32_t half = 1u << (shift - 1);
    uint32_t result = magnitude + (kept & 0x3FFu);
    if (rest > half || (rest == half && (result & 1u)))
      ++result;
    return sign | static_cast<uint16_t>(result);
  }

  // Subnormal in binary16 (or zero): the value is significand * 2^(e-23),
  // expressed in units of 2^-24.
  if (exponent == 0)
    significand = mantissa; // binary32 subnormals are far below 2^-25
  else
    significand = mantissa | 0x800000u;
  shift = -e - 14 + 13; // = 13 + (number of positions below the normal range)
  if (shift > 24)
    return sign; // below half of the smallest subnormal: rounds to zero
  uint32_t kept = significand >> shift;
  uint32_t rest = significand & ((1u << shift) - 1);
  uint32_t half = 1u << (shift - 1);
  if (rest > half || (rest == half && (kept & 1u)))
    ++kept;
  return sign | static_cast<uint16_t>(kept);
}

float tessera::halfBitsToFloat(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  uint32_t exponent = (bits >> 10) & 0x1Fu;
  uint32_t mantissa = bits & 0x3FFu;
  uint32_t result;
  if (exponent == 0x1F) {
    result = sign | 0x7F800000u | (mantissa << 13);
  } else if (exponent != 0) {
    result = sign | ((exponent - 15 + 127) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    result = sign;
  } else {
    // Normalise the subnormal: shift until the implicit bit appears.
    int e = -14;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      --e;
    }
    result = sign | (static_cast<uint32_t>(e + 127) << 23) |
             ((mantissa & 0x3FFu) << 13);
  }
  return std::bit_cast<float>(result);
}

uint16_t tessera::floatToBFloat16Bits(float value) {
  uint32_t bits = std::bit_cast<uint32_t>(value);
  if ((bits & 0x7F800000u) == 0x7F800000u && (bits & 0x7FFFFFu) != 0)
    return static_cast<uint16_t>((bits >> 16) | 0x0040u); // quiet NaN
  uint32_t rest = bits & 0xFFFFu;
  uint32_t kept = bits >> 16;
  if (rest > 0x8000u || (rest == 0x8000u && (kept & 1u)))
    ++kept;
  return static_cast<uint16_t>(kept);
}

float tessera::bfloat16BitsToFloat(uint16_t bits) {
  return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}
