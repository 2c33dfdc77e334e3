//===- RefineTest.cpp - the detailed placement pass -----------------------===//

#include "tessera/Placement/Refine.h"

#include <catch2/catch.hpp>

#include <random>

using namespace tessera::placement;

namespace {

Shape makeShape(int64_t height, int64_t width, int64_t time = 1) {
  Shape shape;
  shape.height = height;
  shape.width = width;
  shape.time = time;
  return shape;
}

RefineKernel makeKernel(std::vector<Shape> shapes, int64_t x, int64_t y) {
  RefineKernel kernel;
  kernel.shapes = std::move(shapes);
  kernel.rect = {x, y, kernel.shapes[0].width, kernel.shapes[0].height};
  return kernel;
}

int64_t getLength(const std::vector<RefineKernel> &kernels,
                  const std::vector<std::pair<int, int>> &wires) {
  std::vector<Rect> rects;
  for (const RefineKernel &kernel : kernels)
    rects.push_back(kernel.rect);
  return getDoubledWireLength(wires, rects);
}

/// Inside the grid, disjoint, sized as their shapes say, never too slow.
void checkLegal(const std::vector<RefineKernel> &kernels,
                const RefineOptions &options) {
  for (size_t i = 0; i < kernels.size(); ++i) {
    const RefineKernel &kernel = kernels[i];
    const Rect &r = kernel.rect;
    const Shape &shape = kernel.shapes[kernel.shape];
    CHECK(shape.time <= options.maxTime);
    CHECK(r.sizeX == (kernel.rotated ? shape.height : shape.width));
    CHECK(r.sizeY == (kernel.rotated ? shape.width : shape.height));
    CHECK(r.x >= 0);
    CHECK(r.y >= 0);
    CHECK(r.x + r.sizeX <= options.gridWidth);
    CHECK(r.y + r.sizeY <= options.gridHeight);
    for (size_t j = 0; j < i; ++j) {
      const Rect &s = kernels[j].rect;
      bool apart = r.x + r.sizeX <= s.x || s.x + s.sizeX <= r.x ||
                   r.y + r.sizeY <= s.y || s.y + s.sizeY <= r.y;
      CHECK(apart);
    }
  }
}

/// `count` kernels with two or three shapes each (one of them too slow),
/// one per 12 x 12 cell of a 72 x 72 grid, and random wires.
std::vector<RefineKernel> makeRandom(std::mt19937 &random, int count,
                                     std::vector<std::pair<int, int>> &wires) {
  auto pick = [&](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  std::vector<RefineKernel> kernels;
  for (int i = 0; i < count; ++i) {
    int64_t height = pick(1, 12), width = pick(1, 12);
    std::vector<Shape> shapes = {makeShape(height, width),
                                 makeShape(std::max<int64_t>(1, height / 2),
                                           std::min<int64_t>(12, 2 * width)),
                                 makeShape(1, 1, /*time=*/2)};
    kernels.push_back(makeKernel(shapes, 12 * (i % 6), 12 * (i / 6)));
  }
  wires.clear();
  for (int w = 0; w < 2 * count; ++w)
    wires.emplace_back(pick(0, count - 1), pick(0, count - 1));
  return kernels;
}

} // namespace

TEST_CASE("refining never lengthens wires and keeps kernels legal",
          "[refine]") {
  RefineOptions options;
  options.gridWidth = options.gridHeight = 72;
  options.maxTime = 1;
  std::mt19937 random(7);
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<std::pair<int, int>> wires;
    std::vector<RefineKernel> kernels =
        makeRandom(random, 1 + trial % 36, wires);
    int64_t before = getLength(kernels, wires);
    int64_t after = refinePlacement(kernels, wires, options);
    CHECK(after <= before);
    CHECK(after == getLength(kernels, wires));
    checkLegal(kernels, options);
  }
}

TEST_CASE("refining is deterministic", "[refine]") {
  RefineOptions options;
  options.gridWidth = options.gridHeight = 72;
  options.maxTime = 1;
  std::mt19937 random(11);
  std::vector<std::pair<int, int>> wires;
  std::vector<RefineKernel> first = makeRandom(random, 30, wires);
  std::vector<RefineKernel> second = first;
  CHECK(refinePlacement(first, wires, options) ==
        refinePlacement(second, wires, options));
  for (size_t i = 0; i < first.size(); ++i) {
    CHECK(first[i].rect.x == second[i].rect.x);
    CHECK(first[i].rect.y == second[i].rect.y);
    CHECK(first[i].shape == second[i].shape);
    CHECK(first[i].rotated == second[i].rotated);
  }
}

TEST_CASE("refining moves kernels next to each other", "[refine]") {
  // Two 2 x 2 kernels in opposite corners of an empty grid end up side by
  // side: their centres 2 apart.
  RefineOptions options;
  options.gridWidth = options.gridHeight = 60;
  options.maxTime = 1;
  std::vector<RefineKernel> kernels = {makeKernel({makeShape(2, 2)}, 0, 0),
                                       makeKernel({makeShape(2, 2)}, 58, 58)};
  CHECK(refinePlacement(kernels, {{0, 1}}, options) == 2 * 2);
}

TEST_CASE("refining takes another shape or orientation where it helps",
          "[refine]") {
  // A 10 x 10 kernel fills the left half of a 20 x 10 grid, a 10 wide, 2
  // high one lies in the right half at (10, 8): centres (5, 5) and (15, 9).
  // Turned, the second stands 2 wide against the first (centres 6 apart);
  // a 1 wide shape comes 5.5 apart, unless it is slower than allowed.
  RefineOptions options;
  options.gridWidth = 20;
  options.gridHeight = 10;
  options.maxTime = 1;
  auto place = [&](std::vector<Shape> shapes) {
    std::vector<RefineKernel> kernels = {makeKernel({makeShape(10, 10)}, 0, 0),
                                         makeKernel(std::move(shapes), 10, 8)};
    CHECK(getLength(kernels, {{0, 1}}) == 2 * 14);
    int64_t after = refinePlacement(kernels, {{0, 1}}, options);
    checkLegal(kernels, options);
    return std::pair{after, kernels[1]};
  };
  auto [turned, turnedKernel] =
      place({makeShape(2, 10), makeShape(1, 1, /*time=*/2)});
  CHECK(turned == 2 * 6);
  CHECK(turnedKernel.shape == 0);
  CHECK(turnedKernel.rotated);
  auto [reshaped, reshapedKernel] =
      place({makeShape(2, 10), makeShape(8, 1), makeShape(1, 1, 2)});
  CHECK(reshaped == 11);
  CHECK(reshapedKernel.shape == 1);
  CHECK_FALSE(reshapedKernel.rotated);
}

TEST_CASE("refining swaps kernels that cannot move", "[refine]") {
  // Three 10 x 10 kernels fill a 30 x 10 grid; only the first and the last
  // are wired, so trading the middle one for either puts them side by side.
  RefineOptions options;
  options.gridWidth = 30;
  options.gridHeight = 10;
  options.maxTime = 1;
  std::vector<RefineKernel> kernels = {makeKernel({makeShape(10, 10)}, 0, 0),
                                       makeKernel({makeShape(10, 10)}, 10, 0),
                                       makeKernel({makeShape(10, 10)}, 20, 0)};
  CHECK(refinePlacement(kernels, {{0, 2}}, options) == 2 * 10);
  // Either end may trade with the middle one.
  CHECK(kernels[1].rect.x != 10);
  checkLegal(kernels, options);
}
