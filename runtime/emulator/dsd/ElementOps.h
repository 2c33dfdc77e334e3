//===- ElementOps.h - one element of each DSD operation ---------*- C++ -*-===//
//
// The per-element semantics of docs/ISA.md's DSD table on raw bits, and the
// element widths of each operand. Both the fast path (one loop instantiated
// per operation) and the element-by-element path use these functions, so
// the two cannot disagree. Internal to the DSD engine.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_DSD_ELEMENTOPS_H
#define TESSERA_EMULATOR_DSD_ELEMENTOPS_H

#include "FloatOps.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>

namespace tessera::emulator::dsd {

/// Operand widths of a DSD operation in bits; sources 0 if absent.
struct OpShape {
  uint8_t sources = 0;
  uint8_t dest = 0;
  uint8_t src[3] = {0, 0, 0};
};

// X(Opcode, dest width, source widths...). Every DSDOp-class instruction
// but map; a test checks that the list covers ISA.def.
#define TESSERA_DSD_OPS(X)                                                     \
  X(FAddSV, 32, 32, 32)                                                        \
  X(FSubSV, 32, 32, 32)                                                        \
  X(FMulSV, 32, 32, 32)                                                        \
  X(FMaxSV, 32, 32, 32)                                                        \
  X(FAddHV, 16, 16, 16)                                                        \
  X(FSubHV, 16, 16, 16)                                                        \
  X(FMulHV, 16, 16, 16)                                                        \
  X(FMaxHV, 16, 16, 16)                                                        \
  X(FAddHSV, 32, 32, 16)                                                       \
  X(FMacSV, 32, 32, 32, 32)                                                    \
  X(FMacHV, 16, 16, 16, 16)                                                    \
  X(FMacHSV, 32, 32, 16, 16)                                                   \
  X(FMovSV, 32, 32)                                                            \
  X(FMovHV, 16, 16)                                                            \
  X(FNegSV, 32, 32)                                                            \
  X(FNegHV, 16, 16)                                                            \
  X(FAbsSV, 32, 32)                                                            \
  X(FAbsHV, 16, 16)                                                            \
  X(FH2SV, 32, 16)                                                             \
  X(FS2HV, 16, 32)                                                             \
  X(FH2XP16V, 16, 16)                                                          \
  X(FS2XP16V, 16, 32)                                                          \
  X(XP162FHV, 16, 16)                                                          \
  X(XP162FSV, 32, 16)                                                          \
  X(FScaleHV, 16, 16, 16)                                                      \
  X(FScaleSV, 32, 32, 16)                                                      \
  X(FNormHV, 16, 16)                                                           \
  X(FNormSV, 32, 32)                                                           \
  X(Mov16V, 16, 16)                                                            \
  X(Mov32V, 32, 32)                                                            \
  X(Add16V, 16, 16, 16)                                                        \
  X(AddC16V, 16, 16, 16)                                                       \
  X(Sub16V, 16, 16, 16)                                                        \
  X(And16V, 16, 16, 16)                                                        \
  X(Or16V, 16, 16, 16)                                                         \
  X(Xor16V, 16, 16, 16)                                                        \
  X(Sll16V, 16, 16, 16)                                                        \
  X(Slr16V, 16, 16, 16)                                                        \
  X(Sar16V, 16, 16, 16)                                                        \
  X(PopcntV, 16, 16)                                                           \
  X(ClzV, 16, 16)                                                              \
  X(CtzV, 16, 16)

/// The shape of a DSD operation, or none for any other opcode (map too).
constexpr std::optional<OpShape> getShape(pe::Opcode opcode) {
  switch (opcode) {
#define TESSERA_SHAPE(Name, Dest, ...)                                         \
  case pe::Opcode::Name: {                                                     \
    constexpr uint8_t widths[] = {__VA_ARGS__};                                \
    OpShape shape;                                                             \
    shape.dest = Dest;                                                         \
    shape.sources = sizeof(widths);                                            \
    for (unsigned i = 0; i < sizeof(widths); ++i)                              \
      shape.src[i] = widths[i];                                                \
    return shape;                                                              \
  }
    TESSERA_DSD_OPS(TESSERA_SHAPE)
#undef TESSERA_SHAPE
  default:
    return std::nullopt;
  }
}

inline double half(uint32_t bits) { return fp::f16(bits); }

/// Float to i16: toward zero, saturating, NaN 0 (docs/ISA.md).
inline uint32_t toInt16(double value) {
  if (std::isnan(value))
    return 0;
  if (value >= 32767.0)
    return 0x7FFF;
  if (value <= -32768.0)
    return 0x8000;
  return static_cast<uint16_t>(static_cast<int16_t>(value));
}

/// `a * 2^-e` with 1 <= |result| < 2: exact, so no rounding; 0 and
/// infinities unchanged, NaN canonical like every NaN result.
inline double normalized(double value) {
  if (value == 0 || std::isinf(value))
    return value;
  int exponent;
  double mantissa = std::frexp(value, &exponent); // 0.5 <= |m| < 1
  return mantissa * 2;
}

inline int16_t exponentOf(uint32_t bits) {
  return static_cast<int16_t>(static_cast<uint16_t>(bits));
}

/// One element: sources a, b, c (zero-extended to 32 bits when 16 wide)
/// give the destination's bits. `carry` is addc16's carry chain.
template <pe::Opcode Op>
[[gnu::always_inline]] inline uint32_t apply(uint32_t a, uint32_t b, uint32_t c,
                                             uint32_t &carry) {
  using fp::f32;
  using pe::Opcode;
  // f32: the host's binary32 arithmetic, one rounding each; products and
  // sums are separate statements (and -ffp-contract=off) so that nothing
  // fuses.
  if constexpr (Op == Opcode::FAddSV)
    return fp::bits32(f32(a) + f32(b));
  else if constexpr (Op == Opcode::FSubSV)
    return fp::bits32(f32(a) - f32(b));
  else if constexpr (Op == Opcode::FMulSV)
    return fp::bits32(f32(a) * f32(b));
  else if constexpr (Op == Opcode::FMaxSV)
    return fp::pickMax(f32(a), a, f32(b), b, fp::CanonicalNaN32);
  // f16: exact in double, rounded once.
  else if constexpr (Op == Opcode::FAddHV)
    return fp::roundToHalf(half(a) + half(b));
  else if constexpr (Op == Opcode::FSubHV)
    return fp::roundToHalf(half(a) - half(b));
  else if constexpr (Op == Opcode::FMulHV)
    return fp::roundToHalf(half(a) * half(b));
  else if constexpr (Op == Opcode::FMaxHV)
    return fp::pickMax(half(a), a & 0xFFFF, half(b), b & 0xFFFF,
                       fp::CanonicalNaN16);
  // Every f16 value is exact in f32, so the f32 sum rounds once.
  else if constexpr (Op == Opcode::FAddHSV)
    return fp::bits32(f32(a) + fp::f16(b));
  else if constexpr (Op == Opcode::FMacSV) {
    float product = f32(b) * f32(c);
    float sum = f32(a) + product;
    return fp::bits32(sum);
  } else if constexpr (Op == Opcode::FMacHV) {
    uint32_t product = fp::roundToHalf(half(b) * half(c));
    return fp::roundToHalf(half(a) + half(product));
  } else if constexpr (Op == Opcode::FMacHSV) {
    // 11 x 11 significand bits and f16's exponent range fit binary32.
    float product = fp::f16(b) * fp::f16(c);
    float sum = f32(a) + product;
    return fp::bits32(sum);
  }
  // Moves, negation and absolute value are bit operations.
  else if constexpr (Op == Opcode::FMovSV || Op == Opcode::Mov32V)
    return a;
  else if constexpr (Op == Opcode::FMovHV || Op == Opcode::Mov16V)
    return a & 0xFFFF;
  else if constexpr (Op == Opcode::FNegSV)
    return a ^ 0x80000000u;
  else if constexpr (Op == Opcode::FNegHV)
    return (a ^ 0x8000u) & 0xFFFF;
  else if constexpr (Op == Opcode::FAbsSV)
    return a & 0x7FFFFFFFu;
  else if constexpr (Op == Opcode::FAbsHV)
    return a & 0x7FFFu;
  // Conversions.
  else if constexpr (Op == Opcode::FH2SV)
    return fp::bits32(fp::f16(a));
  else if constexpr (Op == Opcode::FS2HV)
    return fp::roundToHalf(f32(a));
  else if constexpr (Op == Opcode::FH2XP16V)
    return toInt16(half(a));
  else if constexpr (Op == Opcode::FS2XP16V)
    return toInt16(f32(a));
  else if constexpr (Op == Opcode::XP162FHV)
    return fp::roundToHalf(static_cast<int16_t>(a));
  else if constexpr (Op == Opcode::XP162FSV)
    return fp::bits32(static_cast<float>(static_cast<int16_t>(a)));
  // Scaling by 2^b is exact in double wherever a binary16 or binary32
  // result can be non-zero, so the one rounding is the final one.
  else if constexpr (Op == Opcode::FScaleHV)
    return fp::roundToHalf(std::ldexp(half(a), exponentOf(b)));
  else if constexpr (Op == Opcode::FScaleSV)
    return fp::bits32(
        static_cast<float>(std::ldexp(double(f32(a)), exponentOf(b))));
  else if constexpr (Op == Opcode::FNormHV)
    return fp::roundToHalf(normalized(half(a)));
  else if constexpr (Op == Opcode::FNormSV)
    return fp::bits32(static_cast<float>(normalized(f32(a))));
  // 16-bit integers wrap.
  else if constexpr (Op == Opcode::Add16V)
    return (a + b) & 0xFFFF;
  else if constexpr (Op == Opcode::AddC16V) {
    uint32_t sum = (a & 0xFFFF) + (b & 0xFFFF) + carry;
    carry = sum >> 16;
    return sum & 0xFFFF;
  } else if constexpr (Op == Opcode::Sub16V)
    return (a - b) & 0xFFFF;
  else if constexpr (Op == Opcode::And16V)
    return a & b & 0xFFFF;
  else if constexpr (Op == Opcode::Or16V)
    return (a | b) & 0xFFFF;
  else if constexpr (Op == Opcode::Xor16V)
    return (a ^ b) & 0xFFFF;
  // Shift amounts are unsigned 16-bit; 16 or more shifts everything out.
  else if constexpr (Op == Opcode::Sll16V)
    return (b & 0xFFFF) >= 16 ? 0 : (a << (b & 0xFFFF)) & 0xFFFF;
  else if constexpr (Op == Opcode::Slr16V)
    return (b & 0xFFFF) >= 16 ? 0 : (a & 0xFFFF) >> (b & 0xFFFF);
  else if constexpr (Op == Opcode::Sar16V) {
    int16_t value = static_cast<int16_t>(a);
    unsigned amount = (b & 0xFFFF) >= 16 ? 15 : (b & 0xFFFF);
    return static_cast<uint16_t>(static_cast<int16_t>(value >> amount));
  } else if constexpr (Op == Opcode::PopcntV)
    return static_cast<uint32_t>(std::popcount(a & 0xFFFF));
  else if constexpr (Op == Opcode::ClzV)
    return static_cast<uint32_t>(std::countl_zero(static_cast<uint16_t>(a)));
  else if constexpr (Op == Opcode::CtzV)
    return static_cast<uint32_t>(std::countr_zero(static_cast<uint16_t>(a)));
  else
    static_assert(Op == Opcode::Invalid, "not a DSD operation");
}

/// apply<Op> for an opcode known at run time (the element-by-element path).
using ApplyFn = uint32_t (*)(uint32_t, uint32_t, uint32_t, uint32_t &);
ApplyFn getApply(pe::Opcode opcode);

} // namespace tessera::emulator::dsd

#endif // TESSERA_EMULATOR_DSD_ELEMENTOPS_H
