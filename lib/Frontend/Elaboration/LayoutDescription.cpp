//===- LayoutDescription.cpp - Run-compressed per-PE layout facts ---------===//

#include "tessera/Frontend/Elaboration/LayoutDescription.h"

#include <algorithm>
#include <tuple>

using namespace tessera::frontend;
using namespace tessera::frontend::elaboration;

std::optional<Run> RunGrid::set(int64_t x, int64_t y, unsigned value,
                                llvm::SMLoc loc) {
  std::vector<Run> &row = rows[y];
  // The first run that starts after x; the one before it may hold x.
  auto next = std::upper_bound(
      row.begin(), row.end(), x,
      [](int64_t px, const Run &run) { return px < run.begin; });
  if (next != row.begin()) {
    Run &prev = *std::prev(next);
    if (x < prev.end)
      return prev;
    // Layout loops visit PEs in order, so extending the previous run is the
    // common case.
    if (x == prev.end && prev.value == value && prev.loc == loc) {
      ++prev.end;
      if (next != row.end() && next->begin == prev.end &&
          next->value == value && next->loc == loc) {
        prev.end = next->end;
        row.erase(next);
      }
      return std::nullopt;
    }
  }
  if (next != row.end() && next->begin == x + 1 && next->value == value &&
      next->loc == loc) {
    next->begin = x;
    return std::nullopt;
  }
  row.insert(next, Run{x, x + 1, value, loc});
  return std::nullopt;
}

std::optional<unsigned> RunGrid::get(int64_t x, int64_t y) const {
  auto it = rows.find(y);
  if (it == rows.end())
    return std::nullopt;
  for (const Run &run : it->second)
    if (run.begin <= x && x < run.end)
      return run.value;
  return std::nullopt;
}

uint64_t RunGrid::getNumRuns() const {
  uint64_t n = 0;
  for (const auto &[y, row] : rows)
    n += row.size();
  return n;
}

std::vector<ValueRect> elaboration::mergeRuns(const RunGrid &grid) {
  // Rectangles still growing, by (begin, end, value) of their runs; a run
  // continues one when the rectangle ends on the previous row. Runs that
  // differ only in the call that set them merge here.
  using Key = std::tuple<int64_t, int64_t, unsigned>;
  std::map<Key, ValueRect> open;
  std::vector<ValueRect> done;
  for (const auto &[y, setRow] : grid.getRows()) {
    // Adjacent runs with one value, set by different calls, are one here.
    std::vector<Run> row;
    for (const Run &run : setRow) {
      if (!row.empty() && row.back().end == run.begin &&
          row.back().value == run.value)
        row.back().end = run.end;
      else
        row.push_back(run);
    }
    std::map<Key, ValueRect> next;
    for (const Run &run : row) {
      Key key{run.begin, run.end, run.value};
      auto it = open.find(key);
      if (it != open.end() && it->second.y + it->second.height == y) {
        ValueRect rect = it->second;
        ++rect.height;
        open.erase(it);
        next.emplace(key, rect);
        continue;
      }
      next.emplace(key, ValueRect{run.begin, y, run.end - run.begin, 1,
                                  run.value});
    }
    for (auto &[key, rect] : open)
      done.push_back(rect);
    open = std::move(next);
  }
  for (auto &[key, rect] : open)
    done.push_back(rect);
  std::sort(done.begin(), done.end(),
            [](const ValueRect &a, const ValueRect &b) {
              return std::tie(a.y, a.x) < std::tie(b.y, b.x);
            });
  return done;
}

unsigned LayoutDescription::internConfig(const ColorConfig &config) {
  auto it = std::find(configs.begin(), configs.end(), config);
  if (it != configs.end())
    return it - configs.begin();
  configs.push_back(config);
  return configs.size() - 1;
}

std::string LayoutDescription::describeColor(int64_t color) const {
  if (color >= SymbolicColorBase &&
      color - SymbolicColorBase < static_cast<int64_t>(symbolicColors.size()))
    return "color '" + symbolicColors[color - SymbolicColorBase].name + "'";
  return "color " + std::to_string(color);
}
