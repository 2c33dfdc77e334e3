//===- PairUp.h - pairing index words with values -------------*- C++ -*-===//
//
// Library-internal: the loops that write the wire format (word in the low
// half, FP16 value in the high half), shared by WireStream.cpp and
// EncodeStream.cpp, and the buffer they write into.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_MEMORYX_LIB_PAIRUP_H
#define TESSERA_MEMORYX_LIB_PAIRUP_H

#include "tessera/MemoryX/SparseMatrix.h"

#include <algorithm>
#include <cstdint>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace tessera::memoryx {

inline void pairUp(const uint16_t *words, const uint16_t *values,
                   uint32_t count, uint32_t *out) {
  for (uint32_t j = 0; j < count; ++j)
    out[j] = uint32_t(words[j]) | uint32_t(values[j]) << 16;
}

/// The same for a row that holds every column, whose words are all 1 but
/// the first (0): they need not be read, which saves a third of the bytes.
inline void pairUpFull(uint32_t word, const uint16_t *values, uint32_t count,
                       uint32_t *out) {
  for (uint32_t j = 0; j < count; ++j)
    out[j] = uint32_t(word + j != 0) | uint32_t(values[j]) << 16;
}

// One whole chunk, the common case, with SSE2 (part of every x86-64 CPU):
// the compiler's vectorisation of the loops above loaded only 4 values at
// a time and left 2-3 instructions per pair.
#ifdef __SSE2__
inline void pairUpChunk(const uint16_t *words, const uint16_t *values,
                        uint32_t *out) {
  for (uint32_t j = 0; j < ValueChunk; j += 8) {
    __m128i w = _mm_loadu_si128(reinterpret_cast<const __m128i *>(words + j));
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(values + j));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out + j),
                     _mm_unpacklo_epi16(w, v));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out + j + 4),
                     _mm_unpackhi_epi16(w, v));
  }
}

inline void pairUpFullChunk(bool rowStart, const uint16_t *values,
                            uint32_t *out) {
  __m128i ones = _mm_set1_epi16(1);
  for (uint32_t j = 0; j < ValueChunk; j += 8) {
    __m128i w = rowStart && j == 0 ? _mm_insert_epi16(ones, 0, 0) : ones;
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(values + j));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out + j),
                     _mm_unpacklo_epi16(w, v));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out + j + 4),
                     _mm_unpackhi_epi16(w, v));
  }
}
#else
inline void pairUpChunk(const uint16_t *words, const uint16_t *values,
                        uint32_t *out) {
  pairUp(words, values, ValueChunk, out);
}

inline void pairUpFullChunk(bool rowStart, const uint16_t *values,
                            uint32_t *out) {
  pairUpFull(rowStart ? 0 : 1, values, ValueChunk, out);
}
#endif

/// The caller's buffer and how much of it is filled; blocks are handed
/// over only when full, and once more at the end.
struct SparseMatrix::PairWriter {
  std::span<uint32_t> buffer;
  PairBlockFn consume;
  void *callee;
  size_t filled = 0;
  size_t blockFirst = 0;

  void flush() {
    if (filled)
      consume(callee, {buffer.data(), filled}, blockFirst);
    blockFirst += filled;
    filled = 0;
  }
};

/// Appends the pairs of `count` words of one chunk (at most ValueChunk,
/// all within one row), the first being word `word` of its row, and hands
/// the buffer over whenever it fills. `full` rows hold every column.
template <typename Writer>
inline void appendChunk(Writer &writer, bool full, uint32_t word,
                        const uint16_t *words, const uint16_t *values,
                        uint32_t count) {
  size_t capacity = writer.buffer.size();
  while (count) {
    uint32_t *to = writer.buffer.data() + writer.filled;
    uint32_t done = ValueChunk;
    if (count == ValueChunk && capacity - writer.filled >= ValueChunk) {
      if (full)
        pairUpFullChunk(word == 0, values, to);
      else
        pairUpChunk(words, values, to);
    } else {
      done = static_cast<uint32_t>(
          std::min<size_t>(count, capacity - writer.filled));
      if (full)
        pairUpFull(word, values, done, to);
      else
        pairUp(words, values, done, to);
    }
    word += done;
    words += done;
    values += done;
    count -= done;
    writer.filled += done;
    if (writer.filled == capacity)
      writer.flush();
  }
}

} // namespace tessera::memoryx

#endif // TESSERA_MEMORYX_LIB_PAIRUP_H
