//===- SparseMatrix.cpp - the streamed FP16 copy of a layer ---------------===//

#include "tessera/MemoryX/SparseMatrix.h"
#include "tessera/MemoryX/HalfConversion.h"

#include <algorithm>
#include <new>
#include <string>
#include <vector>

using namespace tessera::memoryx;

static_assert(ValueChunk == HalfChunk, "a chunk is what the rounding writes");

namespace {

/// Rows this long on average (in index words) are tiled; shorter ones share
/// pages anyway.
constexpr size_t TileFromRowLength = 256;

std::string shapeText(uint32_t rows, uint32_t cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

Error sizeMismatch(size_t masterSize, uint32_t rows, uint32_t cols,
                   const char *what) {
  return Error("master has " + std::to_string(masterSize) + " weights, " +
               what + " is " + shapeText(rows, cols) + " (" +
               std::to_string(size_t(rows) * cols) + " weights)");
}

Error outOfMemory(uint32_t rows, uint32_t cols) {
  return Error("out of memory building the sparse copy of a " +
               shapeText(rows, cols) + " layer");
}

uint32_t chunksFor(uint32_t words) {
  return (words + ValueChunk - 1) / ValueChunk;
}

} // namespace

Status SparseMatrix::rebuild(std::span<const float> master, const Mask &mask) {
  if (master.size() != size_t(mask.rows()) * mask.cols())
    return sizeMismatch(master.size(), mask.rows(), mask.cols(), "the mask");
  if (Status encoded = forward.assignRows(mask); !encoded) {
    *this = SparseMatrix();
    return encoded;
  }
  try {
    layOutValues();
    buildTransposed(mask);
  } catch (const std::bad_alloc &) {
    *this = SparseMatrix();
    return outOfMemory(mask.rows(), mask.cols());
  }
  return refreshValues(master);
}

void SparseMatrix::layOutValues() {
  uint32_t rowCount = rows();
  const uint32_t *offsets = forward.offsets().data();
  size_t packedSize = forward.streamLength();
  rowBase.resize(rowCount);

  // The tiled size: each band is as wide as its longest row.
  size_t tiledSize = 0;
  bool tile = rowCount > 0 && packedSize / rowCount >= TileFromRowLength;
  for (uint32_t band = 0; tile && band * size_t(BandRows) < rowCount; ++band) {
    uint32_t first = band * BandRows;
    uint32_t last = std::min(first + BandRows, rowCount);
    uint32_t chunks = 0;
    for (uint32_t row = first; row < last; ++row)
      chunks = std::max(chunks, chunksFor(offsets[row + 1] - offsets[row]));
    for (uint32_t row = first; row < last; ++row)
      rowBase[row] =
          static_cast<uint32_t>(tiledSize + (row - first) * ValueChunk);
    tiledSize += size_t(chunks) * BandRows * ValueChunk;
  }
  if (tile && tiledSize <= packedSize + packedSize / 2) {
    chunkStride = BandRows * ValueChunk;
    // Zero the whole array: padding is scattered through every band.
    halfValues.resize(tiledSize);
    halfValues.fill(0);
    return;
  }
  chunkStride = ValueChunk;
  for (uint32_t row = 0; row < rowCount; ++row)
    rowBase[row] = offsets[row];
  halfValues.resize(packedSize);
}

Status SparseMatrix::refreshValues(std::span<const float> master) {
  uint32_t rowCount = rows(), colCount = cols();
  if (master.size() != size_t(rowCount) * colCount)
    return sizeMismatch(master.size(), rowCount, colCount, "the sparse matrix");
  const uint32_t *offsets = forward.offsets().data();
  const uint16_t *delta = forward.deltas().data();
  bool escapes = forward.hasEscapes();

  // Rounds `count` words of `row` from word `first` on, whose column cursor
  // is `col`, into `out`. A row with a word per column is every column in
  // order and is rounded straight from the master; other rows are gathered
  // first so that the conversion still runs over a contiguous array.
  std::vector<float> gathered;
  auto roundPiece = [&](uint32_t row, uint32_t first, uint32_t count,
                        uint32_t &col, uint16_t *out) {
    const float *masterRow = master.data() + size_t(row) * colCount;
    uint32_t rowLength = offsets[row + 1] - offsets[row];
    if (rowLength == colCount) {
      roundToHalf(masterRow + first, out, count);
      return;
    }
    const uint16_t *words = delta + offsets[row] + first;
    if (!escapes) {
      for (uint32_t j = 0; j < count; ++j) {
        col += words[j];
        gathered[j] = masterRow[col];
      }
    } else {
      // An escape's cursor never passes the entry that follows it, so the
      // read stays inside the row; its value is then replaced by +0.
      for (uint32_t j = 0; j < count; ++j) {
        col += words[j];
        gathered[j] = words[j] == EscapeWord ? 0.0f : masterRow[col];
      }
    }
    roundToHalf(gathered.data(), out, count);
  };

  if (!isTiled()) {
    try {
      uint32_t longest = 0;
      for (uint32_t row = 0; row < rowCount; ++row)
        longest = std::max(longest, offsets[row + 1] - offsets[row]);
      gathered.resize(longest);
    } catch (const std::bad_alloc &) {
      return outOfMemory(rowCount, colCount);
    }
    for (uint32_t row = 0; row < rowCount; ++row) {
      uint32_t col = 0;
      roundPiece(row, 0, offsets[row + 1] - offsets[row], col,
                 halfValues.data() + rowBase[row]);
    }
    return Status();
  }

  // Tiled: a band at a time, chunk 0 of each of its rows, then chunk 1, so
  // that the values are written in the order they lie in memory.
  gathered.resize(ValueChunk);
  uint32_t nextCol[BandRows];
  for (uint32_t first = 0; first < rowCount; first += BandRows) {
    uint32_t last = std::min(first + BandRows, rowCount);
    uint32_t longest = 0;
    for (uint32_t row = first; row < last; ++row) {
      longest = std::max(longest, offsets[row + 1] - offsets[row]);
      nextCol[row - first] = 0;
    }
    for (uint32_t word = 0; word < longest; word += ValueChunk) {
      uint16_t *chunk = halfValues.data() + word / ValueChunk * chunkStride;
      for (uint32_t row = first; row < last; ++row) {
        uint32_t length = offsets[row + 1] - offsets[row];
        if (word < length)
          roundPiece(row, word, std::min(ValueChunk, length - word),
                     nextCol[row - first], chunk + rowBase[row]);
      }
    }
  }
  return Status();
}
