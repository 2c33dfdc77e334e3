//===- PERange.cpp - a strided rectangular range of PEs -------------------===//

#include "tessera/Dialect/Fabric/IR/PERange.h"

#include <algorithm>

using namespace tessera::fabric;

namespace {

/// The smallest value in both progressions a, a + s, ... <= aLast and
/// b, b + t, ... <= bLast.
std::optional<int64_t> firstCommon(int64_t a, int64_t s, int64_t aLast,
                                   int64_t b, int64_t t, int64_t bLast) {
  // Walk the progression with the larger step; the other congruence repeats
  // after at most `smaller step` of its elements.
  if (s < t) {
    std::swap(a, b);
    std::swap(s, t);
    std::swap(aLast, bLast);
  }
  int64_t low = std::max(a, b);
  int64_t high = std::min(aLast, bLast);
  if (low > high)
    return std::nullopt;
  int64_t value = a + (low - a + s - 1) / s * s;
  for (int64_t tries = 0; tries < t && value <= high; ++tries, value += s)
    if ((value - b) % t == 0)
      return value;
  return std::nullopt;
}

} // namespace

bool PERange::contains(int64_t px, int64_t py) const {
  return px >= x && px <= lastX() && (px - x) % stepX == 0 && py >= y &&
         py <= lastY() && (py - y) % stepY == 0;
}

std::optional<std::pair<int64_t, int64_t>>
PERange::firstCommonPE(const PERange &other) const {
  std::optional<int64_t> column =
      firstCommon(x, stepX, lastX(), other.x, other.stepX, other.lastX());
  if (!column)
    return std::nullopt;
  std::optional<int64_t> row =
      firstCommon(y, stepY, lastY(), other.y, other.stepY, other.lastY());
  if (!row)
    return std::nullopt;
  return std::make_pair(*column, *row);
}
