//===- HeatMapImage.cpp - heat maps as pixels -----------------------------===//

#include "HeatMapPainter.h"

#include "tessera/Viz/ColorScale.h"

using namespace tessera::viz;

namespace {

class ImageCanvas : public GridCanvas {
public:
  explicit ImageCanvas(Image &image) : image(image) {}

  void drawSquare(const GridShape &shape) override {
    image.fillRect(shape.x, shape.y, shape.size, shape.size, shape.color);
  }

  void drawArrow(const GridShape &shape) override {
    image.fillArrow(shape.x, shape.y, shape.size, unsigned(*shape.link),
                    shape.color);
  }

private:
  Image &image;
};

} // namespace

Image tessera::viz::renderImage(const HeatMap &map) {
  using L = HeatMapLayout;
  HeatMapLayout layout = computeLayout(map);
  Image image(unsigned(layout.imageWidth), unsigned(layout.imageHeight),
              colors::Background);
  image.drawText(L::Margin, L::Margin, map.title, L::TextScale, colors::Text);
  ImageCanvas canvas(image);
  paintGrid(map, layout, canvas);
  // One column per entry of the scale.
  for (int i = 0; i < L::LegendWidth; ++i)
    image.fillRect(layout.legendX + i, layout.legendY, 1, L::LegendHeight,
                   getScaleColor(unsigned(i)));
  image.drawText(layout.legendX, layout.labelY, getMinLabel(map), L::TextScale,
                 colors::Text);
  std::string maxLabel = getMaxLabel(map);
  image.drawText(layout.legendX + L::LegendWidth -
                     Image::getTextWidth(maxLabel, L::TextScale) + L::TextScale,
                 layout.labelY, maxLabel, L::TextScale, colors::Text);
  return image;
}
