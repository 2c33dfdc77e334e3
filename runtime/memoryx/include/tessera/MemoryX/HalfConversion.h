//===- HalfConversion.h - FP32 to FP16 in bulk ------------------*- C++ -*-===//
//
// Rounds arrays of binary32 to IEEE binary16 with exactly the results of
// tessera::floatToHalfBits (round to nearest, ties to even; NaNs stay quiet
// NaNs with their top payload bits; overflow gives infinity). On x86-64
// CPUs with F16C the bulk of the array goes through the hardware converter,
// whose rounding is the same; elsewhere every element goes through
// Support's function.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_MEMORYX_HALFCONVERSION_H
#define TESSERA_MEMORYX_HALFCONVERSION_H

#include <cstddef>
#include <cstdint>

namespace tessera::memoryx {

/// out[i] = floatToHalfBits(in[i]) for i < count.
void roundToHalf(const float *in, uint16_t *out, size_t count);

/// Values per chunk of roundToHalfInChunks: one 64-byte cache line.
inline constexpr size_t HalfChunk = 32;

/// Like roundToHalf, but element i goes to
/// out[(i / HalfChunk) * chunkStride + i % HalfChunk].
void roundToHalfInChunks(const float *in, size_t count, uint16_t *out,
                         size_t chunkStride);

/// Rounds the values one line of an index stream selects, chunk by chunk
/// like roundToHalfInChunks: word k moves a cursor (0 at the start) by
/// words[k], and its value is line[cursor], or +0 for an escape word.
/// The cursor never passes the line's last entry, so `line` need only
/// reach it.
void roundSelectedToHalfInChunks(const float *line, const uint16_t *words,
                                 size_t count, uint16_t *out,
                                 size_t chunkStride);

/// Whether roundToHalf uses the F16C instructions on this CPU.
bool usesHardwareHalfConversion();

/// Tests only: true makes every function here take the portable path
/// (not thread-safe; set it back to false afterwards).
void setPortableHalfConversionForTesting(bool portable);

} // namespace tessera::memoryx

#endif // TESSERA_MEMORYX_HALFCONVERSION_H
