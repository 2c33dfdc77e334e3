//===- EncodeChunks.h - round, store and pair in one step -------*- C++ -*-===//
//
// Library-internal: the inner loop of SparseMatrix::encodeRows for a row
// whose values are one contiguous run of the master. Each whole chunk of 32
// values is rounded, stored into values() and paired with its index words
// while it is in registers, with no buffer between the steps.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_MEMORYX_LIB_ENCODECHUNKS_H
#define TESSERA_MEMORYX_LIB_ENCODECHUNKS_H

#include <cstddef>
#include <cstdint>

namespace tessera::memoryx {

/// Where encodeWholeChunks puts its results.
struct ChunkTarget {
  /// Where chunk 0's values go; chunk k's lie k * chunkStride further.
  uint16_t *values;
  size_t chunkStride;
  /// Whole aligned lines: stored non-temporally (no fetch of the line).
  bool nonTemporal;
  /// Wire pairs, 32 per chunk, contiguous; null to only store the values.
  uint32_t *pairs;
};

/// Whether encodeWholeChunks can run here (F16C, and not forced off for
/// tests); otherwise encodeRows takes its portable path.
bool canEncodeWholeChunks();

/// Rounds `chunks` x 32 values from `in` to FP16 (as roundToHalf does) and
/// stores them as `target` says. The pairs take their words from `words`,
/// or, for a row holding every column (`full`), the words 0, 1, 1, ...
/// where `rowStart` says whether the first chunk begins the row.
void encodeWholeChunks(const float *in, const uint16_t *words, bool full,
                       bool rowStart, uint32_t chunks,
                       const ChunkTarget &target);

} // namespace tessera::memoryx

#endif // TESSERA_MEMORYX_LIB_ENCODECHUNKS_H
