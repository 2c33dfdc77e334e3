//===- Variants.h - the rectangles a kernel can take ------------*- C++ -*-===//
//
// For a target time per sample δT, a kernel can take many rectangles; only
// the non-dominated ones matter (no other is both lower and narrower). The
// enumerator walks h', w' and the largest c' (which fix the height), and
// for each picks the smallest k' of every convolution that meets δT and the
// memory limit (which fixes the width). Values of h', w', c' that change no
// rounded-up quotient are skipped: the next smaller value is as fast, needs
// as little memory and is lower.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLACEMENT_VARIANTS_H
#define TESSERA_PLACEMENT_VARIANTS_H

#include "tessera/Placement/CostModel.h"

#include <cstdint>
#include <vector>

namespace tessera::placement {

/// A non-dominated rectangle (R0 orientation) and what produces it.
struct Shape {
  int64_t height = 0, width = 0;
  int64_t h = 1, w = 1, maxC = 1; ///< h', w' and the bound on every c'.
  int64_t time = 0;               ///< The slowest convolution's time.
  int64_t area() const { return height * width; }
};

class VariantEnumerator {
public:
  /// Shapes are limited to sides of at most `maxSide` tiles.
  VariantEnumerator(const Node &node, int64_t memLimit, int64_t maxSide);

  /// The non-dominated shapes with time <= deltaT and memory <= the limit,
  /// by increasing height (and so decreasing width). Empty if none.
  std::vector<Shape> getShapes(int64_t deltaT) const;

  /// The parameters behind a shape returned by getShapes(deltaT).
  ExecParams getParams(const Shape &shape, int64_t deltaT) const;

  /// The time with every parameter 1: no variant is slower, so at this δT
  /// every variant that fits the memory is allowed.
  int64_t getSlowestTime() const { return slowestTime; }

private:
  /// The smallest k' of convolution `i` for h', w', c' at deltaT, or 0.
  int64_t getSmallestK(size_t i, int64_t h, int64_t w, int64_t c,
                       int64_t deltaT) const;
  /// c' of convolution `i` under the bound maxC: the smallest value with the
  /// same quotient C/c'.
  int64_t getConvC(size_t i, int64_t maxC) const;

  std::vector<ConvShape> convs;
  int64_t memLimit, maxSide, slowestTime = 0;
  std::vector<int64_t> hValues, wValues, cValues;
};

} // namespace tessera::placement

#endif // TESSERA_PLACEMENT_VARIANTS_H
