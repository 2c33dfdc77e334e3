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

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace tessera::memoryx {

/// Words the encoder may write past the end of a stream: reserve them.
inline constexpr size_t EncoderSlackWords = 8;

/// For each value of a mask byte: the gaps between its set bits (the first
/// counted from bit 0 of the byte), how many there are, and the last one.
struct ByteGaps {
  alignas(16) uint16_t gap[256][8];
  uint8_t count[256];
  uint8_t last[256];
};

constexpr ByteGaps makeByteGaps() {
  ByteGaps table{};
  for (unsigned byte = 0; byte < 256; ++byte) {
    unsigned count = 0, previous = 0;
    for (unsigned bit = 0; bit < 8; ++bit) {
      if (!((byte >> bit) & 1))
        continue;
      table.gap[byte][count++] = static_cast<uint16_t>(bit - previous);
      previous = table.last[byte] = static_cast<uint8_t>(bit);
    }
    table.count[byte] = static_cast<uint8_t>(count);
  }
  return table;
}

inline constexpr ByteGaps ByteGapTable = makeByteGaps();

/// The words of one mask word a byte at a time, for lines of at most 65535
/// positions (no escapes): each byte stores its eight table gaps, the first
/// moved by the distance from the cursor, and keeps count[byte] of them;
/// the next store overwrites the rest (or they fall in the slack). About
/// 2.5 times as fast as a bit at a time when half the bits are set.
inline uint16_t *encodeWordByBytes(uint64_t bits, uint32_t base,
                                   uint32_t &cursor, uint16_t *out) {
  for (unsigned k = 0; k < 8; ++k) {
    unsigned byte = (bits >> (8 * k)) & 0xFF;
    uint32_t start = base + 8 * k;
#ifdef __SSE2__
    __m128i gaps = _mm_load_si128(
        reinterpret_cast<const __m128i *>(ByteGapTable.gap[byte]));
    // Only lane 0 is moved: cvtsi32 zeroes the others.
    gaps = _mm_add_epi16(gaps, _mm_cvtsi32_si128(int(start - cursor)));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out), gaps);
#else
    for (unsigned j = 0; j < 8; ++j)
      out[j] = ByteGapTable.gap[byte][j];
    out[0] = static_cast<uint16_t>(out[0] + (start - cursor));
#endif
    out += ByteGapTable.count[byte];
    cursor = byte ? start + ByteGapTable.last[byte] : cursor;
  }
  return out;
}

/// Set bits from which a mask word is encoded a byte at a time.
inline constexpr int ByteEncodingFrom = 8;

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

/// Encodes one mask row into `out`; returns the end of what it kept. It may
/// write up to EncoderSlackWords words beyond that.
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
    if constexpr (!MayEscape) {
      if (std::popcount(bits) >= ByteEncodingFrom) {
        out = encodeWordByBytes(bits, base, cursor, out);
        continue;
      }
    }
    for (; bits; bits &= bits - 1)
      out = emitEntry<MayEscape>(out, cursor, base + std::countr_zero(bits));
  }
  return out;
}

} // namespace tessera::memoryx

#endif // TESSERA_MEMORYX_LIB_DELTACODING_H
