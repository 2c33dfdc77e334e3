//===- FabricLayout.cpp - per-PE programs and router configs --------------===//

#include "tessera/Emulator/FabricLayout.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace tessera::emulator {

namespace {

/// A color's configuration, the key under which configs are deduplicated.
struct ColorConfig {
  uint8_t color;
  pe::RouterConfig config;
  bool operator==(const ColorConfig &) const = default;
};

uint64_t packPosition(const std::optional<pe::SwitchPosition> &position) {
  if (!position)
    return 0;
  return 0x10 | uint64_t(position->rxSide) << 3 |
         static_cast<uint64_t>(position->port);
}

uint64_t mix(uint64_t v) {
  // The finaliser of splitmix64: spreads every input bit over the word.
  v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9ULL;
  v = (v ^ (v >> 27)) * 0x94d049bb133111ebULL;
  return v ^ (v >> 31);
}

struct ColorConfigHash {
  size_t operator()(const ColorConfig &key) const {
    const pe::RouterConfig &c = key.config;
    const pe::Filter &f = c.filter;
    uint64_t a =
        uint64_t(key.color) | uint64_t(c.rx) << 8 | uint64_t(c.tx) << 16 |
        packPosition(c.positions[0]) << 24 |
        packPosition(c.positions[1]) << 29 |
        packPosition(c.positions[2]) << 34 | uint64_t(c.currentPosition) << 39 |
        uint64_t(c.ringMode) << 41 | uint64_t(c.teardown) << 42 |
        uint64_t(c.colorSwapX) << 43 | uint64_t(c.colorSwapY) << 44 |
        static_cast<uint64_t>(c.popMode) << 45 |
        static_cast<uint64_t>(f.kind) << 47 | uint64_t(f.countData) << 49 |
        uint64_t(f.countControl) << 50 | uint64_t(f.fastMode) << 51;
    uint64_t b = uint64_t(f.min) | uint64_t(f.max) << 16 |
                 uint64_t(f.initCounter) << 32 | uint64_t(f.maxCounter) << 48;
    return mix(a ^ mix(b ^ uint64_t(f.limit1) << 7));
  }
};

} // namespace

uint32_t FabricLayout::ColorGrid::cellAt(size_t index) const {
  switch (cellBytes) {
  case 1:
    return cells8[index];
  case 2:
    return cells16[index];
  default:
    return cells32[index];
  }
}

FabricLayout::FabricLayout(const pe::FabricFile &fabric)
    : width(fabric.rectWidth), height(fabric.rectHeight),
      numPrograms(std::min(fabric.programs.size(), MaxPrograms)) {
  placePrograms(fabric);
  listPEs();
  placeRoutes(fabric);
}

void FabricLayout::placePrograms(const pe::FabricFile &fabric) {
  programGrid.assign(size_t(width) * height, NoProgram);
  for (const pe::ProgramRun &run : fabric.placement)
    if (run.program < numPrograms && fits(run.x, run.y, run.length))
      std::fill_n(programGrid.begin() + indexOf(run.x, run.y), run.length,
                  run.program);
}

void FabricLayout::listPEs() {
  // A counting sort of the grid: scanning it row by row leaves each
  // program's PEs sorted by (y, x) whatever order the runs came in.
  pesBegin.assign(numPrograms + 1, 0);
  for (uint16_t program : programGrid)
    if (program != NoProgram)
      ++pesBegin[program + 1];
  std::partial_sum(pesBegin.begin(), pesBegin.end(), pesBegin.begin());
  pes.resize(pesBegin.back());
  std::vector<size_t> next(pesBegin.begin(), pesBegin.end() - 1);
  for (uint16_t y = 0; y < height; ++y)
    for (uint16_t x = 0; x < width; ++x)
      if (uint16_t program = programGrid[indexOf(x, y)]; program != NoProgram)
        pes[next[program]++] = {x, y};
}

