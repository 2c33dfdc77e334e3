//===- Mask.cpp - which weights of a layer take part ----------------------===//

#include "tessera/MemoryX/Mask.h"

#include <algorithm>
#include <bit>

using namespace tessera::memoryx;

namespace {
/// The bits of a row's last word that lie beyond the last column.
uint64_t paddingBits(uint32_t cols) {
  unsigned used = cols % 64;
  return used == 0 ? 0 : ~uint64_t(0) << used;
}

/// Transposes a 64x64 bit block in place: bit b of word k moves to bit k of
/// word b. Each round swaps the off-diagonal halves of every 2j x 2j block:
/// the bits of word k at positions with bit j set trade places with those
/// of word k + j at positions with bit j clear.
void transposeBlock(uint64_t block[64]) {
  uint64_t lowHalves = 0x00000000FFFFFFFFull;
  for (unsigned j = 32; j != 0; j >>= 1, lowHalves ^= lowHalves << j) {
    for (unsigned k = 0; k < 64; k = (k + j + 1) & ~j) {
      uint64_t swapped = ((block[k] >> j) ^ block[k + j]) & lowHalves;
      block[k + j] ^= swapped;
      block[k] ^= swapped << j;
    }
  }
}
} // namespace

Mask::Mask(uint32_t rows, uint32_t cols, bool allSet)
    : rowCount(rows), colCount(cols), rowWordCount(wordsForRow(cols)),
      bits(size_t(rows) * wordsForRow(cols), allSet ? ~uint64_t(0) : 0) {
  if (!allSet || rowWordCount == 0)
    return;
  uint64_t padding = paddingBits(cols);
  for (uint32_t row = 0; row < rows; ++row)
    bits[(row + 1) * rowWordCount - 1] &= ~padding;
}

Expected<Mask> Mask::fromWords(uint32_t rows, uint32_t cols,
                               std::vector<uint64_t> words) {
  size_t perRow = wordsForRow(cols);
  size_t expected = size_t(rows) * perRow;
  if (words.size() != expected)
    return Error("mask of " + std::to_string(rows) + "x" +
                 std::to_string(cols) + " needs " + std::to_string(expected) +
                 " words, got " + std::to_string(words.size()));
  uint64_t padding = paddingBits(cols);
  if (padding != 0) {
    for (uint32_t row = 0; row < rows; ++row)
      if (words[(row + 1) * perRow - 1] & padding)
        return Error("mask row " + std::to_string(row) +
                     " has bits set beyond column " + std::to_string(cols - 1));
  }
  Mask mask;
  mask.rowCount = rows;
  mask.colCount = cols;
  mask.rowWordCount = perRow;
  mask.bits = std::move(words);
  return mask;
}

uint64_t Mask::count() const {
  uint64_t total = 0;
  for (uint64_t word : bits)
    total += std::popcount(word);
  return total;
}

Mask Mask::transposed() const {
  Mask result;
  transposeInto(result);
  return result;
}

void Mask::transposeInto(Mask &result) const {
  // Every word of the result is written below: no need to clear it.
  result.rowCount = colCount;
  result.colCount = rowCount;
  result.rowWordCount = wordsForRow(rowCount);
  size_t outWords = result.rowWordCount;
  result.bits.resize(size_t(colCount) * outWords);
  uint64_t block[64];
  for (size_t rowBlock = 0; rowBlock < outWords; ++rowBlock) {
    size_t firstRow = rowBlock * 64;
    size_t blockRows = std::min<size_t>(64, rowCount - firstRow);
    for (size_t word = 0; word < rowWordCount; ++word) {
      for (size_t k = 0; k < 64; ++k)
        block[k] =
            k < blockRows ? bits[(firstRow + k) * rowWordCount + word] : 0;
      transposeBlock(block);
      size_t firstCol = word * 64;
      size_t blockCols = std::min<size_t>(64, colCount - firstCol);
      for (size_t k = 0; k < blockCols; ++k)
        result.bits[(firstCol + k) * outWords + rowBlock] = block[k];
    }
  }
}
