//===- Float16.h - exact 16-bit float conversions ---------------*- C++ -*-===//
//
// Bit-exact conversions between binary32 and the 16-bit formats a PE can use
// for f16 (IEEE binary16 and bfloat16). Shared by the compiler (constant
// folding), the emulator (f16 arithmetic) and the host runtime (16-bit
// memcpy). Rounding is to nearest, ties to even, as numpy's astype does.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_SUPPORT_FLOAT16_H
#define TESSERA_SUPPORT_FLOAT16_H

#include <cstdint>

namespace tessera {

/// Rounds a binary32 value to IEEE binary16 and returns its bits. NaNs stay
/// NaN (quiet, sign and top payload bits kept); overflow gives infinity.
uint16_t floatToHalfBits(float value);

/// The binary32 value of IEEE binary16 bits; exact for every input.
float halfBitsToFloat(uint16_t bits);

/// Rounds a binary32 value to bfloat16 (the top 16 bits of binary32).
uint16_t floatToBFloat16Bits(float value);

/// The binary32 value of bfloat16 bits; exact for every input.
float bfloat16BitsToFloat(uint16_t bits);

} // namespace tessera

#endif // TESSERA_SUPPORT_FLOAT16_H
