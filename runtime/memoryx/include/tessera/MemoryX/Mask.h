//===- Mask.h - which weights of a layer take part --------------*- C++ -*-===//
//
// One bit per weight of a rows x cols layer, row-major. Each row starts on a
// 64-bit word and its padding bits are zero, so a row is a whole number of
// words: the encoders walk words, and the checkpoint stores them as they
// are.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_MEMORYX_MASK_H
#define TESSERA_MEMORYX_MASK_H

#include "tessera/MemoryX/Expected.h"

#include <cstdint>
#include <span>
#include <vector>

namespace tessera::memoryx {

class Mask {
public:
  Mask() = default;
  /// A rows x cols mask with every bit equal to `allSet`.
  Mask(uint32_t rows, uint32_t cols, bool allSet = false);

  /// A mask from row-padded words (wordsForRow(cols) per row); fails if the
  /// count is wrong or a padding bit is set.
  static Expected<Mask> fromWords(uint32_t rows, uint32_t cols,
                                  std::vector<uint64_t> words);

  static size_t wordsForRow(uint32_t cols) { return (size_t(cols) + 63) / 64; }

  uint32_t rows() const { return rowCount; }
  uint32_t cols() const { return colCount; }
  size_t wordsPerRow() const { return rowWordCount; }

  bool test(uint32_t row, uint32_t col) const {
    return (bits[row * rowWordCount + col / 64] >> (col % 64)) & 1;
  }
  void set(uint32_t row, uint32_t col, bool value = true) {
    uint64_t &word = bits[row * rowWordCount + col / 64];
    uint64_t bit = uint64_t(1) << (col % 64);
    word = value ? word | bit : word & ~bit;
  }

  /// How many bits are set.
  uint64_t count() const;

  /// The cols x rows mask with bit (c, r) equal to this mask's (r, c).
  Mask transposed() const;
  /// The same into `result`, reusing its memory.
  void transposeInto(Mask &result) const;

  std::span<const uint64_t> words() const { return bits; }
  std::span<const uint64_t> rowWords(uint32_t row) const {
    return std::span<const uint64_t>(bits).subspan(row * rowWordCount,
                                                   rowWordCount);
  }

  friend bool operator==(const Mask &, const Mask &) = default;

private:
  uint32_t rowCount = 0;
  uint32_t colCount = 0;
  size_t rowWordCount = 0;
  std::vector<uint64_t> bits;
};

} // namespace tessera::memoryx

#endif // TESSERA_MEMORYX_MASK_H