void FabricLayout::placeRoutes(const pe::FabricFile &fabric) {
  // First number each color's distinct configs, so that the cell width of
  // its grid is known before the grid is allocated.
  std::array<std::vector<pe::RouterConfig>, 256> configsOf;
  std::unordered_map<ColorConfig, uint32_t, ColorConfigHash> numbers;
  std::vector<uint32_t> cellOfRun(fabric.routes.size(), 0);
  for (size_t i = 0; i < fabric.routes.size(); ++i) {
    const pe::RouteRun &run = fabric.routes[i];
    if (!fits(run.x, run.y, run.length))
      continue;
    std::vector<pe::RouterConfig> &configs = configsOf[run.color];
    auto [it, added] =
        numbers.try_emplace({run.color, run.config}, uint32_t(configs.size()));
    if (added)
      configs.push_back(run.config);
    cellOfRun[i] = it->second + 1;
  }

  size_t numPEs = size_t(width) * height;
  for (unsigned color = 0; color < configsOf.size(); ++color) {
    if (configsOf[color].empty())
      continue;
    gridOfColor[color] = int16_t(colorGrids.size());
    ColorGrid &grid = colorGrids.emplace_back();
    grid.color = uint8_t(color);
    grid.configs = std::move(configsOf[color]);
    size_t numbersNeeded = grid.configs.size() + 1;
    if (numbersNeeded <= 0x100) {
      grid.cellBytes = 1;
      grid.cells8.assign(numPEs, 0);
    } else if (numbersNeeded <= 0x10000) {
      grid.cellBytes = 2;
      grid.cells16.assign(numPEs, 0);
    } else {
      grid.cellBytes = 4;
      grid.cells32.assign(numPEs, 0);
    }
  }

  for (size_t i = 0; i < fabric.routes.size(); ++i) {
    if (!cellOfRun[i])
      continue;
    const pe::RouteRun &run = fabric.routes[i];
    ColorGrid &grid = colorGrids[gridOfColor[run.color]];
    size_t at = indexOf(run.x, run.y);
    switch (grid.cellBytes) {
    case 1:
      std::fill_n(grid.cells8.begin() + at, run.length, uint8_t(cellOfRun[i]));
      break;
    case 2:
      std::fill_n(grid.cells16.begin() + at, run.length,
                  uint16_t(cellOfRun[i]));
      break;
    default:
      std::fill_n(grid.cells32.begin() + at, run.length, cellOfRun[i]);
    }
  }
}

std::optional<uint16_t> FabricLayout::programAt(unsigned x, unsigned y) const {
  if (!contains(x, y))
    return std::nullopt;
  uint16_t program = programGrid[indexOf(x, y)];
  if (program == NoProgram)
    return std::nullopt;
  return program;
}

std::span<const PECoord> FabricLayout::getPEsOf(size_t program) const {
  if (program >= numPrograms)
    return {};
  return std::span<const PECoord>(pes).subspan(
      pesBegin[program], pesBegin[program + 1] - pesBegin[program]);
}

const pe::RouterConfig *FabricLayout::routerAt(unsigned x, unsigned y,
                                               unsigned color) const {
  if (!contains(x, y) || color >= gridOfColor.size() || gridOfColor[color] < 0)
    return nullptr;
  const ColorGrid &grid = colorGrids[gridOfColor[color]];
  uint32_t cell = grid.cellAt(indexOf(x, y));
  return cell ? &grid.configs[cell - 1] : nullptr;
}

std::vector<uint8_t> FabricLayout::colorsAt(unsigned x, unsigned y) const {
  std::vector<uint8_t> colors;
  if (!contains(x, y))
    return colors;
  size_t at = indexOf(x, y);
  for (const ColorGrid &grid : colorGrids)
    if (grid.cellAt(at))
      colors.push_back(grid.color);
  return colors;
}

std::vector<uint8_t> FabricLayout::getRoutedColors() const {
  std::vector<uint8_t> colors;
  for (const ColorGrid &grid : colorGrids)
    colors.push_back(grid.color);
  return colors;
}

std::span<const pe::RouterConfig>
FabricLayout::getConfigsOf(unsigned color) const {
  if (color >= gridOfColor.size() || gridOfColor[color] < 0)
    return {};
  return colorGrids[gridOfColor[color]].configs;
}

size_t FabricLayout::getMemoryBytes() const {
  size_t bytes = programGrid.size() * sizeof(uint16_t) +
                 pes.size() * sizeof(PECoord) +
                 pesBegin.size() * sizeof(size_t);
  for (const ColorGrid &grid : colorGrids)
    bytes += grid.cells8.size() + grid.cells16.size() * sizeof(uint16_t) +
             grid.cells32.size() * sizeof(uint32_t) +
             grid.configs.size() * sizeof(pe::RouterConfig);
  return bytes;
}

size_t FabricLayout::countConfigured(unsigned firstRow, unsigned endRow) const {
  endRow = std::min<unsigned>(endRow, height);
  if (firstRow >= endRow)
    return 0;
  size_t begin = indexOf(0, firstRow), end = indexOf(0, endRow);
  size_t count = 0;
  for (const ColorGrid &grid : colorGrids)
    for (size_t at = begin; at < end; ++at)
      count += grid.cellAt(at) != 0;
  return count;
}

} // namespace tessera::emulator
