//===- VariantsTest.cpp - non-dominated shapes and the δT bound -----------===//

#include "tessera/Placement/Variants.h"
#include "tessera/Placement/DeltaT.h"
#include "tessera/Placement/KernelGraphParser.h"
#include "tessera/Placement/StripPacker.h"

#include <catch2/catch.hpp>

#include <map>

using namespace tessera::placement;

namespace {

Node makeConv(ConvShape conv) {
  Node node;
  node.kind = NodeKind::Conv;
  node.conv = conv;
  return node;
}

/// The narrowest width for each height, by trying every parameter value up
/// to its limit (h', w', then c' and k' of each convolution), reduced to the
/// non-dominated (height, width) pairs.
std::vector<std::pair<int64_t, int64_t>>
bruteForceFront(const Node &node, int64_t deltaT, int64_t memLimit,
                int64_t maxSide, const std::vector<int64_t> &limits) {
  size_t convs = getKernelConvs(node).size();
  std::map<int64_t, int64_t> narrowest;
  ExecParams params;
  params.convs.resize(convs);
  size_t digits = 2 + 2 * convs;
  REQUIRE(limits.size() == digits);
  std::vector<int64_t> counter(digits, 1);
  while (true) {
    params.h = counter[0];
    params.w = counter[1];
    for (size_t i = 0; i < convs; ++i)
      params.convs[i] = {counter[2 + 2 * i], counter[3 + 2 * i]};
    KernelCost cost = getKernelCost(node, params);
    if (cost.time <= deltaT && cost.memory <= memLimit &&
        cost.height <= maxSide && cost.width <= maxSide) {
      auto found = narrowest.find(cost.height);
      if (found == narrowest.end() || cost.width < found->second)
        narrowest[cost.height] = cost.width;
    }
    size_t d = 0;
    while (d < digits && counter[d] == limits[d])
      counter[d++] = 1;
    if (d == digits)
      break;
    ++counter[d];
  }
  std::vector<std::pair<int64_t, int64_t>> front;
  for (auto [height, width] : narrowest)
    if (front.empty() || width < front.back().second)
      front.emplace_back(height, width);
  return front;
}

std::vector<std::pair<int64_t, int64_t>>
getFront(const VariantEnumerator &enumerator, int64_t deltaT) {
  std::vector<std::pair<int64_t, int64_t>> front;
  for (const Shape &shape : enumerator.getShapes(deltaT))
    front.emplace_back(shape.height, shape.width);
  return front;
}

} // namespace

TEST_CASE("the enumerator finds exactly the non-dominated conv shapes",
          "[variants]") {
  Node conv = makeConv({9, 7, 3, 3, 10, 12, 1});
  VariantEnumerator enumerator(conv, 400, 60);
  for (int64_t deltaT : {200, 700, 1500, 5000}) {
    INFO("deltaT " << deltaT);
    CHECK(getFront(enumerator, deltaT) ==
          bruteForceFront(conv, deltaT, 400, 60, {12, 12, 12, 12}));
  }
  Node strided = makeConv({8, 6, 3, 1, 5, 9, 2});
  VariantEnumerator stridedEnumerator(strided, 200, 40);
  for (int64_t deltaT : {30, 100, 400}) {
    INFO("deltaT " << deltaT);
    CHECK(getFront(stridedEnumerator, deltaT) ==
          bruteForceFront(strided, deltaT, 200, 40, {10, 10, 10, 10}));
  }
}

TEST_CASE("the enumerator finds exactly the non-dominated block shapes",
          "[variants]") {
  Node dblock;
  dblock.kind = NodeKind::DBlock;
  dblock.F = 8;
  dblock.H = 4;
  dblock.W = 4;
  VariantEnumerator enumerator(dblock, 300, 48);
  for (int64_t deltaT : {60, 150, 600}) {
    INFO("deltaT " << deltaT);
    CHECK(getFront(enumerator, deltaT) ==
          bruteForceFront(dblock, deltaT, 300, 48, {7, 7, 8, 2, 2, 2, 2, 8}));
  }
}

TEST_CASE("every shape's parameters give that shape within the limits",
          "[variants]") {
  Node cblock;
  cblock.kind = NodeKind::CBlock;
  cblock.F = 256;
  cblock.H = 56;
  cblock.W = 56;
  VariantEnumerator enumerator(cblock, 24576, 633);
  const int64_t deltaT = 60000;
  std::vector<Shape> shapes = enumerator.getShapes(deltaT);
  REQUIRE(shapes.size() > 10);
  for (size_t i = 0; i < shapes.size(); ++i) {
    ExecParams params = enumerator.getParams(shapes[i], deltaT);
    KernelCost cost = getKernelCost(cblock, params);
    CHECK(cost.height == shapes[i].height);
    CHECK(cost.width == shapes[i].width);
    CHECK(cost.time == shapes[i].time);
    CHECK(cost.time <= deltaT);
    CHECK(cost.memory <= 24576);
    if (i > 0) {
      CHECK(shapes[i].height > shapes[i - 1].height);
      CHECK(shapes[i].width < shapes[i - 1].width);
    }
  }
  // Too fast for any rectangle within 633 x 633.
  CHECK(enumerator.getShapes(10).empty());
}

TEST_CASE("a menu gives the narrowest extent per row height, R0 or R90",
          "[variants]") {
  Shape tall{30, 6, 1, 1, 1, 0};
  Shape wide{8, 20, 1, 1, 1, 0};
  KernelMenu menu({wide, tall}, 25, 40);
  CHECK(menu.extent[5] == 26); // Nothing fits: wider than the grid.
  CHECK(menu.shape[5] == -1);
  CHECK(menu.extent[8] == 20); // wide, R0.
  CHECK_FALSE(menu.rotated[8]);
  CHECK(menu.extent[20] == 8); // wide turned: 20 high, 8 across.
  CHECK(menu.rotated[20]);
  CHECK(menu.getVerticalExtent(20) == 20);
  CHECK(menu.extent[30] == 6); // tall, R0.
  CHECK(menu.shape[30] == 1);
  CHECK(menu.extent[40] == 6);
}

#ifdef TESSERA_ISPD2020_DIR
TEST_CASE("the δT lower bound matches the published bounds",
          "[variants][ispd2020]") {
  // The README's "δT bound" column for graphs A, I, K, M and N.
  const std::pair<char, int64_t> published[] = {
      {'A', 33152}, {'I', 46592}, {'K', 252}, {'M', 2156544}, {'N', 1020}};
  for (auto [name, bound] : published) {
    INFO("benchmark " << name);
    GraphOrError result = readKernelGraph(std::string(TESSERA_ISPD2020_DIR) +
                                          "/" + name + ".kgraph");
    REQUIRE(result.graph);
    std::vector<VariantEnumerator> enumerators = makeEnumerators(*result.graph);
    CHECK(getDeltaTLowerBound(*result.graph, enumerators) == bound);
  }
}
#endif

TEST_CASE("the smallest δT search is a binary search", "[variants]") {
  int calls = 0;
  auto atLeast = [&](int64_t deltaT) {
    ++calls;
    return deltaT >= 777;
  };
  CHECK(findSmallestDeltaT(1, 1 << 20, atLeast) == 777);
  CHECK(calls <= 22);
  CHECK(findSmallestDeltaT(1, 500, atLeast) == std::nullopt);
  CHECK(findSmallestDeltaT(900, 1000, atLeast) == 900);
}
