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
// Streaming: the visitors (forEach*) decode (row, col, value) for a sink
// inlined per entry; the wire streams (stream*) write 4-byte (word, value)
// pairs into a caller's buffer, handed over a block at a time.
//
// The structure is exactly the mask: a weight the mask keeps is stored even
// when its FP16 value is zero (an exactly zero master weight, or one that
// rounds to zero), so the index streams change only when the mask does and
// a step that changes only values re-rounds them in place.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_MEMORYX_SPARSEMATRIX_H
#define TESSERA_MEMORYX_SPARSEMATRIX_H

#include "tessera/MemoryX/ActiveFirst.h"
#include "tessera/MemoryX/Expected.h"
#include "tessera/MemoryX/IndexStream.h"
#include "tessera/MemoryX/LargeArray.h"
#include "tessera/MemoryX/Mask.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <type_traits>

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
  /// of `master` (rows x cols, row-major, each row in `order`) to FP16.
  Status rebuild(std::span<const float> master, const Mask &mask,
                 MasterOrder order = MasterOrder::Columns);
  /// Rounds `master` again into the existing structure. In active-first
  /// order a row's values are read as one contiguous run.
  Status refreshValues(std::span<const float> master,
                       MasterOrder order = MasterOrder::Columns);
  /// The same for rows [firstRow, endRow) only.
  Status refreshRows(std::span<const float> master, uint32_t firstRow,
                     uint32_t endRow, MasterOrder order = MasterOrder::Columns);

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
    for (uint32_t row = 0, end = rows(); row < end; ++row) {
      if (row % BandRows == 0)
        warmBand(row);
      forEachInRow(row, sink);
    }
  }
  /// sink(row, col, halfBits) for every stored weight, column by column.
  template <typename Sink> void forEachTransposed(Sink &&sink) const {
    for (uint32_t col = 0, end = cols(); col < end; ++col)
      forEachInColumn(col, sink);
  }

  /// The forward stream as the wafer receives it: one 32-bit pair per
  /// index word, escapes included, with the word in the low 16 bits and its
  /// FP16 value (+0 for an escape) in the high 16 bits. The pairs of rows
  /// [firstRow, endRow) are written into `buffer` in stream order and
  /// handed over whenever it is full and at the end, as
  /// consume(std::span<const uint32_t> pairs, size_t firstWord), where
  /// firstWord is the position of pairs[0] in forwardIndex().deltas(); the
  /// row offsets there say where rows end. An empty buffer streams nothing.
  /// In the tiled layout a band is read ahead (in memory order) when its
  /// first row is streamed; see warmBand.
  template <typename Consume>
  void streamForward(std::span<uint32_t> buffer, Consume &&consume) const {
    streamForwardRows(0, rows(), buffer, consume);
  }
  template <typename Consume>
  void streamForwardRows(uint32_t firstRow, uint32_t endRow,
                         std::span<uint32_t> buffer, Consume &&consume) const {
    writeForwardPairs(firstRow, endRow, buffer, blockCallback<Consume>(),
                      calleeOf(consume));
  }

  /// The transposed stream in the same wire format: columns
  /// [firstCol, endCol) of transposedIndex(), each word with the value that
  /// transposedValueIndex() names (+0 for an escape); firstWord is a
  /// position in transposedIndex().deltas().
  template <typename Consume>
  void streamTransposed(std::span<uint32_t> buffer, Consume &&consume) const {
    streamTransposedColumns(0, cols(), buffer, consume);
  }
  template <typename Consume>
  void streamTransposedColumns(uint32_t firstCol, uint32_t endCol,
                               std::span<uint32_t> buffer,
                               Consume &&consume) const {
    writeTransposedPairs(firstCol, endCol, buffer, blockCallback<Consume>(),
                         calleeOf(consume));
  }

  /// Encoding plus streaming in one pass: the same values as
  /// refreshValues(master) and the same blocks as streamForward(buffer,
  /// consume) after it, but each piece of a row is paired with its words
  /// straight after rounding, and the values are stored without being read
  /// back (see EncodeStream.cpp). An empty buffer only refreshes.
  template <typename Consume>
  Status refreshAndStreamForward(std::span<const float> master,
                                 std::span<uint32_t> buffer, Consume &&consume,
                                 MasterOrder order = MasterOrder::Columns) {
    return refreshAndWritePairs(master, buffer, blockCallback<Consume>(),
                                calleeOf(consume), order);
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
  using PairBlockFn = void (*)(void *callee, std::span<const uint32_t> pairs,
                               size_t firstWord);
  /// The consumer is called through one function pointer per block, never
  /// per pair, so that the pairing loops stay out of line and vectorised.
  template <typename Consume> static PairBlockFn blockCallback() {
    return [](void *callee, std::span<const uint32_t> pairs, size_t first) {
      (*static_cast<std::remove_reference_t<Consume> *>(callee))(pairs, first);
    };
  }
  template <typename Consume> static void *calleeOf(Consume &consume) {
    return const_cast<void *>(static_cast<const void *>(&consume));
  }
  struct PairWriter;
  void writeForwardPairs(uint32_t firstRow, uint32_t endRow,
                         std::span<uint32_t> buffer, PairBlockFn consume,
                         void *callee) const;
  void writeTransposedPairs(uint32_t firstCol, uint32_t endCol,
                            std::span<uint32_t> buffer, PairBlockFn consume,
                            void *callee) const;
  void appendForwardPairs(uint32_t firstRow, uint32_t endRow,
                          PairWriter &writer) const;
  Status refreshAndWritePairs(std::span<const float> master,
                              std::span<uint32_t> buffer, PairBlockFn consume,
                              void *callee, MasterOrder order);
  Status checkMaster(std::span<const float> master) const;
  /// Rounds rows [firstRow, endRow) into values() and, given a writer,
  /// streams them too.
  void encodeRows(const float *master, MasterOrder order, uint32_t firstRow,
                  uint32_t endRow, PairWriter *writer);
  /// Chooses the layout and places each row in the value array.
  void layOutValues();
  void buildTransposed(const Mask &mask);
  /// In the tiled layout, reads the band holding `row` once in memory
  /// order, so that a row-by-row walk over it then hits the cache; see
  /// SparseMatrix.cpp.
  void warmBand(uint32_t row) const;

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
