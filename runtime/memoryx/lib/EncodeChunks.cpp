//===- EncodeChunks.cpp - rounding, storing and pairing in one step -------===//
//
// Per chunk: four 8-wide conversions (vcvtps2ph, immediate 0: round to
// nearest even, as HalfConversion.cpp), four 16-byte stores of the halves,
// and eight of (word, value) pairs. Going through a buffer on the stack
// instead, as the portable path does, costs a store and a load per value
// and per word, and kept the one pass at about 2 cycles per value even
// when its data was in L2.
//
//===----------------------------------------------------------------------===//

#include "EncodeChunks.h"

#include "tessera/MemoryX/HalfConversion.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define TESSERA_MEMORYX_FUSED 1
#include <immintrin.h>
#endif

using namespace tessera::memoryx;

#ifdef TESSERA_MEMORYX_FUSED
namespace {

template <bool Full, bool Pairs, bool NonTemporal>
__attribute__((target("avx,f16c"))) void
encodeChunks(const float *in, const uint16_t *words, bool rowStart,
             uint32_t chunks, const ChunkTarget &target) {
  uint16_t *values = target.values;
  uint32_t *pairs = target.pairs;
  __m128i ones = _mm_set1_epi16(1);
  for (uint32_t k = 0; k < chunks; ++k) {
    __m128i halves[4];
    for (int j = 0; j < 4; ++j)
      halves[j] = _mm256_cvtps_ph(_mm256_loadu_ps(in + 8 * j),
                                  _MM_FROUND_TO_NEAREST_INT);
    auto *to = reinterpret_cast<__m128i *>(values);
    for (int j = 0; j < 4; ++j) {
      if constexpr (NonTemporal)
        _mm_stream_si128(to + j, halves[j]);
      else
        _mm_storeu_si128(to + j, halves[j]);
    }
    if constexpr (Pairs) {
      auto *out = reinterpret_cast<__m128i *>(pairs);
      for (int j = 0; j < 4; ++j) {
        __m128i w;
        if constexpr (Full)
          w = rowStart && k == 0 && j == 0 ? _mm_insert_epi16(ones, 0, 0)
                                           : ones;
        else
          w = _mm_loadu_si128(reinterpret_cast<const __m128i *>(words) + j);
        _mm_storeu_si128(out + 2 * j, _mm_unpacklo_epi16(w, halves[j]));
        _mm_storeu_si128(out + 2 * j + 1, _mm_unpackhi_epi16(w, halves[j]));
      }
      pairs += 32;
    }
    in += 32;
    words += 32;
    values += target.chunkStride;
  }
}

template <bool Full, bool Pairs>
void encodeChunksStored(const float *in, const uint16_t *words, bool rowStart,
                        uint32_t chunks, const ChunkTarget &target) {
  if (target.nonTemporal)
    encodeChunks<Full, Pairs, true>(in, words, rowStart, chunks, target);
  else
    encodeChunks<Full, Pairs, false>(in, words, rowStart, chunks, target);
}

} // namespace
#endif

bool tessera::memoryx::canEncodeWholeChunks() {
#ifdef TESSERA_MEMORYX_FUSED
  // The same test as the bulk rounding, so the tests' switch covers both.
  return usesHardwareHalfConversion();
#else
  return false;
#endif
}

void tessera::memoryx::encodeWholeChunks(const float *in, const uint16_t *words,
                                         bool full, bool rowStart,
                                         uint32_t chunks,
                                         const ChunkTarget &target) {
#ifdef TESSERA_MEMORYX_FUSED
  if (!target.pairs)
    return encodeChunksStored<false, false>(in, words, rowStart, chunks,
                                            target);
  if (full)
    return encodeChunksStored<true, true>(in, words, rowStart, chunks, target);
  encodeChunksStored<false, true>(in, words, rowStart, chunks, target);
#else
  (void)in, (void)words, (void)full, (void)rowStart, (void)chunks, (void)target;
#endif
}
