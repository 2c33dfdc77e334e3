//===- EncodeStream.cpp - encoding plus streaming in one pass -------------===//
//
// refreshValues, refreshRows and refreshAndStreamForward all come here.
// encodeRows rounds each piece of a row into a small buffer on the stack,
// pairs the words with it from there when streaming, and stores it into
// values() with non-temporal stores where a chunk is a whole aligned line
// (the tiled layout). The values are thus written without first being
// read (a normal store fetches its line first), and the stream never reads
// them back: per dense weight the one pass moves 4 bytes of master in and
// 2 of values out, against 4 + 2 (fetch) + 2 (write-back) + 2 (read) for a
// refresh followed by a stream.
//
//===----------------------------------------------------------------------===//

#include "tessera/MemoryX/HalfConversion.h"
#include "tessera/MemoryX/SparseMatrix.h"

#include "PairUp.h"

#include <algorithm>
#include <cstring>

using namespace tessera::memoryx;

namespace {

/// Words rounded at a time: a multiple of the chunk, and 4 KiB on the
/// stack, well inside L1.
constexpr uint32_t PieceWords = 64 * ValueChunk;

/// Copies one chunk of rounded values to its place in values().
inline void storeChunk(uint16_t *to, const uint16_t *from, uint32_t count,
                       bool whole) {
#ifdef __SSE2__
  if (whole) {
    for (uint32_t j = 0; j < ValueChunk; j += 8)
      _mm_stream_si128(
          reinterpret_cast<__m128i *>(to + j),
          _mm_load_si128(reinterpret_cast<const __m128i *>(from + j)));
    return;
  }
#endif
  std::memcpy(to, from, count * sizeof(uint16_t));
}

/// The cursor's advance over `count` words: every word moves it by its
/// value, escapes included.
inline uint32_t advance(const uint16_t *words, uint32_t count) {
  uint32_t total = 0;
  for (uint32_t j = 0; j < count; ++j)
    total += words[j];
  return total;
}

} // namespace

void SparseMatrix::encodeRows(const float *master, uint32_t firstRow,
                              uint32_t endRow, PairWriter *writer) {
  const uint32_t *offsets = forward.offsets().data();
  const uint16_t *delta = forward.deltas().data();
  uint32_t colCount = cols();
  // Non-temporal stores need 16-byte alignment; tiled chunks are whole
  // 64-byte lines of a line-aligned array.
  bool tiled = isTiled();
  alignas(64) uint16_t piece[PieceWords];
  for (uint32_t row = firstRow; row < endRow; ++row) {
    const float *masterRow = master + size_t(row) * colCount;
    uint32_t begin = offsets[row], count = offsets[row + 1] - begin;
    const uint16_t *words = delta + begin;
    bool full = count == colCount;
    uint32_t cursor = 0;
    for (uint32_t first = 0; first < count; first += PieceWords) {
      uint32_t inPiece = std::min(PieceWords, count - first);
      if (full) {
        roundToHalf(masterRow + first, piece, inPiece);
      } else {
        // The piece's cursor starts where the previous piece's ended.
        roundSelectedToHalfInChunks(masterRow + cursor, words + first, inPiece,
                                    piece, ValueChunk);
        cursor += advance(words + first, inPiece);
      }
      for (uint32_t at = 0; at < inPiece; at += ValueChunk) {
        uint32_t word = first + at;
        uint32_t inChunk = std::min(ValueChunk, inPiece - at);
        storeChunk(halfValues.data() + valueIndex(row, word), piece + at,
                   inChunk, tiled && inChunk == ValueChunk);
        if (writer)
          appendChunk(*writer, full, word, words + word, piece + at, inChunk);
      }
    }
  }
#ifdef __SSE2__
  // Order the non-temporal stores before whatever the caller does next.
  _mm_sfence();
#endif
}

Status SparseMatrix::refreshAndWritePairs(std::span<const float> master,
                                          std::span<uint32_t> buffer,
                                          PairBlockFn consume, void *callee) {
  if (Status checked = checkMaster(master); !checked)
    return checked;
  PairWriter writer{buffer, consume, callee};
  encodeRows(master.data(), 0, rows(), buffer.empty() ? nullptr : &writer);
  writer.flush();
  return Status();
}
