//===- HeatMapSVG.cpp - heat maps as SVG ----------------------------------===//
//
// Small fabrics get one element per PE and per link, with a tooltip naming
// it; large ones get no tooltips and equal neighbours in a row merged, which
// keeps a whole wafer to a few megabytes.
//
//===----------------------------------------------------------------------===//

#include "HeatMapPainter.h"

#include "tessera/Support/Format.h"
#include "tessera/Viz/ColorScale.h"

using namespace tessera;
using namespace tessera::viz;

namespace {

/// Fabrics with at most this many PEs get tooltips.
constexpr size_t MaxPEsWithTooltips = 4096;

std::string escapeXML(std::string_view text) {
  std::string escaped;
  for (char character : text) {
    switch (character) {
    case '&':
      escaped += "&amp;";
      break;
    case '<':
      escaped += "&lt;";
      break;
    case '>':
      escaped += "&gt;";
      break;
    case '"':
      escaped += "&quot;";
      break;
    default:
      escaped += character;
    }
  }
  return escaped;
}

/// Half pixels print as "12.5".
std::string formatHalves(int twice) {
  std::string text = std::to_string(twice / 2);
  return twice % 2 ? text + ".5" : text;
}

std::string describeShape(const GridShape &shape) {
  std::string text = "PE (" + std::to_string(shape.peX) + ", " +
                     std::to_string(shape.peY) + ")";
  if (shape.link)
    text += " " + std::string(getDirectionName(*shape.link));
  text += ": ";
  if (shape.value)
    text += formatThousands(*shape.value);
  else
    text += shape.link ? "no wavelets" : "no record";
  return text;
}

class SVGCanvas : public GridCanvas {
public:
  SVGCanvas(std::string &out, bool withTooltips)
      : out(out), withTooltips(withTooltips) {}
  ~SVGCanvas() override { flush(); }

  void drawSquare(const GridShape &shape) override {
    if (withTooltips) {
      out += "<rect x=\"" + std::to_string(shape.x) + "\" y=\"" +
             std::to_string(shape.y) + "\" width=\"" +
             std::to_string(shape.size) + "\" height=\"" +
             std::to_string(shape.size) + "\" fill=\"" +
             formatHexColor(shape.color) + "\"><title>" +
             escapeXML(describeShape(shape)) + "</title></rect>\n";
      return;
    }
    if (pending && pending->y == shape.y && pending->color == shape.color &&
        pending->size == shape.size && pendingEnd == shape.x) {
      pendingEnd += shape.size;
      return;
    }
    flush();
    pending = shape;
    pendingEnd = shape.x + shape.size;
  }

  void drawArrow(const GridShape &shape) override {
    flush();
    // Corners of the triangle, in half pixels: base corners, then the tip.
    int x = 2 * shape.x, y = 2 * shape.y, s = 2 * shape.size;
    int points[3][2];
    switch (*shape.link) {
    case Direction::North:
      points[0][0] = x, points[0][1] = y + s, points[1][0] = x + s,
      points[1][1] = y + s, points[2][0] = x + s / 2, points[2][1] = y;
      break;
    case Direction::South:
      points[0][0] = x, points[0][1] = y, points[1][0] = x + s,
      points[1][1] = y, points[2][0] = x + s / 2, points[2][1] = y + s;
      break;
    case Direction::West:
      points[0][0] = x + s, points[0][1] = y, points[1][0] = x + s,
      points[1][1] = y + s, points[2][0] = x, points[2][1] = y + s / 2;
      break;
    default:
      points[0][0] = x, points[0][1] = y, points[1][0] = x,
      points[1][1] = y + s, points[2][0] = x + s, points[2][1] = y + s / 2;
      break;
    }
    out += "<polygon points=\"";
    for (int i = 0; i < 3; ++i)
      out += (i ? " " : "") + formatHalves(points[i][0]) + "," +
             formatHalves(points[i][1]);
    out += "\" fill=\"" + formatHexColor(shape.color) + "\"";
    if (withTooltips)
      out +=
          "><title>" + escapeXML(describeShape(shape)) + "</title></polygon>\n";
    else
      out += "/>\n";
  }

private:
  void flush() {
    if (!pending)
      return;
    out += "<rect x=\"" + std::to_string(pending->x) + "\" y=\"" +
           std::to_string(pending->y) + "\" width=\"" +
           std::to_string(pendingEnd - pending->x) + "\" height=\"" +
           std::to_string(pending->size) + "\" fill=\"" +
           formatHexColor(pending->color) + "\"/>\n";
    pending.reset();
  }

  std::string &out;
  bool withTooltips;
  std::optional<GridShape> pending;
  int pendingEnd = 0;
};

/// Text whose top is at `top`, 14 pixels high like the PNG's.
std::string text(int x, int top, std::string_view content,
                 const char *anchor = nullptr) {
  std::string element = "<text x=\"" + std::to_string(x) + "\" y=\"" +
                        std::to_string(top + 12) + "\"";
  if (anchor)
    element += " text-anchor=\"" + std::string(anchor) + "\"";
  return element + ">" + escapeXML(content) + "</text>\n";
}

} // namespace

std::string tessera::viz::renderSVG(const HeatMap &map) {
  using L = HeatMapLayout;
  HeatMapLayout layout = computeLayout(map);
  std::string width = std::to_string(layout.imageWidth);
  std::string height = std::to_string(layout.imageHeight);
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    width + "\" height=\"" + height + "\" viewBox=\"0 0 " +
                    width + " " + height +
                    "\" font-family=\"monospace\" font-size=\"14\">\n";
  out += "<rect width=\"" + width + "\" height=\"" + height + "\" fill=\"" +
         formatHexColor(colors::Background) + "\"/>\n";
  out += text(L::Margin, L::Margin, map.title);
  out += "<g shape-rendering=\"crispEdges\">\n";
  {
    SVGCanvas canvas(out, size_t(map.fabricWidth) * map.fabricHeight <=
                              MaxPEsWithTooltips);
    paintGrid(map, layout, canvas);
  }
  out += "</g>\n";
  // The scale is linear between its five stops, so a gradient through them
  // shows exactly the PNG's 256 columns.
  out += "<defs><linearGradient id=\"scale\">";
  for (unsigned stop = 0; stop < NumScaleStops; ++stop)
    out += "<stop offset=\"" +
           std::to_string(stop * 100 / (NumScaleStops - 1)) +
           "%\" stop-color=\"" + formatHexColor(getScaleStop(stop)) + "\"/>";
  out += "</linearGradient></defs>\n";
  out += "<rect x=\"" + std::to_string(layout.legendX) + "\" y=\"" +
         std::to_string(layout.legendY) + "\" width=\"" +
         std::to_string(L::LegendWidth) + "\" height=\"" +
         std::to_string(L::LegendHeight) + "\" fill=\"url(#scale)\"/>\n";
  out += text(layout.legendX, layout.labelY, getMinLabel(map));
  out += text(layout.legendX + L::LegendWidth, layout.labelY, getMaxLabel(map),
              "end");
  out += "</svg>\n";
  return out;
}
