//===- Variants.cpp - the rectangles a kernel can take --------------------===//

#include "tessera/Placement/Variants.h"

#include <algorithm>

namespace tessera::placement {
namespace {

/// The values of a parameter p in [1, limit] at which at least one of the
/// quotients ceil(n / p), n in `numerators`, drops: any other value does no
/// better than the one before it and makes the rectangle larger.
std::vector<int64_t> getUsefulValues(const std::vector<int64_t> &numerators,
                                     int64_t limit) {
  std::vector<int64_t> values;
  for (int64_t p = 1; p <= limit; ++p) {
    bool drops = p == 1;
    for (int64_t n : numerators)
      drops = drops || ceilDiv(n, p) < ceilDiv(n, p - 1);
    if (drops)
      values.push_back(p);
  }
  return values;
}

} // namespace

VariantEnumerator::VariantEnumerator(const Node &node, int64_t memLimit,
                                     int64_t maxSide)
    : convs(getKernelConvs(node)), memLimit(memLimit), maxSide(maxSide) {
  std::vector<int64_t> hNumerators, wNumerators, cNumerators;
  int64_t largestH = 1, largestW = 1, largestC = 1;
  for (const ConvShape &conv : convs) {
    hNumerators.push_back(conv.H);
    hNumerators.push_back(conv.H + conv.R - 1);
    wNumerators.push_back(conv.W);
    wNumerators.push_back(conv.W + conv.S - 1);
    cNumerators.push_back(conv.C);
    largestH = std::max(largestH, conv.H + conv.R - 1);
    largestW = std::max(largestW, conv.W + conv.S - 1);
    largestC = std::max(largestC, conv.C);
    slowestTime = std::max(slowestTime, getConvCost(conv, 1, 1, 1, 1).time);
  }
  // Every height is h'w'(c'+1) with c' >= 1.
  int64_t side = maxSide / 2;
  hValues = getUsefulValues(hNumerators, std::min(largestH, side));
  wValues = getUsefulValues(wNumerators, std::min(largestW, side));
  cValues = getUsefulValues(cNumerators, std::min(largestC, maxSide));
}

int64_t VariantEnumerator::getConvC(size_t i, int64_t maxC) const {
  int64_t c = std::min(maxC, convs[i].C);
  return ceilDiv(convs[i].C, ceilDiv(convs[i].C, c));
}

int64_t VariantEnumerator::getSmallestK(size_t i, int64_t h, int64_t w,
                                        int64_t c, int64_t deltaT) const {
  const ConvShape &conv = convs[i];
  // time = ceil(work * q / T^2) <= deltaT  <=>  work * q <= deltaT * T^2,
  // where q = ceil(K / k') and work is the rest of the product.
  int64_t work = getConvWork(conv, h, w, c, conv.K);
  int64_t budget = saturatingMultiply(deltaT, conv.T * conv.T);
  int64_t q = std::min(budget / work, conv.K);
  // memory = q * (ceil(C/c') R S + ceil((W+S-1)/w') ceil((H+R-1)/h')).
  int64_t perOutput =
      saturatingAdd(saturatingMultiply(ceilDiv(conv.C, c), conv.R * conv.S),
                    saturatingMultiply(ceilDiv(conv.W + conv.S - 1, w),
                                       ceilDiv(conv.H + conv.R - 1, h)));
  q = std::min(q, memLimit / perOutput);
  if (q < 1)
    return 0;
  return ceilDiv(conv.K, q);
}

std::vector<Shape> VariantEnumerator::getShapes(int64_t deltaT) const {
  // The narrowest candidate of each height.
  std::vector<Shape> narrowest(static_cast<size_t>(maxSide) + 1);
  for (int64_t h : hValues) {
    for (int64_t w : wValues) {
      int64_t hw = h * w;
      if (2 * hw > maxSide)
        break;
      for (int64_t maxC : cValues) {
        if (hw * (maxC + 1) > maxSide)
          break;
        int64_t width = 0, largestC = 0;
        for (size_t i = 0; i < convs.size() && width <= maxSide; ++i) {
          int64_t c = getConvC(i, maxC);
          int64_t k = getSmallestK(i, h, w, c, deltaT);
          width = k == 0 ? maxSide + 1 : width + 3 * k;
          largestC = std::max(largestC, c);
        }
        if (width > maxSide)
          continue;
        int64_t height = hw * (largestC + 1);
        Shape &best = narrowest[height];
        if (best.width == 0 || width < best.width)
          best = Shape{height, width, h, w, maxC, 0};
      }
    }
  }
  std::vector<Shape> front;
  for (const Shape &shape : narrowest)
    if (shape.width != 0 && (front.empty() || shape.width < front.back().width))
      front.push_back(shape);
  for (Shape &shape : front)
    for (size_t i = 0; i < convs.size(); ++i) {
      int64_t c = getConvC(i, shape.maxC);
      int64_t k = getSmallestK(i, shape.h, shape.w, c, deltaT);
      shape.time = std::max(shape.time,
                            getConvCost(convs[i], shape.h, shape.w, c, k).time);
    }
  return front;
}

ExecParams VariantEnumerator::getParams(const Shape &shape,
                                        int64_t deltaT) const {
  ExecParams params;
  params.h = shape.h;
  params.w = shape.w;
  for (size_t i = 0; i < convs.size(); ++i) {
    int64_t c = getConvC(i, shape.maxC);
    params.convs.push_back({c, getSmallestK(i, shape.h, shape.w, c, deltaT)});
  }
  return params;
}

} // namespace tessera::placement
