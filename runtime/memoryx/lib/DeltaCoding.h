//===- DeltaCoding.h - writing the 16-bit index words -----------*- C++ -*-===//
//
// Library-internal: the encoder side of IndexStream.h.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_MEMORYX_LIB_DELTACODING_H
#define TESSERA_MEMORYX_LIB_DELTACODING_H

#include "tessera/MemoryX/IndexStream.h"

#include <bit>
#include <cstdint>

namespace tessera::memoryx {

/// Writes the words for an entry at `position` and moves the cursor there.
/// Only lines of 65536 positions or more can need the escapes.
template <bool MayEscape>
inline uint16_t *emitEntry(uint16_t *out, uint32_t &cursor, uint32_t position) {
  uint32_t gap = position - cursor;
  if constexpr (MayEscape) {
    while (gap >= EscapeStride) {
      *out++ = EscapeWord;
      gap -= EscapeStride;
    }
  }
  *out++ = static_cast<uint16_t>(gap);
  cursor = position;
  return out;
}

/// Whether a line of `length` positions can need an escape.
inline bool lineMayEscape(uint32_t length) { return length > EscapeStride; }

/// The words a mask row takes: its set bits plus the escapes its gaps need.
inline size_t countRowWords(const uint64_t *rowWords, size_t wordCount,
                            bool mayEscape) {
  size_t total = 0;
  if (!mayEscape) {
    for (size_t w = 0; w < wordCount; ++w)
      total += std::popcount(rowWords[w]);
    return total;
  }
  uint32_t cursor = 0;
  for (size_t w = 0; w < wordCount; ++w) {
    for (uint64_t bits = rowWords[w]; bits; bits &= bits - 1) {
      uint32_t position = uint32_t(w * 64) + std::countr_zero(bits);
      total += 1 + (position - cursor) / EscapeStride;
      cursor = position;
    }
  }
  return total;
}

/// Encodes one mask row into `out`; returns the end of what it wrote.
template <bool MayEscape>
inline uint16_t *encodeRowWords(const uint64_t *rowWords, size_t wordCount,
                                uint16_t *out) {
  uint32_t cursor = 0;
  for (size_t w = 0; w < wordCount; ++w) {
    uint64_t bits = rowWords[w];
    uint32_t base = uint32_t(w * 64);
    if (bits == ~uint64_t(0)) {
      // A full word: one delta from the cursor, then 63 ones.
      out = emitEntry<MayEscape>(out, cursor, base);
      for (int j = 0; j < 63; ++j)
        out[j] = 1;
      out += 63;
      cursor = base + 63;
      continue;
    }
    for (; bits; bits &= bits - 1)
      out = emitEntry<MayEscape>(out, cursor, base + std::countr_zero(bits));
  }
  return out;
}

} // namespace tessera::memoryx

#endif // TESSERA_MEMORYX_LIB_DELTACODING_H
