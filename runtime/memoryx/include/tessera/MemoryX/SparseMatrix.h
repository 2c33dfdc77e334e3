//===- SparseMatrix.h - the streamed FP16 copy of a layer -------*- C++ -*-===//
//
// The copy of a layer's weights that MemoryX streams: CSR with one FP16
// value per index word of the forward IndexStream (an escape word's value is
// +0). The transposed order, column by column for the backward pass, reads
// the same values through a permutation built once per structure rebuild:
// a second IndexStream over columns (row deltas, same escapes) and, per
// word, the index of its value in values() (~0u for an escape). Values are
// never copied into a second array.
//
// Where the values lie: the j-th word of row r has its value at
// valueIndex(r, j). Rows are cut into chunks of 32 values (a cache line).
// When rows are short the chunks follow each other, which is plain CSR.
// When rows are long (256 words or more on average) the layout is tiled:
// bands of 32 rows, and within a band chunk 0 of each of its rows, then
// chunk 1 of each, and so on. A row is still read a line at a time, but a
// walk down a column then touches one 2 KiB stretch per band instead of
// one page per row, which in row-major order costs a TLB miss per value.
// Unused slots (short rows in a band) are +0 padding; the tiled layout is
// used only while the padding stays under half the values.
//
// The structure is exactly the mask: a weight the mask keeps is stored even
// when its FP16 value is zero (an exactly zero master weight, or one that
// rounds to zero), so the index streams change only when the mask does and
// a step that changes only values re-rounds them in place.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_MEMORYX_SPARSEMATRIX_H
#define TESSERA_MEMORYX_SPARSEMATRIX_H

#include "tessera/MemoryX/Expected.h"
#include "tessera/MemoryX/IndexStream.h"
#include "tessera/MemoryX/LargeArray.h"
#include "tessera/MemoryX/Mask.h"

#include <algorithm>
#include <cstdint>
#include <span>

namespace tessera::memoryx {

/// What transposedValueIndex() holds for an escape word.
inline constexpr uint32_t NoValue = ~uint32_t(0);
/// FP16 values per chunk: one 64-byte cache line.
inline constexpr uint32_t ValueChunk = 32;
/// Rows per band of the tiled layout.
inline constexpr uint32_t BandRows = 32;

class SparseMatrix {
public:
  /// Re-encodes both index streams from `mask` and rounds the kept weights
  /// of `master` (rows x cols, row-major) to FP16.
  Status rebuild(std::span<const float> master, const Mask &mask);
  /// Rounds `master` again into the existing structure.
  Status refreshValues(std::span<const float> master);

  uint32_t rows() const { return forward.lineCount(); }
  uint32_t cols() const { return forward.lineLength(); }
  size_t nonzeroCount() const { return forward.nonzeroCount(); }

  /// Forward order: row offsets and column deltas.
  const IndexStream &forwardIndex() const { return forward; }
  /// FP16 bits in the layout described above.
  std::span<const uint16_t> values() const { return halfValues.span(); }
  /// Where the value of row `row`'s `word`-th index word lies in values().
  uint32_t valueIndex(uint32_t row, uint32_t word) const {
    return rowBase[row] + word / ValueChunk * chunkStride + word % ValueChunk;
  }
  /// Whether the tiled layout is in use.
  bool isTiled() const { return chunkStride != ValueChunk; }

  /// Transposed order: column offsets and row deltas;
  /// transposedValueIndex() is parallel to its deltas.
  const IndexStream &transposedIndex() const { return transposed; }
  std::span<const uint32_t> transposedValueIndex() const {
    return permutation.span();
  }

  /// sink(row, col, halfBits) for every stored weight, row by row.
  template <typename Sink> void forEachForward(Sink &&sink) const {
    for (uint32_t row = 0, end = rows(); row < end; ++row)
      forEachInRow(row, sink);
  }
  /// sink(row, col, halfBits) for every stored weight, column by column.
  template <typename Sink> void forEachTransposed(Sink &&sink) const {
    for (uint32_t col = 0, end = cols(); col < end; ++col)
      forEachInColumn(col, sink);
  }

  template <typename Sink> void forEachInRow(uint32_t row, Sink &&sink) const {
    uint32_t begin = forward.offsets()[row];
    uint32_t count = forward.offsets()[row + 1] - begin;
    const uint16_t *delta = forward.deltas().data() + begin;
    const uint16_t *chunk = halfValues.data() + rowBase[row];
    bool escapes = forward.hasEscapes();
    uint32_t col = 0;
    for (uint32_t first = 0; first < count;
         first += ValueChunk, chunk += chunkStride) {
      uint32_t inChunk = std::min(ValueChunk, count - first);
      const uint16_t *chunkDelta = delta + first;
      if (!escapes) {
        for (uint32_t j = 0; j < inChunk; ++j) {
          col += chunkDelta[j];
          sink(row, col, chunk[j]);
        }
        continue;
      }
      for (uint32_t j = 0; j < inChunk; ++j) {
        col += chunkDelta[j];
        if (chunkDelta[j] != EscapeWord)
          sink(row, col, chunk[j]);
      }
    }
  }

  template <typename Sink>
  void forEachInColumn(uint32_t col, Sink &&sink) const {
    const uint16_t *delta = transposed.deltas().data();
    const uint32_t *valueAt = permutation.data();
    const uint16_t *value = halfValues.data();
    uint32_t begin = transposed.offsets()[col];
    uint32_t end = transposed.offsets()[col + 1];
    uint32_t row = 0;
    if (!transposed.hasEscapes()) {
      for (uint32_t k = begin; k < end; ++k) {
        row += delta[k];
        sink(row, col, value[valueAt[k]]);
      }
      return;
    }
    for (uint32_t k = begin; k < end; ++k) {
      row += delta[k];
      if (delta[k] != EscapeWord)
        sink(row, col, value[valueAt[k]]);
    }
  }

private:
  friend struct SparseMatrixAccess;
  /// Chooses the layout and places each row in the value array.
  void layOutValues();
  void buildTransposed(const Mask &mask);

  IndexStream forward;
  IndexStream transposed;
  LargeArray<uint16_t> halfValues;
  /// Where each row's chunk 0 lies, and the distance between its chunks.
  LargeArray<uint32_t> rowBase;
  uint32_t chunkStride = ValueChunk;
  LargeArray<uint32_t> permutation;
  /// Scratch for buildTransposed, kept to reuse its memory.
  Mask transposedMask;
};

} // namespace tessera::memoryx

#endif // TESSERA_MEMORYX_SPARSEMATRIX_H
