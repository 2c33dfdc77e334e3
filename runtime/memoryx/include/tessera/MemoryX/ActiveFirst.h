//===- ActiveFirst.h - the order of a layer's dense arrays ------*- C++ -*-===//
//
// A LayerStore keeps its master weights and optimizer state "active first":
// each row holds the weights that its weight-mask row keeps, in column
// order, followed by the other weights of the row, in column order. A
// refresh of the FP16 copy then reads one contiguous run per row holding
// exactly the active weights, instead of picking them out of the whole row.
//
// The order is a function of the mask row alone, so no permutation is
// stored: in a row with n active weights, position p < n holds the column
// of the p-th set bit, and position p >= n the column of the (p - n)-th
// clear bit. Rows with every weight active, or none, are in column order.
//
// Column order is what the public accessors and the checkpoint show; these
// functions convert between the two.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_MEMORYX_ACTIVEFIRST_H
#define TESSERA_MEMORYX_ACTIVEFIRST_H

#include "tessera/MemoryX/Mask.h"

#include <bit>
#include <cstdint>
#include <span>
#include <vector>

namespace tessera::memoryx {

/// How a dense rows x cols array handed to SparseMatrix is ordered: plain
/// row-major, or each row active first for the mask of the structure.
enum class MasterOrder { Columns, ActiveFirst };

/// Set bits in a mask row.
uint32_t activeCount(std::span<const uint64_t> rowWords);

/// Writes one row of `cols` values, given in column order, in active-first
/// order. The arrays must not overlap.
void arrangeRow(std::span<const uint64_t> rowWords, uint32_t cols,
                const float *columnOrder, float *activeFirst);

/// The inverse for columns [firstCol, endCol) of a row: out[c - firstCol]
/// is the value of column c. `active` is activeCount(rowWords).
void restoreColumns(std::span<const uint64_t> rowWords, uint32_t active,
                    uint32_t firstCol, uint32_t endCol,
                    const float *activeFirst, float *out);

/// A whole rows x cols array from column order to the mask's active-first
/// order, in place. `scratch` is grown to one row the first time a row
/// needs it (rows all active or all inactive do not), and may be reused.
void arrangeActiveFirst(const Mask &mask, std::span<float> values,
                        std::vector<float> &scratch);

/// A whole array from `mask`'s active-first order to column order.
void toColumnOrder(const Mask &mask, std::span<const float> activeFirst,
                   std::span<float> columnOrder);

/// An array in `from`'s active-first order rearranged, in place, into
/// `to`'s (same shape). Rows whose mask words are equal are left alone;
/// `scratch` is grown as for arrangeActiveFirst, so reordering back with
/// the same scratch needs no allocation.
void reorderActiveFirst(const Mask &from, const Mask &to,
                        std::span<float> values, std::vector<float> &scratch);

/// Where columns lie in one active-first row, asked in increasing column
/// order: each call only counts the mask words since the previous one.
class RowPositions {
public:
  RowPositions(std::span<const uint64_t> rowWords, uint32_t active)
      : words(rowWords.data()), active(active) {}

  /// The position of column `col`, which is not below the previous one's.
  uint32_t positionOf(uint32_t col) {
    uint32_t word = col / 64;
    for (; counted < word; ++counted)
      setBefore += std::popcount(words[counted]);
    uint64_t bits = words[word];
    uint32_t bit = col % 64;
    uint32_t rank =
        setBefore + std::popcount(bits & ((uint64_t(1) << bit) - 1));
    return (bits >> bit) & 1 ? rank : active + (col - rank);
  }

private:
  const uint64_t *words;
  uint32_t active;
  /// Mask words counted so far, and their set bits.
  uint32_t counted = 0;
  uint32_t setBefore = 0;
};

} // namespace tessera::memoryx

#endif // TESSERA_MEMORYX_ACTIVEFIRST_H
