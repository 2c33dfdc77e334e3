//===- PEOccupancy.cpp - first overlap among PE ranges --------------------===//

#include "tessera/Dialect/Fabric/IR/PEOccupancy.h"

using namespace tessera::fabric;

// Below this many ranges a pairwise scan is cheaper than mapping the
// rectangle; above this many PEs the map would cost too much memory.
static constexpr size_t kMinRangesToMap = 32;
static constexpr int64_t kMaxMappedPEs = int64_t(1) << 26;

template <typename Fn>
static void forEachPE(const PERange &range, Fn fn) {
  for (int64_t py = range.y; py <= range.lastY(); py += range.stepY)
    for (int64_t px = range.x; px <= range.lastX(); px += range.stepX)
      fn(px, py);
}

void PEOccupancy::mark(const PERange &range, uint32_t owner) {
  forEachPE(range, [&](int64_t px, int64_t py) {
    owners[py * width + px] = owner;
  });
}

std::optional<size_t> PEOccupancy::add(const PERange &range) {
  if (owners.empty() && ranges.size() >= kMinRangesToMap &&
      width * height <= kMaxMappedPEs &&
      ranges.size() < UINT32_MAX) {
    owners.assign(width * height, 0);
    for (size_t i = 0; i < ranges.size(); ++i)
      mark(ranges[i], i + 1);
  }
  if (owners.empty()) {
    for (size_t i = 0; i < ranges.size(); ++i)
      if (range.firstCommonPE(ranges[i]))
        return i;
  } else {
    // Earlier ranges never overlap, so each PE has at most one owner and
    // the smallest owner is the one a pairwise scan meets first.
    uint32_t first = 0;
    forEachPE(range, [&](int64_t px, int64_t py) {
      uint32_t owner = owners[py * width + px];
      if (owner && (!first || owner < first))
        first = owner;
    });
    if (first)
      return first - 1;
    mark(range, ranges.size() + 1);
  }
  ranges.push_back(range);
  return std::nullopt;
}
