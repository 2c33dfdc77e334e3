//===- HeatMapTest.cpp - heat maps, their layout and their SVG ------------===//

#include "TestSupport.h"

#include "tessera/Viz/ColorScale.h"
#include "tessera/Viz/HeatMap.h"

#include <catch2/catch.hpp>

using namespace tessera::viz;

namespace {

size_t count(const std::string &text, const std::string &part) {
  size_t found = 0;
  for (size_t at = text.find(part); at != std::string::npos;
       at = text.find(part, at + 1))
    ++found;
  return found;
}

} // namespace

TEST_CASE("a PE heat map holds the metric of every PE with a record",
          "[heatmap]") {
  HeatMap map =
      buildPEHeatMap(viztest::makeSmallRecord(), PEMetric::StallCycles);
  CHECK(map.title == "stall cycles per PE - wse2 3x2, 100 cycles");
  CHECK(!map.showsLinks);
  REQUIRE(map.peValues.size() == 6);
  CHECK(map.peValues[0] == 2u);
  CHECK(map.peValues[2] == 40u);
  CHECK(!map.peValues[3]);
  CHECK(map.peValues[4] == 0u);
  CHECK(map.min == 0);
  CHECK(map.max == 40);
  CHECK(getMinLabel(map) == "0");
  CHECK(getMaxLabel(map) == "40");
}

TEST_CASE("a link heat map sums colors or keeps one", "[heatmap]") {
  RunRecord record = viztest::makeSmallRecord();
  HeatMap all = buildLinkHeatMap(record, std::nullopt);
  CHECK(all.title == "wavelets per link, all colors - wse2 3x2, 100 cycles");
  REQUIRE(all.showsLinks);
  CHECK(all.linkValues[1][unsigned(Direction::East)] == 12u);
  CHECK(all.linkValues[1][unsigned(Direction::South)] == 2u);
  CHECK(!all.linkValues[1][unsigned(Direction::West)]);
  CHECK(all.linkValues[2][unsigned(Direction::Ramp)] == 8u);
  CHECK(all.min == 2);
  CHECK(all.max == 12);
  CHECK(all.hasPERecord[4]);
  CHECK(!all.hasPERecord[3]);

  HeatMap three = buildLinkHeatMap(record, 3u);
  CHECK(three.title == "wavelets per link, color 3 - wse2 3x2, 100 cycles");
  CHECK(three.linkValues[1][unsigned(Direction::East)] == 4u);
  CHECK(!three.linkValues[0][unsigned(Direction::East)]);
  CHECK(three.min == 2);
  CHECK(three.max == 4);
}

TEST_CASE("small fabrics get large cells", "[heatmap]") {
  HeatMap map =
      buildPEHeatMap(viztest::makeSmallRecord(), PEMetric::BusyCycles);
  HeatMapLayout layout = computeLayout(map);
  CHECK(layout.cellSize == 24);
  CHECK(layout.hasGridLines);
  CHECK(layout.gridX == 8);
  CHECK(layout.gridY == 30);
  CHECK(layout.gridWidth == 72);
  CHECK(layout.legendY == 86);
  CHECK(layout.labelY == 102);
  // The title is the widest part: 41 characters of 12 pixels.
  CHECK(layout.imageWidth == 8 + 41 * 12 + 8);
  CHECK(layout.imageHeight == 124);

  HeatMapLayout links =
      computeLayout(buildLinkHeatMap(viztest::makeSmallRecord(), std::nullopt));
  CHECK(links.cellSize == 36);
  CHECK(links.linkBlock == 12);
  CHECK(!links.hasGridLines);
}

