//===- HeatMap.h - per-PE and per-link heat maps ----------------*- C++ -*-===//
//
// A HeatMap is what a picture shows, computed from a run record: one value
// per PE, or one value per link drawn as an arrow out of the PE on the side
// the wavelets leave through. HeatMapLayout places it in pixels; the SVG and
// PNG renderers draw the same layout, so the two formats match.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_VIZ_HEATMAP_H
#define TESSERA_VIZ_HEATMAP_H

#include "tessera/Viz/Image.h"
#include "tessera/Viz/RunRecord.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::viz {

/// Widest and tallest grid a heat map draws, in pixels; a PE gets at least
/// one pixel, so larger fabrics exceed it.
constexpr int MaxGridPixels = 2000;
/// The largest cell of a PE, for small fabrics; link maps draw 3 x 3 blocks
/// in a cell and get larger ones.
constexpr int MaxCellPixels = 24;
constexpr int MaxLinkCellPixels = 36;
/// Link arrows need 3 x 3 blocks of at least this many pixels; smaller cells
/// show each router's total instead.
constexpr int MinLinkBlockPixels = 2;

struct HeatMap {
  std::string title;
  unsigned fabricWidth = 0, fabricHeight = 0;
  /// True: `linkValues` per PE, by Direction. False: `peValues`.
  bool showsLinks = false;
  /// Indexed by y * fabricWidth + x; nullopt where nothing was recorded.
  std::vector<std::optional<uint64_t>> peValues;
  std::vector<std::array<std::optional<uint64_t>, NumDirections>> linkValues;
  /// Link maps: which PEs have a PE record (their core is drawn grey).
  std::vector<bool> hasPERecord;
  /// Range of the recorded values; both 0 when there are none.
  uint64_t min = 0, max = 0;
};

/// `metric` of every PE with a record.
HeatMap buildPEHeatMap(const RunRecord &record, PEMetric metric);

/// Wavelets per link, of `color` or summed over all colors. When the fabric
/// is too large for arrows, each PE shows the total its router sent.
HeatMap buildLinkHeatMap(const RunRecord &record,
                         std::optional<unsigned> color);

/// Where everything goes, in pixels from the top-left corner.
struct HeatMapLayout {
  static constexpr int Margin = 8;
  static constexpr int TextScale = 2;
  static constexpr int Gap = 8;
  static constexpr int LegendWidth = 256;
  static constexpr int LegendHeight = 12;

  int cellSize = 1;
  /// Cells of at least 8 pixels leave their last row and column blank, a
  /// grid line between PEs.
  bool hasGridLines = false;
  /// Side of the 3 x 3 blocks of a link cell; 0 when not drawing links.
  int linkBlock = 0;
  int gridX = 0, gridY = 0, gridWidth = 0, gridHeight = 0;
  int legendX = 0, legendY = 0;
  int labelY = 0;
  int imageWidth = 0, imageHeight = 0;
};

HeatMapLayout computeLayout(const HeatMap &map);

/// "1,234" for the legend's two ends.
std::string getMinLabel(const HeatMap &map);
std::string getMaxLabel(const HeatMap &map);

/// The picture as SVG text.
std::string renderSVG(const HeatMap &map);

/// The picture as pixels (encodePNG writes them).
Image renderImage(const HeatMap &map);

} // namespace tessera::viz

#endif // TESSERA_VIZ_HEATMAP_H
