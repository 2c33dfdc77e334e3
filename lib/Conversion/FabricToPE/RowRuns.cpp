//===- RowRuns.cpp - strided PE ranges as sorted row runs -----------------===//

#include "RowRuns.h"

#include <algorithm>

using namespace tessera::fabric;

void RowRunBuilder::add(const PERange &range, uint32_t value) {
  for (int64_t y = range.y; y <= range.lastY(); y += range.stepY) {
    if (range.stepX == 1) {
      segments.push_back(
          {uint32_t(range.x), uint32_t(y), uint32_t(range.width), value});
      continue;
    }
    for (int64_t x = range.x; x <= range.lastX(); x += range.stepX)
      segments.push_back({uint32_t(x), uint32_t(y), 1, value});
  }
}

std::optional<std::pair<uint32_t, uint32_t>>
RowRunBuilder::build(llvm::function_ref<bool(uint32_t, uint32_t)> sameValue,
                     std::vector<RowRun> &runs) {
  std::sort(segments.begin(), segments.end(),
            [](const RowRun &a, const RowRun &b) {
              return a.y != b.y ? a.y < b.y : a.x < b.x;
            });
  runs.clear();
  // Segments are sorted by their first PE, so the first one that starts
  // inside an earlier one of its row starts at the first shared PE.
  uint64_t rowEnd = 0;
  for (const RowRun &segment : segments) {
    bool sameRow = !runs.empty() && runs.back().y == segment.y;
    if (sameRow && segment.x < rowEnd)
      return std::make_pair(segment.x, segment.y);
    rowEnd = uint64_t(segment.x) + segment.length;
    RowRun *last = runs.empty() ? nullptr : &runs.back();
    if (sameRow && uint64_t(last->x) + last->length == segment.x &&
        sameValue(last->value, segment.value)) {
      last->length += segment.length;
      continue;
    }
    runs.push_back(segment);
  }
  return std::nullopt;
}
