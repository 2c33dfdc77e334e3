//===- FloatOps.cpp - exact float rules of the PE ISA ---------------------===//

#include "FloatOps.h"

using namespace tessera::emulator;

uint16_t fp::roundToHalf(double value) {
  // Going through binary32 would round twice; round the double's bits once.
  uint64_t bits = std::bit_cast<uint64_t>(value);
  uint16_t sign = static_cast<uint16_t>((bits >> 48) & 0x8000u);
  unsigned exponent = static_cast<unsigned>((bits >> 52) & 0x7FF);
  uint64_t mantissa = bits & ((uint64_t(1) << 52) - 1);
  if (exponent == 0x7FF)
    return mantissa ? CanonicalNaN16 : sign | 0x7C00u;
  if (exponent == 0)
    return sign; // binary64 subnormals are far below binary16's range
  int e = static_cast<int>(exponent) - 1023;
  if (e > 15)
    return sign | 0x7C00u;

  // value = significand * 2^(e - 52). Keep 11 bits for a normal result, or
  // whole units of 2^-24 for a subnormal one, and round the rest away.
  uint64_t significand = mantissa | (uint64_t(1) << 52);
  int drop = e >= -14 ? 42 : 42 + (-14 - e);
  if (drop > 53)
    return sign; // below half of the smallest subnormal
  uint64_t kept = significand >> drop;
  uint64_t rest = significand & ((uint64_t(1) << drop) - 1);
  uint64_t half = uint64_t(1) << (drop - 1);
  if (rest > half || (rest == half && (kept & 1)))
    ++kept;
  // kept carries the implicit bit (0x400) for normals, so the exponent field
  // is e + 14 below it; a carry out of the significand moves into the
  // exponent, up to infinity, and a subnormal that rounds up becomes normal.
  uint64_t magnitude =
      (e >= -14 ? static_cast<uint64_t>(e + 14) << 10 : 0) + kept;
  return sign | static_cast<uint16_t>(magnitude);
}
