//===- EncodeStream.cpp - encoding plus streaming in one pass -------------===//
//
// refreshValues, refreshRows and refreshAndStreamForward all come here.
// A row's values are one contiguous run of the master when the row holds
// every column, or when the master is active first (a LayerStore's is);
// such a row's whole chunks are rounded, stored and paired in registers
// (EncodeChunks.cpp). Other rows, and the pieces left over, are rounded
// into a small buffer on the stack (gathered through the index words for a
// column-order master), stored from there and paired while in L1.
//
// Whole tiled chunks are aligned lines and are stored non-temporally: the
// values are written without their lines being fetched first, and the
// stream never reads them back. Per nonzero the one pass from an
// active-first master moves 4 bytes of master and 2 of index words in and
// 2 of values out, against 2 more (fetch), 2 (write-back) and 2 (read) for
// a refresh followed by a stream.
//
//===----------------------------------------------------------------------===//

#include "tessera/MemoryX/HalfConversion.h"
#include "tessera/MemoryX/SparseMatrix.h"

#include "EncodeChunks.h"
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

/// Rounds the values of `count` words of an active-first row whose stream
/// has escapes: each entry takes the next value from `next`, an escape +0.
/// Returns how many values were taken. A line never ends with an escape,
/// so next[taken] is in the row even at an escape.
inline uint32_t roundAcrossEscapes(const float *next, const uint16_t *words,
                                   uint32_t count, uint16_t *out) {
  alignas(32) float spread[PieceWords];
  uint32_t taken = 0;
  for (uint32_t j = 0; j < count; ++j) {
    bool entry = words[j] != EscapeWord;
    float value = next[taken];
    spread[j] = entry ? value : 0.0f;
    taken += entry;
  }
  roundToHalf(spread, out, count);
  return taken;
}

/// Asks for the master's run of the next row (into L2) while this one is
/// encoded: the hardware prefetcher does not jump to it on its own. At 90 %
/// sparsity, where a run is 1.6 KiB, this took the one pass from 2.3 to
/// 1.6 ms; prefetching into L1, or two rows ahead, did no better.
inline void prefetchRun(const float *run, uint32_t count) {
  const char *bytes = reinterpret_cast<const char *>(run);
  for (size_t at = 0; at < size_t(count) * sizeof(float); at += 64)
    __builtin_prefetch(bytes + at, 0, 2);
}

/// Encodes the whole chunks of a row whose values are the contiguous run
/// `in`, through encodeWholeChunks, as many at a time as the writer's
/// buffer has room for; a chunk that would straddle the buffer's end goes
/// through the stack. `rowValues` is where the row's chunk 0 lies. Returns
/// how many words were done.
template <typename Writer>
uint32_t encodeWholeChunksOfRow(const float *in, const uint16_t *words,
                                bool full, uint32_t count, uint16_t *rowValues,
                                size_t chunkStride, bool tiled,
                                Writer *writer) {
  uint32_t whole = count / ValueChunk * ValueChunk;
  for (uint32_t word = 0; word < whole;) {
    size_t chunks = (whole - word) / ValueChunk;
    ChunkTarget target{rowValues + word / ValueChunk * chunkStride, chunkStride,
                       tiled, nullptr};
    if (writer) {
      size_t room = (writer->buffer.size() - writer->filled) / ValueChunk;
      if (room == 0) {
        alignas(64) uint16_t halves[ValueChunk];
        roundToHalf(in + word, halves, ValueChunk);
        storeChunk(target.values, halves, ValueChunk, tiled);
        appendChunk(*writer, full, word, words + word, halves, ValueChunk);
        word += ValueChunk;
        continue;
      }
      chunks = std::min(chunks, room);
      target.pairs = writer->buffer.data() + writer->filled;
    }
    encodeWholeChunks(in + word, words + word, full, word == 0,
                      static_cast<uint32_t>(chunks), target);
    word += static_cast<uint32_t>(chunks) * ValueChunk;
    if (writer) {
      writer->filled += chunks * ValueChunk;
      if (writer->filled == writer->buffer.size())
        writer->flush();
    }
  }
  return whole;
}

} // namespace

void SparseMatrix::encodeRows(const float *master, MasterOrder order,
                              uint32_t firstRow, uint32_t endRow,
                              PairWriter *writer) {
  const uint32_t *offsets = forward.offsets().data();
  const uint16_t *delta = forward.deltas().data();
  uint32_t colCount = cols();
  bool activeFirst = order == MasterOrder::ActiveFirst;
  bool escapes = forward.hasEscapes();
  // Non-temporal stores need 16-byte alignment; tiled chunks are whole
  // 64-byte lines of a line-aligned array.
  bool tiled = isTiled();
  bool fused = canEncodeWholeChunks();
  alignas(64) uint16_t piece[PieceWords];
  for (uint32_t row = firstRow; row < endRow; ++row) {
    const float *masterRow = master + size_t(row) * colCount;
    uint32_t begin = offsets[row], count = offsets[row + 1] - begin;
    const uint16_t *words = delta + begin;
    bool full = count == colCount;
    // Word j's value is masterRow[j]: a full row, or the active-first run.
    bool contiguous = full || (activeFirst && !escapes);
    if (contiguous && row + 1 < endRow)
      prefetchRun(masterRow + colCount, offsets[row + 2] - offsets[row + 1]);
    uint32_t done = 0;
    if (contiguous && fused)
      done = encodeWholeChunksOfRow(masterRow, words, full, count,
                                    halfValues.data() + rowBase[row],
                                    chunkStride, tiled, writer);
    // The rest, a piece at a time through the stack. Column order: the
    // index cursor; active first: the values taken so far.
    uint32_t cursor = 0;
    for (uint32_t first = done; first < count; first += PieceWords) {
      uint32_t inPiece = std::min(PieceWords, count - first);
      if (contiguous) {
        roundToHalf(masterRow + first, piece, inPiece);
      } else if (activeFirst) {
        cursor += roundAcrossEscapes(masterRow + cursor, words + first, inPiece,
                                     piece);
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
                                          PairBlockFn consume, void *callee,
                                          MasterOrder order) {
  if (Status checked = checkMaster(master); !checked)
    return checked;
  PairWriter writer{buffer, consume, callee};
  encodeRows(master.data(), order, 0, rows(),
             buffer.empty() ? nullptr : &writer);
  writer.flush();
  return Status();
}
