//===- HalfConversion.cpp - FP32 to FP16 in bulk --------------------------===//

#include "tessera/MemoryX/HalfConversion.h"

#include "tessera/Support/Float16.h"

#include <algorithm>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define TESSERA_MEMORYX_F16C 1
#include <immintrin.h>
#endif

using namespace tessera::memoryx;

namespace {

/// IndexStream.h's EscapeWord; this file does not depend on the streams.
constexpr uint16_t EscapeWordBits = 0xFFFF;

void roundToHalfPortable(const float *in, uint16_t *out, size_t count) {
  for (size_t i = 0; i < count; ++i)
    out[i] = tessera::floatToHalfBits(in[i]);
}

void roundToHalfInChunksPortable(const float *in, size_t count, uint16_t *out,
                                 size_t chunkStride) {
  for (size_t i = 0; i < count; i += HalfChunk, out += chunkStride)
    roundToHalfPortable(in + i, out, std::min(HalfChunk, count - i));
}

/// Gathers the values of up to one chunk of words into `into`; returns the
/// cursor after them. The select, not a branch, keeps escapes (rare, and
/// absent from lines of 65535 positions or fewer) off the fast path.
inline uint32_t gatherChunk(const float *line, const uint16_t *words,
                            size_t count, uint32_t cursor, float *into) {
  for (size_t j = 0; j < count; ++j) {
    cursor += words[j];
    float value = line[cursor];
    into[j] = words[j] == EscapeWordBits ? 0.0f : value;
  }
  return cursor;
}

void roundSelectedPortable(const float *line, const uint16_t *words,
                           size_t count, uint16_t *out, size_t chunkStride) {
  float gathered[HalfChunk];
  uint32_t cursor = 0;
  for (size_t i = 0; i < count; i += HalfChunk, out += chunkStride) {
    size_t inChunk = std::min(HalfChunk, count - i);
    cursor = gatherChunk(line, words + i, inChunk, cursor, gathered);
    roundToHalfPortable(gathered, out, inChunk);
  }
}

#ifdef TESSERA_MEMORYX_F16C
// Compiled for F16C whatever the build's target, and only called when the
// CPU reports it. Immediate 0 is round to nearest even, ignoring MXCSR.
__attribute__((target("avx,f16c"))) void
roundToHalfF16C(const float *in, uint16_t *out, size_t count) {
  size_t i = 0;
  for (; i + 32 <= count; i += 32) {
    for (size_t j = 0; j < 32; j += 8) {
      __m256 lanes = _mm256_loadu_ps(in + i + j);
      __m128i halves = _mm256_cvtps_ph(lanes, _MM_FROUND_TO_NEAREST_INT);
      _mm_storeu_si128(reinterpret_cast<__m128i *>(out + i + j), halves);
    }
  }
  for (; i + 8 <= count; i += 8) {
    __m256 lanes = _mm256_loadu_ps(in + i);
    __m128i halves = _mm256_cvtps_ph(lanes, _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out + i), halves);
  }
  for (; i < count; ++i) {
    __m128 lane = _mm_set_ss(in[i]);
    out[i] = static_cast<uint16_t>(
        _mm_extract_epi16(_mm_cvtps_ph(lane, _MM_FROUND_TO_NEAREST_INT), 0));
  }
}

__attribute__((target("avx,f16c"))) void
roundToHalfInChunksF16C(const float *in, size_t count, uint16_t *out,
                        size_t chunkStride) {
  size_t i = 0;
  for (; i + HalfChunk <= count; i += HalfChunk, out += chunkStride) {
    for (size_t j = 0; j < HalfChunk; j += 8) {
      __m256 lanes = _mm256_loadu_ps(in + i + j);
      __m128i halves = _mm256_cvtps_ph(lanes, _MM_FROUND_TO_NEAREST_INT);
      _mm_storeu_si128(reinterpret_cast<__m128i *>(out + j), halves);
    }
  }
  if (i < count)
    roundToHalfF16C(in + i, out, count - i);
}

__attribute__((target("avx,f16c"))) void
roundSelectedF16C(const float *line, const uint16_t *words, size_t count,
                  uint16_t *out, size_t chunkStride) {
  alignas(32) float gathered[HalfChunk];
  uint32_t cursor = 0;
  size_t i = 0;
  for (; i + HalfChunk <= count; i += HalfChunk, out += chunkStride) {
    cursor = gatherChunk(line, words + i, HalfChunk, cursor, gathered);
    for (size_t j = 0; j < HalfChunk; j += 8) {
      __m256 lanes = _mm256_load_ps(gathered + j);
      __m128i halves = _mm256_cvtps_ph(lanes, _MM_FROUND_TO_NEAREST_INT);
      _mm_storeu_si128(reinterpret_cast<__m128i *>(out + j), halves);
    }
  }
  if (i < count) {
    gatherChunk(line, words + i, count - i, cursor, gathered);
    roundToHalfF16C(gathered, out, count - i);
  }
}

bool cpuHasF16C() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
}
#endif

} // namespace

namespace {
bool forcePortable = false;
} // namespace

void tessera::memoryx::setPortableHalfConversionForTesting(bool portable) {
  forcePortable = portable;
}

bool tessera::memoryx::usesHardwareHalfConversion() {
#ifdef TESSERA_MEMORYX_F16C
  static const bool available = cpuHasF16C();
  return available && !forcePortable;
#else
  return false;
#endif
}

void tessera::memoryx::roundToHalfInChunks(const float *in, size_t count,
                                           uint16_t *out, size_t chunkStride) {
#ifdef TESSERA_MEMORYX_F16C
  if (usesHardwareHalfConversion())
    return roundToHalfInChunksF16C(in, count, out, chunkStride);
#endif
  roundToHalfInChunksPortable(in, count, out, chunkStride);
}

void tessera::memoryx::roundSelectedToHalfInChunks(const float *line,
                                                   const uint16_t *words,
                                                   size_t count, uint16_t *out,
                                                   size_t chunkStride) {
#ifdef TESSERA_MEMORYX_F16C
  if (usesHardwareHalfConversion())
    return roundSelectedF16C(line, words, count, out, chunkStride);
#endif
  roundSelectedPortable(line, words, count, out, chunkStride);
}

void tessera::memoryx::roundToHalf(const float *in, uint16_t *out,
                                   size_t count) {
#ifdef TESSERA_MEMORYX_F16C
  if (usesHardwareHalfConversion())
    return roundToHalfF16C(in, out, count);
#endif
  roundToHalfPortable(in, out, count);
}
