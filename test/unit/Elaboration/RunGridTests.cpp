//===- RunGridTests.cpp - Run compression of per-PE layout facts ----------===//

#include "tessera/Frontend/Elaboration/LayoutDescription.h"

#include <catch2/catch.hpp>

using namespace tessera::frontend::elaboration;

namespace {
llvm::SMLoc locAt(const char *p) { return llvm::SMLoc::getFromPointer(p); }
const char text[] = "ab";
} // namespace

TEST_CASE("a large rectangle with one program is one run per row") {
  RunGrid grid;
  // Column-major, as layout loops usually go.
  for (int64_t x = 0; x < 750; ++x)
    for (int64_t y = 0; y < 994; ++y)
      REQUIRE_FALSE(grid.set(x, y, 0, locAt(text)));
  CHECK(grid.getNumRuns() == 994);
  std::vector<ValueRect> rects = mergeRuns(grid);
  REQUIRE(rects.size() == 1);
  CHECK(rects[0].x == 0);
  CHECK(rects[0].y == 0);
  CHECK(rects[0].width == 750);
  CHECK(rects[0].height == 994);
}

TEST_CASE("setting a PE twice returns the run that holds it") {
  RunGrid grid;
  for (int64_t x = 0; x < 4; ++x)
    grid.set(x, 0, 1, locAt(text));
  std::optional<Run> first = grid.set(2, 0, 3, locAt(text + 1));
  REQUIRE(first);
  CHECK(first->loc == locAt(text));
  CHECK(grid.get(2, 0) == 1u);
  CHECK_FALSE(grid.get(4, 0));
}

TEST_CASE("runs fill gaps and join neighbours") {
  RunGrid grid;
  grid.set(0, 0, 1, locAt(text));
  grid.set(2, 0, 1, locAt(text));
  CHECK(grid.getNumRuns() == 2);
  grid.set(1, 0, 1, locAt(text));
  CHECK(grid.getNumRuns() == 1);
  // Another call site starts its own run, but merging ignores call sites.
  grid.set(3, 0, 1, locAt(text + 1));
  CHECK(grid.getNumRuns() == 2);
  REQUIRE(mergeRuns(grid).size() == 1);
  CHECK(mergeRuns(grid)[0].width == 4);
}

TEST_CASE("different values split rectangles, sorted by origin") {
  RunGrid grid;
  for (int64_t y = 0; y < 2; ++y) {
    grid.set(0, y, 0, locAt(text));
    grid.set(1, y, 1, locAt(text));
    grid.set(2, y, 1, locAt(text));
  }
  grid.set(0, 2, 1, locAt(text));
  std::vector<ValueRect> rects = mergeRuns(grid);
  REQUIRE(rects.size() == 3);
  CHECK((rects[0].x == 0 && rects[0].y == 0 && rects[0].width == 1 &&
         rects[0].height == 2 && rects[0].value == 0));
  CHECK((rects[1].x == 1 && rects[1].y == 0 && rects[1].width == 2 &&
         rects[1].height == 2 && rects[1].value == 1));
  CHECK((rects[2].x == 0 && rects[2].y == 2 && rects[2].width == 1 &&
         rects[2].height == 1 && rects[2].value == 1));
}
