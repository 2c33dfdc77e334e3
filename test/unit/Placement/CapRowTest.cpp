//===- CapRowTest.cpp - one row of full-height columns with a cap ---------===//

#include "tessera/Placement/CapRow.h"
#include "tessera/Placement/CapRowSearch.h"

#include <catch2/catch.hpp>

#include <cstdlib>

using namespace tessera::placement;

namespace {

constexpr int64_t Side = 10;

/// `count` kernels in a chain, each a 10 x 2 column or a 2 x 6 slab (either
/// rotated), so six columns are two tiles too wide for a 10 x 10 grid.
struct Chain {
  std::vector<KernelMenu> menus;
  std::vector<int> order;
  std::vector<std::pair<int, int>> wires;
};

Chain makeChain(int count) {
  Chain chain;
  for (int i = 0; i < count; ++i) {
    Shape column, slab;
    column.height = 10;
    column.width = 2;
    slab.height = 2;
    slab.width = 6;
    chain.menus.emplace_back(std::vector<Shape>{column, slab}, Side, Side);
    chain.order.push_back(i);
    if (i > 0)
      chain.wires.emplace_back(i - 1, i);
  }
  return chain;
}

/// Inside the grid, disjoint and sized as their shapes say; returns the
/// doubled wire length recomputed from the rectangles.
int64_t checkLegal(const CapRowLayout &layout, const Chain &chain) {
  std::vector<Rect> rects;
  for (size_t i = 0; i < layout.kernels.size(); ++i) {
    const RefineKernel &kernel = layout.kernels[i];
    const Rect &r = kernel.rect;
    const Shape &shape = kernel.shapes[kernel.shape];
    CHECK(r.sizeX == (kernel.rotated ? shape.height : shape.width));
    CHECK(r.sizeY == (kernel.rotated ? shape.width : shape.height));
    CHECK(r.x >= 0);
    CHECK(r.y >= 0);
    CHECK(r.x + r.sizeX <= Side);
    CHECK(r.y + r.sizeY <= Side);
    for (size_t j = 0; j < i; ++j) {
      const Rect &s = layout.kernels[j].rect;
      bool apart = r.x + r.sizeX <= s.x || s.x + s.sizeX <= r.x ||
                   r.y + r.sizeY <= s.y || s.y + s.sizeY <= r.y;
      CHECK(apart);
    }
    rects.push_back(r);
  }
  // Kernel numbers equal positions in these chains.
  return getDoubledWireLength(chain.wires, rects);
}

} // namespace

TEST_CASE("a chain that fits one row becomes adjacent columns", "[caprow]") {
  Chain chain = makeChain(5);
  std::optional<CapRowLayout> layout =
      layoutCapRow(chain.menus, chain.order, chain.wires, Side, Side);
  REQUIRE(layout);
  CHECK(checkLegal(*layout, chain) == layout->doubledLength);
  // Four wires between neighbouring columns two tiles wide: 2 tiles each.
  CHECK(layout->doubledLength == 4 * 2 * 2);
  for (size_t i = 0; i < 5; ++i)
    CHECK(layout->kernels[i].rect.x == int64_t(2 * i));
}

TEST_CASE("a row two tiles too wide lifts an end kernel into a cap",
          "[caprow]") {
  Chain chain = makeChain(6);
  std::optional<CapRowLayout> layout =
      layoutCapRow(chain.menus, chain.order, chain.wires, Side, Side);
  REQUIRE(layout);
  CHECK(checkLegal(*layout, chain) == layout->doubledLength);
  // Exactly one kernel, the first or the last, lies flat (2 x 6).
  int flat = 0;
  for (size_t i = 0; i < 6; ++i) {
    const Rect &r = layout->kernels[i].rect;
    if (r.sizeY == 2) {
      ++flat;
      CHECK(r.sizeX == 6);
      CHECK((i == 0 || i == 5));
    } else {
      CHECK(r.sizeX == 2);
    }
  }
  CHECK(flat == 1);
}

TEST_CASE("a row four tiles too wide lifts two end kernels into a tower",
          "[caprow]") {
  // Seven columns are 14 wide; two slabs stacked flat (6 x 4) over three
  // columns lowered to their 6-tall shape leave 10.
  Chain chain = makeChain(7);
  std::optional<CapRowLayout> layout =
      layoutCapRow(chain.menus, chain.order, chain.wires, Side, Side);
  REQUIRE(layout);
  CHECK(checkLegal(*layout, chain) == layout->doubledLength);
  std::vector<size_t> flat;
  for (size_t i = 0; i < 7; ++i)
    if (layout->kernels[i].rect.sizeY == 2)
      flat.push_back(i);
  REQUIRE(flat.size() == 2);
  // The two flat kernels are the order's first two or last two, stacked
  // one on the other.
  CHECK(flat[1] == flat[0] + 1);
  CHECK((flat[0] == 0 || flat[1] == 6));
  const Rect &a = layout->kernels[flat[0]].rect;
  const Rect &b = layout->kernels[flat[1]].rect;
  CHECK(a.x == b.x);
  CHECK(std::llabs(a.y - b.y) == 2);
  // With at most one kernel per tower it does not fit.
  CHECK_FALSE(layoutCapRow(chain.menus, chain.order, chain.wires, Side, Side,
                           /*maxTower=*/1));
}

