//===- WireStream.cpp - the forward stream in wire format -----------------===//
//
// Pairs each forward index word with its value into the caller's buffer.
// A row's values are contiguous within a chunk of 32, so the pairing runs a
// chunk at a time, with SSE2 for whole chunks; the consumer is called once
// per full buffer.
//
//===----------------------------------------------------------------------===//

#include "tessera/MemoryX/SparseMatrix.h"

#include "PairUp.h"

#include <algorithm>

using namespace tessera::memoryx;

void SparseMatrix::appendForwardPairs(uint32_t firstRow, uint32_t endRow,
                                      PairWriter &writer) const {
  const uint32_t *offsets = forward.offsets().data();
  const uint16_t *delta = forward.deltas().data();
  const uint16_t *value = halfValues.data();
  uint32_t colCount = cols();
  for (uint32_t row = firstRow; row < endRow; ++row) {
    if (row % BandRows == 0)
      warmBand(row);
    uint32_t begin = offsets[row], count = offsets[row + 1] - begin;
    bool full = count == colCount;
    // A chunk at a time: its values are contiguous in both layouts.
    for (uint32_t word = 0; word < count; word += ValueChunk)
      appendChunk(writer, full, word, delta + begin + word,
                  value + valueIndex(row, word),
                  std::min(ValueChunk, count - word));
  }
}

void SparseMatrix::writeForwardPairs(uint32_t firstRow, uint32_t endRow,
                                     std::span<uint32_t> buffer,
                                     PairBlockFn consume, void *callee) const {
  endRow = std::min(endRow, rows());
  if (buffer.empty() || firstRow >= endRow)
    return;
  PairWriter writer{buffer, consume, callee};
  writer.blockFirst = forward.offsets()[firstRow];
  appendForwardPairs(firstRow, endRow, writer);
  writer.flush();
}

void SparseMatrix::writeTransposedPairs(uint32_t firstCol, uint32_t endCol,
                                        std::span<uint32_t> buffer,
                                        PairBlockFn consume,
                                        void *callee) const {
  endCol = std::min(endCol, cols());
  if (buffer.empty() || firstCol >= endCol)
    return;
  const uint32_t *offsets = transposed.offsets().data();
  const uint16_t *delta = transposed.deltas().data();
  const uint32_t *valueAt = permutation.data();
  const uint16_t *value = halfValues.data();
  bool escapes = transposed.hasEscapes();
  PairWriter writer{buffer, consume, callee};
  writer.blockFirst = offsets[firstCol];
  uint32_t *out = buffer.data();
  // The columns are one run of the stream, cut only by the buffer.
  for (size_t k = offsets[firstCol], end = offsets[endCol]; k < end;) {
    size_t segment = std::min(end - k, buffer.size() - writer.filled);
    uint32_t *to = out + writer.filled;
    if (!escapes) {
      for (size_t j = 0; j < segment; ++j)
        to[j] = uint32_t(delta[k + j]) | uint32_t(value[valueAt[k + j]]) << 16;
    } else {
      // An escape has no value to read (its index is NoValue).
      for (size_t j = 0; j < segment; ++j)
        to[j] = delta[k + j] == EscapeWord
                    ? uint32_t(EscapeWord)
                    : uint32_t(delta[k + j]) | uint32_t(value[valueAt[k + j]])
                                                   << 16;
    }
    k += segment;
    writer.filled += segment;
    if (writer.filled == buffer.size())
      writer.flush();
  }
  writer.flush();
}
