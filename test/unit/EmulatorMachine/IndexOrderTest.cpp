//===- IndexOrderTest.cpp - PE indices sorted through a bitmap ------------===//
//
// IndexOrder::sortUnique must give what std::sort and std::unique give, for
// lists crowded in their span (the bitmap) and sparse ones (the sort), with
// repeats, and leave its bitmap clear for the next call.
//
//===----------------------------------------------------------------------===//

#include "IndexOrder.h"

#include <catch2/catch.hpp>

#include <random>

using tessera::emulator::machine::IndexOrder;

TEST_CASE("index order sorts and drops repeats, crowded or sparse",
          "[machine][timers]") {
  std::mt19937 random(20261126);
  IndexOrder order;
  unsigned crowded = 0, sparse = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    // Sizes from empty to thousands; spans from tight to a wafer's PEs.
    size_t size = random() % 4 ? random() % 3000 : random() % 20;
    uint32_t base = random() % 1000000;
    uint32_t span = random() % 3 ? uint32_t(size) * 2 + 1 : 800000;
    std::vector<uint32_t> indices;
    for (size_t k = 0; k < size; ++k)
      indices.push_back(base + random() % span);
    std::vector<uint32_t> expected = indices;
    std::sort(expected.begin(), expected.end());
    expected.erase(std::unique(expected.begin(), expected.end()),
                   expected.end());
    crowded += size >= 16 && span < 64 * size;
    sparse += size >= 16 && span >= 64 * 4 * size;
    INFO("trial " << trial << ", " << size << " indices over " << span);
    order.sortUnique(indices);
    REQUIRE(indices == expected);
  }
  CHECK(crowded > 500);
  CHECK(sparse > 100);
}
