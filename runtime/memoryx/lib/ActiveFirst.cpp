//===- ActiveFirst.cpp - the order of a layer's dense arrays --------------===//
//
// The per-element loops compute an index and store (or load) once instead
// of branching on the mask bit: a random mask mispredicts every other
// branch. Whole mask words that are all set or all clear are copied.
//
//===----------------------------------------------------------------------===//

#include "tessera/MemoryX/ActiveFirst.h"

#include <algorithm>
#include <cstring>

using namespace tessera::memoryx;

uint32_t tessera::memoryx::activeCount(std::span<const uint64_t> rowWords) {
  uint32_t total = 0;
  for (uint64_t word : rowWords)
    total += std::popcount(word);
  return total;
}

void tessera::memoryx::arrangeRow(std::span<const uint64_t> rowWords,
                                  uint32_t cols, const float *columnOrder,
                                  float *activeFirst) {
  uint32_t nextActive = 0, nextInactive = activeCount(rowWords);
  for (uint32_t first = 0; first < cols; first += 64) {
    uint32_t count = std::min(64u, cols - first);
    uint64_t bits = rowWords[first / 64];
    const float *in = columnOrder + first;
    if (bits == 0) {
      std::memcpy(activeFirst + nextInactive, in, count * sizeof(float));
      nextInactive += count;
      continue;
    }
    if (count == 64 && bits == ~uint64_t(0)) {
      std::memcpy(activeFirst + nextActive, in, 64 * sizeof(float));
      nextActive += 64;
      continue;
    }
    for (uint32_t j = 0; j < count; ++j) {
      uint32_t keep = (bits >> j) & 1;
      activeFirst[keep ? nextActive : nextInactive] = in[j];
      nextActive += keep;
      nextInactive += keep ^ 1;
    }
  }
}

void tessera::memoryx::restoreColumns(std::span<const uint64_t> rowWords,
                                      uint32_t active, uint32_t firstCol,
                                      uint32_t endCol, const float *activeFirst,
                                      float *out) {
  // Ranks at firstCol: set bits before it, and clear ones.
  uint32_t nextActive = 0;
  for (uint32_t w = 0; w < firstCol / 64; ++w)
    nextActive += std::popcount(rowWords[w]);
  if (firstCol % 64)
    nextActive += std::popcount(rowWords[firstCol / 64] &
                                ((uint64_t(1) << (firstCol % 64)) - 1));
  uint32_t nextInactive = active + (firstCol - nextActive);
  for (uint32_t col = firstCol; col < endCol;) {
    uint32_t bit = col % 64;
    uint32_t count = std::min(64 - bit, endCol - col);
    uint64_t bits = rowWords[col / 64] >> bit;
    float *to = out + (col - firstCol);
    if (count == 64 && bits == 0) {
      std::memcpy(to, activeFirst + nextInactive, 64 * sizeof(float));
      nextInactive += 64;
    } else if (count == 64 && bits == ~uint64_t(0)) {
      std::memcpy(to, activeFirst + nextActive, 64 * sizeof(float));
      nextActive += 64;
    } else {
      for (uint32_t j = 0; j < count; ++j) {
        uint32_t keep = (bits >> j) & 1;
        to[j] = activeFirst[keep ? nextActive : nextInactive];
        nextActive += keep;
        nextInactive += keep ^ 1;
      }
    }
    col += count;
  }
}

void tessera::memoryx::arrangeActiveFirst(const Mask &mask,
                                          std::span<float> values,
                                          std::vector<float> &scratch) {
  uint32_t cols = mask.cols();
  for (uint32_t row = 0; row < mask.rows(); ++row) {
    std::span<const uint64_t> words = mask.rowWords(row);
    uint32_t active = activeCount(words);
    if (active == 0 || active == cols)
      continue;
    float *line = values.data() + size_t(row) * cols;
    scratch.resize(cols);
    std::memcpy(scratch.data(), line, cols * sizeof(float));
    arrangeRow(words, cols, scratch.data(), line);
  }
}

void tessera::memoryx::toColumnOrder(const Mask &mask,
                                     std::span<const float> activeFirst,
                                     std::span<float> columnOrder) {
  uint32_t cols = mask.cols();
  for (uint32_t row = 0; row < mask.rows(); ++row) {
    std::span<const uint64_t> words = mask.rowWords(row);
    size_t at = size_t(row) * cols;
    restoreColumns(words, activeCount(words), 0, cols, activeFirst.data() + at,
                   columnOrder.data() + at);
  }
}

void tessera::memoryx::reorderActiveFirst(const Mask &from, const Mask &to,
                                          std::span<float> values,
                                          std::vector<float> &scratch) {
  uint32_t cols = from.cols();
  for (uint32_t row = 0; row < from.rows(); ++row) {
    std::span<const uint64_t> before = from.rowWords(row);
    std::span<const uint64_t> after = to.rowWords(row);
    if (std::equal(before.begin(), before.end(), after.begin()))
      continue;
    float *line = values.data() + size_t(row) * cols;
    scratch.resize(cols);
    restoreColumns(before, activeCount(before), 0, cols, line, scratch.data());
    arrangeRow(after, cols, scratch.data(), line);
  }
}
