//===- HeatMap.cpp - heat maps from run records, and their layout ---------===//

#include "tessera/Viz/HeatMap.h"

#include "tessera/Support/Format.h"

#include <algorithm>

using namespace tessera;
using namespace tessera::viz;

namespace {

std::string describeRun(const RunRecord &record) {
  return " - " + std::string(getArchName(record.arch)) + " " +
         std::to_string(record.width) + "x" + std::to_string(record.height) +
         ", " + formatThousands(record.cycles) + " cycles";
}

/// The cell size the fabric gets before link maps round it.
int chooseCellSize(unsigned width, unsigned height, bool showsLinks) {
  int fit = int(MaxGridPixels / std::max(width, height));
  return std::clamp(fit, 1, showsLinks ? MaxLinkCellPixels : MaxCellPixels);
}

void setRange(HeatMap &map, const std::vector<uint64_t> &values) {
  if (values.empty())
    return;
  auto [min, max] = std::minmax_element(values.begin(), values.end());
  map.min = *min;
  map.max = *max;
}

bool canDrawArrows(const RunRecord &record) {
  return chooseCellSize(record.width, record.height, true) / 3 >=
         MinLinkBlockPixels;
}

std::string describeColors(std::optional<unsigned> color) {
  return color ? "color " + std::to_string(*color) : "all colors";
}

} // namespace

HeatMap tessera::viz::buildPEHeatMap(const RunRecord &record, PEMetric metric) {
  HeatMap map;
  map.title =
      std::string(getMetricTitle(metric)) + " per PE" + describeRun(record);
  map.fabricWidth = record.width;
  map.fabricHeight = record.height;
  map.peValues.resize(size_t(record.width) * record.height);
  std::vector<uint64_t> values;
  values.reserve(record.pes.size());
  for (const PERecord &pe : record.pes) {
    map.peValues[size_t(pe.y) * record.width + pe.x] = pe.get(metric);
    values.push_back(pe.get(metric));
  }
  setRange(map, values);
  return map;
}

HeatMap tessera::viz::buildLinkHeatMap(const RunRecord &record,
                                       std::optional<unsigned> color) {
  HeatMap map;
  map.fabricWidth = record.width;
  map.fabricHeight = record.height;
  size_t numPEs = size_t(record.width) * record.height;
  map.showsLinks = canDrawArrows(record);
  if (map.showsLinks) {
    map.title = "wavelets per link, " + describeColors(color);
    map.linkValues.resize(numPEs);
    map.hasPERecord.resize(numPEs);
    for (const PERecord &pe : record.pes)
      map.hasPERecord[size_t(pe.y) * record.width + pe.x] = true;
  } else {
    map.title = "wavelets sent per router, " + describeColors(color);
    map.peValues.resize(numPEs);
  }
  map.title += describeRun(record);
  for (const LinkRecord &link : record.links) {
    if (color && link.color != *color)
      continue;
    size_t index = size_t(link.y) * record.width + link.x;
    std::optional<uint64_t> &value =
        map.showsLinks ? map.linkValues[index][unsigned(link.direction)]
                       : map.peValues[index];
    value = value.value_or(0) + link.wavelets;
  }
  std::vector<uint64_t> values;
  if (map.showsLinks) {
    for (const auto &links : map.linkValues)
      for (const std::optional<uint64_t> &value : links)
        if (value)
          values.push_back(*value);
  } else {
    for (const std::optional<uint64_t> &value : map.peValues)
      if (value)
        values.push_back(*value);
  }
  setRange(map, values);
  return map;
}

HeatMapLayout tessera::viz::computeLayout(const HeatMap &map) {
  using L = HeatMapLayout;
  HeatMapLayout layout;
  layout.cellSize =
      chooseCellSize(map.fabricWidth, map.fabricHeight, map.showsLinks);
  if (map.showsLinks) {
    layout.linkBlock = layout.cellSize / 3;
    layout.cellSize = layout.linkBlock * 3;
  } else {
    layout.hasGridLines = layout.cellSize >= 8;
  }
  int textHeight = Image::getTextHeight(L::TextScale);
  layout.gridX = L::Margin;
  layout.gridY = L::Margin + textHeight + L::Gap;
  layout.gridWidth = layout.cellSize * int(map.fabricWidth);
  layout.gridHeight = layout.cellSize * int(map.fabricHeight);
  layout.legendX = L::Margin;
  layout.legendY = layout.gridY + layout.gridHeight + L::Gap;
  layout.labelY = layout.legendY + L::LegendHeight + 4;
  int titleWidth = Image::getTextWidth(map.title, L::TextScale);
  layout.imageWidth =
      2 * L::Margin + std::max({layout.gridWidth, L::LegendWidth, titleWidth});
  layout.imageHeight = layout.labelY + textHeight + L::Margin;
  return layout;
}

std::string tessera::viz::getMinLabel(const HeatMap &map) {
  return formatThousands(map.min);
}

std::string tessera::viz::getMaxLabel(const HeatMap &map) {
  return formatThousands(map.max);
}