TEST_CASE("a wafer-sized fabric fits in 2000 pixels", "[heatmap]") {
  RunRecord record;
  record.width = 750;
  record.height = 994;
  record.cycles = 10;
  record.links = {{3, 4, Direction::East, 1, 5},
                  {3, 4, Direction::North, 2, 6},
                  {5, 0, Direction::Ramp, 2, 1}};
  HeatMap map = buildLinkHeatMap(record, std::nullopt);
  // Cells of 2 pixels leave no room for arrows: each router's total.
  CHECK(!map.showsLinks);
  CHECK(map.title ==
        "wavelets sent per router, all colors - wse2 750x994, 10 cycles");
  CHECK(map.peValues[4 * 750 + 3] == 11u);
  HeatMapLayout layout = computeLayout(map);
  CHECK(layout.cellSize == 2);
  CHECK(layout.gridWidth == 1500);
  CHECK(layout.gridHeight == 1988);
  CHECK(layout.imageWidth <= 2016);

  Image image = renderImage(map);
  CHECK(image.getWidth() == unsigned(layout.imageWidth));
  CHECK(image.getPixel(8 + 3 * 2, 30 + 4 * 2) == getScaleColor(255));
  CHECK(image.getPixel(8 + 5 * 2 + 1, 30 + 1) == getScaleColor(0));
  CHECK(image.getPixel(8, 30) == colors::NoRecord);

  // Equal neighbours in a row merge: one rectangle per row of empty PEs,
  // and in the two rows with links, the PE and the other half of the row.
  std::string svg = renderSVG(map);
  CHECK(count(svg, "<rect ") == 2 + 994 + 2 * 2);
  CHECK(count(svg, "<title>") == 0);
}

TEST_CASE("a PE heat map's SVG", "[heatmap]") {
  HeatMap map =
      buildPEHeatMap(viztest::makeSmallRecord(), PEMetric::BusyCycles);
  CHECK(
      renderSVG(map) ==
      R"svg(<svg xmlns="http://www.w3.org/2000/svg" width="508" height="124" viewBox="0 0 508 124" font-family="monospace" font-size="14">
<rect width="508" height="124" fill="#ffffff"/>
<text x="8" y="20">busy cycles per PE - wse2 3x2, 100 cycles</text>
<g shape-rendering="crispEdges">
<rect x="8" y="30" width="23" height="23" fill="#181c48"><title>PE (0, 0): 30</title></rect>
<rect x="32" y="30" width="23" height="23" fill="#23968b"><title>PE (1, 0): 60</title></rect>
<rect x="56" y="30" width="23" height="23" fill="#fde73c"><title>PE (2, 0): 90</title></rect>
<rect x="8" y="54" width="23" height="23" fill="#e0e0e0"><title>PE (0, 1): no record</title></rect>
<rect x="32" y="54" width="23" height="23" fill="#265696"><title>PE (1, 1): 45</title></rect>
<rect x="56" y="54" width="23" height="23" fill="#e0e0e0"><title>PE (2, 1): no record</title></rect>
</g>
<defs><linearGradient id="scale"><stop offset="0%" stop-color="#181c48"/><stop offset="25%" stop-color="#265696"/><stop offset="50%" stop-color="#22968c"/><stop offset="75%" stop-color="#96c846"/><stop offset="100%" stop-color="#fde73c"/></linearGradient></defs>
<rect x="8" y="86" width="256" height="12" fill="url(#scale)"/>
<text x="8" y="114">30</text>
<text x="264" y="114" text-anchor="end">90</text>
</svg>
)svg");
}

TEST_CASE("a link heat map's SVG draws arrows with tooltips", "[heatmap]") {
  RunRecord record = viztest::makeSmallRecord();
  record.height = 1;
  record.pes.pop_back();
  record.links = {{0, 0, Direction::East, 0, 8},
                  {1, 0, Direction::West, 0, 2},
                  {2, 0, Direction::Ramp, 0, 4}};
  std::string svg = renderSVG(buildLinkHeatMap(record, 0u));
  std::string grid =
      svg.substr(svg.find("<g "), svg.find("</g>") - svg.find("<g "));
  // Cells of 36 pixels: blocks of 12 from (8, 30).
  CHECK(grid == R"svg(<g shape-rendering="crispEdges">
<rect x="20" y="42" width="12" height="12" fill="#969696"><title>PE (0, 0) ramp: no wavelets</title></rect>
<polygon points="32,42 32,54 44,48" fill="#fde73c"><title>PE (0, 0) east: 8</title></polygon>
<rect x="56" y="42" width="12" height="12" fill="#969696"><title>PE (1, 0) ramp: no wavelets</title></rect>
<polygon points="56,42 56,54 44,48" fill="#181c48"><title>PE (1, 0) west: 2</title></polygon>
<rect x="92" y="42" width="12" height="12" fill="#256b93"><title>PE (2, 0) ramp: 4</title></rect>
)svg");
}
