//===- Transpose.cpp - the column-major view of a SparseMatrix ------------===//
//
// The transposed index is the forward encoding of the transposed mask (a
// 64x64-block bit transpose), so it is written in order like the forward
// one. The permutation then walks it column by column: columns come in
// increasing order, so each row's entries come in increasing column order
// too, and the value of each is simply the row's next one.
//
//===----------------------------------------------------------------------===//

#include "tessera/MemoryX/SparseMatrix.h"

#include <new>
#include <type_traits>
#include <vector>

using namespace tessera::memoryx;

namespace {

/// The value index after `index` in its row: the next slot of the chunk,
/// or the first slot of the row's next chunk. Chunks start at multiples of
/// ValueChunk in both layouts (plain CSR has a stride of one chunk).
inline uint32_t nextValueIndex(uint32_t index, uint32_t chunkGap) {
  ++index;
  return index % ValueChunk == 0 ? index + chunkGap : index;
}

template <bool ForwardEscapes, bool TransposedEscapes>
void fillPermutation(const IndexStream &transposed, uint32_t rows,
                     const uint32_t *rowBase, uint32_t chunkStride,
                     uint32_t *permutation) {
  const uint32_t *offsets = transposed.offsets().data();
  const uint16_t *delta = transposed.deltas().data();
  uint32_t chunkGap = chunkStride - ValueChunk;
  std::vector<uint32_t> nextValue(rowBase, rowBase + rows);
  // With escapes in the forward rows, a row's next value also skips the
  // escape words before the entry: one per 65535 columns of gap.
  std::vector<uint32_t> lastCol(ForwardEscapes ? rows : 0, 0);
  for (uint32_t col = 0, cols = transposed.lineCount(); col < cols; ++col) {
    uint32_t row = 0;
    for (uint32_t k = offsets[col], end = offsets[col + 1]; k < end; ++k) {
      row += delta[k];
      if (TransposedEscapes && delta[k] == EscapeWord) {
        permutation[k] = NoValue;
        continue;
      }
      uint32_t value = nextValue[row];
      if constexpr (ForwardEscapes) {
        for (uint32_t skip = (col - lastCol[row]) / EscapeStride; skip > 0;
             --skip)
          value = nextValueIndex(value, chunkGap);
        lastCol[row] = col;
      }
      permutation[k] = value;
      nextValue[row] = nextValueIndex(value, chunkGap);
    }
  }
}

} // namespace

void SparseMatrix::buildTransposed(const Mask &mask) {
  mask.transposeInto(transposedMask);
  // The mask's shape already passed the forward encoding, so only memory
  // can fail here.
  if (!transposed.assignRows(transposedMask))
    throw std::bad_alloc();
  permutation.resize(transposed.streamLength());
  bool forwardEscapes = forward.hasEscapes();
  bool transposedEscapes = transposed.hasEscapes();
  auto fill = [&](auto forwardTag, auto transposedTag) {
    fillPermutation<decltype(forwardTag)::value,
                    decltype(transposedTag)::value>(
        transposed, rows(), rowBase.data(), chunkStride, permutation.data());
  };
  using Yes = std::true_type;
  using No = std::false_type;
  if (forwardEscapes && transposedEscapes)
    fill(Yes(), Yes());
  else if (forwardEscapes)
    fill(Yes(), No());
  else if (transposedEscapes)
    fill(No(), Yes());
  else
    fill(No(), No());
}
