//===- FloatOps.h - exact float rules of the PE ISA -------------*- C++ -*-===//
//
// The float semantics of docs/ISA.md on raw register bits: one rounding to
// nearest even per operation, subnormals kept, canonical NaN results. f32
// arithmetic uses the host's binary32 (IEEE, round to nearest even, no flush
// to zero); f16 arithmetic computes in double, where f16 add, subtract and
// multiply are exact and divide and square root round innocuously (53 >=
// 2 * 11 + 2), and rounds once to binary16. Internal to the emulator core;
// the DSD operations will use the same rules.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_CORE_FLOATOPS_H
#define TESSERA_EMULATOR_CORE_FLOATOPS_H

#include "tessera/Support/Float16.h"
#include "tessera/Target/PEBinary/ISA.h"

#include <bit>
#include <cmath>
#include <cstdint>

namespace tessera::emulator::fp {

inline constexpr uint32_t CanonicalNaN32 = 0x7FC00000;
inline constexpr uint16_t CanonicalNaN16 = 0x7E00;
/// The high half of CanonicalNaN32.
inline constexpr uint16_t CanonicalNaNBF16 = 0x7FC0;

/// Rounds `value` once to binary16, ties to even; a NaN gives 0x7E00.
uint16_t roundToHalf(double value);

inline float f32(uint32_t bits) { return std::bit_cast<float>(bits); }
/// f16 operands are the low half of a register; the high half is ignored.
inline float f16(uint32_t bits) {
  return halfBitsToFloat(static_cast<uint16_t>(bits));
}

/// The bits of an f32 result, NaN made canonical.
inline uint32_t bits32(float value) {
  return std::isnan(value) ? CanonicalNaN32 : std::bit_cast<uint32_t>(value);
}

/// fmin/fmax: one NaN gives the other operand, two give the canonical NaN;
/// -0 is below +0. `a` and `b` are the operands' values, `aBits`/`bBits`
/// what the result is when that operand is chosen.
inline uint32_t pickMin(double a, uint32_t aBits, double b, uint32_t bBits,
                        uint32_t nan) {
  if (std::isnan(a))
    return std::isnan(b) ? nan : bBits;
  if (std::isnan(b) || a < b)
    return aBits;
  if (b < a)
    return bBits;
  return std::signbit(a) ? aBits : bBits; // equal: only +-0 differ
}
inline uint32_t pickMax(double a, uint32_t aBits, double b, uint32_t bBits,
                        uint32_t nan) {
  if (std::isnan(a))
    return std::isnan(b) ? nan : bBits;
  if (std::isnan(b) || a > b)
    return aBits;
  if (b > a)
    return bBits;
  return std::signbit(a) ? bBits : aBits;
}

/// fcmp: 1 if `predicate` holds; O* predicates fail and U* hold when either
/// operand is NaN.
inline uint32_t compare(double a, double b, pe::FCmpPredicate predicate) {
  using P = pe::FCmpPredicate;
  bool unordered = std::isnan(a) || std::isnan(b);
  switch (predicate) {
  case P::False:
    return 0;
  case P::OEQ:
    return !unordered && a == b;
  case P::OGT:
    return !unordered && a > b;
  case P::OGE:
    return !unordered && a >= b;
  case P::OLT:
    return !unordered && a < b;
  case P::OLE:
    return !unordered && a <= b;
  case P::ONE:
    return !unordered && a != b;
  case P::ORD:
    return !unordered;
  case P::UNO:
    return unordered;
  case P::UEQ:
    return unordered || a == b;
  case P::UGT:
    return unordered || a > b;
  case P::UGE:
    return unordered || a >= b;
  case P::ULT:
    return unordered || a < b;
  case P::ULE:
    return unordered || a <= b;
  case P::UNE:
    return unordered || a != b;
  case P::True:
    return 1;
  }
  return 0; // unreachable: the decoder admits predicates 0..15 only
}

/// Float to i32/u32: toward zero, saturating, NaN 0.
inline uint32_t toInt32(double value) {
  if (std::isnan(value))
    return 0;
  if (value >= 2147483648.0)
    return 0x7FFFFFFF;
  if (value < -2147483648.0)
    return 0x80000000;
  return static_cast<uint32_t>(static_cast<int32_t>(value));
}
inline uint32_t toUInt32(double value) {
  if (std::isnan(value) || value < 1.0)
    return 0;
  if (value >= 4294967296.0)
    return 0xFFFFFFFF;
  return static_cast<uint32_t>(value);
}

/// Integer to f32, rounded once (every i32/u32 is exact in double).
inline uint32_t int32ToF32(int32_t value) {
  return std::bit_cast<uint32_t>(
      static_cast<float>(static_cast<double>(value)));
}
inline uint32_t uint32ToF32(uint32_t value) {
  return std::bit_cast<uint32_t>(
      static_cast<float>(static_cast<double>(value)));
}

} // namespace tessera::emulator::fp

#endif // TESSERA_EMULATOR_CORE_FLOATOPS_H