TEST_CASE("a capped row reports when nothing fits", "[caprow]") {
  // Eight kernels: a tower takes at most five kernels into six columns of
  // width, the rest need two each, so every row is at least 12 wide.
  Chain chain = makeChain(8);
  CHECK_FALSE(layoutCapRow(chain.menus, chain.order, chain.wires, Side, Side));
  CHECK_FALSE(layoutCapRow({}, {}, {}, Side, Side));
}

TEST_CASE("a capped row follows the order, not the kernel numbers",
          "[caprow]") {
  Chain chain = makeChain(5);
  chain.order = {4, 3, 2, 1, 0};
  std::optional<CapRowLayout> layout =
      layoutCapRow(chain.menus, chain.order, chain.wires, Side, Side);
  REQUIRE(layout);
  // Position p holds kernel 4 - p; neighbours in the chain stay adjacent.
  CHECK(layout->doubledLength == 4 * 2 * 2);
  CHECK(layout->kernels[0].rect.x == 0);
  CHECK(layout->kernels[4].rect.x == 8);
}

TEST_CASE("annealing the order of a capped row unscrambles a chain",
          "[caprow]") {
  Chain chain = makeChain(5);
  std::vector<int> scrambled = {2, 0, 4, 1, 3};
  std::optional<CapRowLayout> fixed =
      layoutCapRow(chain.menus, scrambled, chain.wires, Side, Side);
  REQUIRE(fixed);
  std::optional<CapRowLayout> layout = annealCapRow(
      chain.menus, scrambled, chain.wires, Side, Side, 20000, /*seed=*/1);
  REQUIRE(layout);
  // The chain in order or reversed: neighbours adjacent, 2 tiles a wire.
  CHECK(layout->doubledLength == 4 * 2 * 2);
  CHECK(fixed->doubledLength > layout->doubledLength);
  std::vector<int> forward = {0, 1, 2, 3, 4}, backward = {4, 3, 2, 1, 0};
  CHECK((layout->order == forward || layout->order == backward));
  // Rectangles by position; the checker wants them by kernel number.
  CapRowLayout byKernel = *layout;
  for (size_t p = 0; p < layout->order.size(); ++p)
    byKernel.kernels[layout->order[p]] = layout->kernels[p];
  CHECK(checkLegal(byKernel, chain) == layout->doubledLength);
}

TEST_CASE("annealing a capped row finds a tower for a scrambled order",
          "[caprow]") {
  // Seven kernels fit only with two end kernels stacked in a tower; the
  // search must bring two chain neighbours to an end and stack them.
  Chain chain = makeChain(7);
  std::vector<int> scrambled = {3, 6, 0, 5, 1, 4, 2};
  std::optional<CapRowLayout> layout = annealCapRow(
      chain.menus, scrambled, chain.wires, Side, Side, 50000, /*seed=*/3);
  REQUIRE(layout);
  CapRowLayout byKernel = *layout;
  for (size_t p = 0; p < layout->order.size(); ++p)
    byKernel.kernels[layout->order[p]] = layout->kernels[p];
  CHECK(checkLegal(byKernel, chain) == layout->doubledLength);
  // Never longer than the tower search on the chain's own order.
  std::optional<CapRowLayout> inOrder =
      layoutCapRow(chain.menus, chain.order, chain.wires, Side, Side);
  REQUIRE(inOrder);
  CHECK(layout->doubledLength <= inOrder->doubledLength);
  // Deterministic for a seed.
  std::optional<CapRowLayout> again = annealCapRow(
      chain.menus, scrambled, chain.wires, Side, Side, 50000, /*seed=*/3);
  REQUIRE(again);
  CHECK(again->order == layout->order);
  CHECK(again->doubledLength == layout->doubledLength);
}

TEST_CASE("annealing a capped row reports when nothing fits", "[caprow]") {
  Chain chain = makeChain(8);
  CHECK_FALSE(annealCapRow(chain.menus, chain.order, chain.wires, Side, Side,
                           1000, /*seed=*/1));
  CHECK_FALSE(annealCapRow({}, {}, {}, Side, Side, 1000, /*seed=*/1));
}
