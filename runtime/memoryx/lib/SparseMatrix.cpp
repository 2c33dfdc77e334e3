//===- SparseMatrix.cpp - the streamed FP16 copy of a layer ---------------===//

#include "tessera/MemoryX/SparseMatrix.h"
#include "tessera/MemoryX/HalfConversion.h"

#include <algorithm>
#include <new>
#include <string>

using namespace tessera::memoryx;

static_assert(ValueChunk == HalfChunk, "a chunk is what the rounding writes");

namespace {

/// Bands larger than this are not warmed: they would not stay in cache
/// until their last row is read (this machine's L2 is 512 KiB, L3 32 MiB).
constexpr size_t WarmBandLimit = size_t(2) << 20;
/// Where warmBand leaves what it read, so that the loads are not removed
/// (a relaxed atomic that nothing reads was removed, loads and all).
volatile uint16_t warmSink;

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

Status SparseMatrix::rebuild(std::span<const float> master, const Mask &mask,
                             MasterOrder order) {
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
  return refreshValues(master, order);
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

// A row of a tiled band reads one 64-byte line every 2 KiB. On the AMD EPYC
// guest this cost 4-6 times a sequential read of the same bytes (18-27 ms
// against 3-4 ms for 32 MiB of values), while one sequential pass over the
// band first, then the row-by-row walk from cache, cost 3.7 ms in all.
void SparseMatrix::warmBand(uint32_t row) const {
  if (!isTiled())
    return;
  uint32_t first = row / BandRows * BandRows;
  size_t begin = rowBase[first];
  size_t end =
      first + BandRows < rows() ? rowBase[first + BandRows] : halfValues.size();
  if ((end - begin) * sizeof(uint16_t) > WarmBandLimit)
    return;
  // Loads, not prefetches: the prefetch instructions did not help here.
  uint16_t touched = 0;
  for (size_t i = begin; i < end; i += ValueChunk)
    touched |= halfValues[i];
  warmSink = touched;
}

Status SparseMatrix::refreshValues(std::span<const float> master,
                                   MasterOrder order) {
  return refreshRows(master, 0, rows(), order);
}

Status SparseMatrix::checkMaster(std::span<const float> master) const {
  if (master.size() != size_t(rows()) * cols())
    return sizeMismatch(master.size(), rows(), cols(), "the sparse matrix");
  return Status();
}

Status SparseMatrix::refreshRows(std::span<const float> master,
                                 uint32_t firstRow, uint32_t endRow,
                                 MasterOrder order) {
  if (Status checked = checkMaster(master); !checked)
    return checked;
  if (firstRow > endRow || endRow > rows())
    return Error("rows " + std::to_string(firstRow) + " to " +
                 std::to_string(endRow) + " are not a range of the " +
                 std::to_string(rows()) + " rows");
  encodeRows(master.data(), order, firstRow, endRow, nullptr);
  return Status();
}
