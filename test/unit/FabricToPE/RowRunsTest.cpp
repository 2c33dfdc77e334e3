//===- RowRunsTest.cpp - strided PE ranges as sorted row runs -------------===//

#include "RowRuns.h"

#include <catch2/catch.hpp>

using namespace tessera::fabric;

namespace {

bool equalValues(uint32_t left, uint32_t right) { return left == right; }

PERange box(int64_t x, int64_t y, int64_t width, int64_t height,
            int64_t stepX = 1, int64_t stepY = 1) {
  return PERange{x, y, width, height, stepX, stepY};
}

} // namespace

TEST_CASE("ranges become runs sorted by row, then column", "[row-runs]") {
  RowRunBuilder builder;
  builder.add(box(2, 1, 3, 2), 7);
  builder.add(box(0, 0, 2, 1), 4);
  builder.add(box(0, 2, 1, 1), 5);
  std::vector<RowRun> runs;
  REQUIRE_FALSE(builder.build(equalValues, runs));
  CHECK(runs == std::vector<RowRun>{
                    {0, 0, 2, 4}, {2, 1, 3, 7}, {0, 2, 1, 5}, {2, 2, 3, 7}});
}

TEST_CASE("a step splits a row into one run per PE", "[row-runs]") {
  RowRunBuilder builder;
  builder.add(box(1, 0, 5, 3, 2, 2), 1);
  std::vector<RowRun> runs;
  REQUIRE_FALSE(builder.build(equalValues, runs));
  CHECK(runs == std::vector<RowRun>{{1, 0, 1, 1},
                                    {3, 0, 1, 1},
                                    {5, 0, 1, 1},
                                    {1, 2, 1, 1},
                                    {3, 2, 1, 1},
                                    {5, 2, 1, 1}});
}

TEST_CASE("neighbours merge when their values are the same", "[row-runs]") {
  RowRunBuilder builder;
  // Interleaved columns with values that compare equal in pairs 0~1.
  builder.add(box(0, 0, 6, 1, 2, 1), 0);
  builder.add(box(1, 0, 5, 1, 2, 1), 1);
  builder.add(box(6, 0, 2, 1), 2);
  builder.add(box(9, 0, 1, 1), 2); // not adjacent: a gap at 8
  std::vector<RowRun> runs;
  auto sameClass = [](uint32_t left, uint32_t right) {
    return left / 2 == right / 2;
  };
  REQUIRE_FALSE(builder.build(sameClass, runs));
  CHECK(runs == std::vector<RowRun>{{0, 0, 6, 0}, {6, 0, 2, 2}, {9, 0, 1, 2}});

  // Equal values on consecutive rows stay separate runs.
  RowRunBuilder rows;
  rows.add(box(0, 0, 3, 2), 0);
  REQUIRE_FALSE(rows.build(equalValues, runs));
  CHECK(runs == std::vector<RowRun>{{0, 0, 3, 0}, {0, 1, 3, 0}});
}

TEST_CASE("a PE in two ranges is reported", "[row-runs]") {
  std::vector<RowRun> runs;
  RowRunBuilder builder;
  builder.add(box(0, 0, 8, 1, 3, 1), 0); // 0, 3, 6
  builder.add(box(1, 0, 7, 1, 2, 1), 1); // 1, 3, 5, 7
  CHECK(builder.build(equalValues, runs) == std::make_pair(3u, 0u));

  // A long run covers a later start beyond its immediate successor.
  RowRunBuilder covering;
  covering.add(box(0, 1, 10, 1), 0);
  covering.add(box(2, 1, 1, 1), 0);
  covering.add(box(5, 1, 1, 1), 0);
  covering.add(box(4, 0, 1, 1), 0);
  CHECK(covering.build(equalValues, runs) == std::make_pair(2u, 1u));

  // The same PE twice.
  RowRunBuilder twice;
  twice.add(box(4, 4, 1, 1), 0);
  twice.add(box(4, 4, 1, 1), 0);
  CHECK(twice.build(equalValues, runs) == std::make_pair(4u, 4u));
}

TEST_CASE("nothing added gives no runs", "[row-runs]") {
  RowRunBuilder builder;
  std::vector<RowRun> runs = {{0, 0, 1, 0}};
  REQUIRE_FALSE(builder.build(equalValues, runs));
  CHECK(runs.empty());
}
